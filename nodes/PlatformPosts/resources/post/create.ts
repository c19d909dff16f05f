import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import { postIdFrom } from '../../../shared/locators';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { platformRequest, unwrapData } from '../../../shared/transport';
import { validateInput } from '../../../shared/validation';
import { uploadMedia } from '../../media';

const show = showFor('post', 'create');

const schema = z
	.object({
		text: z.string().max(25000, 'at most 25,000 characters'),
		replyTo: z.string().optional(),
		quote: z.string().optional(),
		pollOptions: z.array(z.string().min(1, 'must not be empty').max(25, 'at most 25 characters')).optional(),
		pollDuration: z.number().int().min(5, 'at least 5 minutes').max(10080, 'at most 10,080 minutes').optional(),
		mediaIds: z.array(z.string().regex(/^\d{1,19}$/, 'a media ID is 1-19 digits')).max(4, 'at most 4 media').optional(),
		binaryCount: z.number().max(4, 'at most 4 binary files'),
		cardUri: z.string().regex(/^card:\/\/\d+$/, 'a card URI looks like card://123').optional(),
	})
	.superRefine((v, ctx) => {
		if (v.pollOptions && (v.pollOptions.length < 2 || v.pollOptions.length > 4)) {
			ctx.addIssue({ code: 'custom', path: ['pollOptions'], message: 'a poll has 2 to 4 options' });
		}
		const attachments = [
			(v.mediaIds?.length ?? 0) + v.binaryCount > 0 ? 'media' : '',
			v.pollOptions ? 'poll' : '',
			v.quote ? 'quote' : '',
			v.cardUri ? 'card' : '',
		].filter(Boolean);
		if (attachments.length > 1) {
			ctx.addIssue({ code: 'custom', path: ['attachments'], message: `${attachments.join(', ')} cannot be combined: choose one` });
		}
		if (!v.text && !attachments.length) ctx.addIssue({ code: 'custom', path: ['text'], message: 'text or media is required' });
	});

const LABELS = {
	text: 'Text',
	pollOptions: 'Poll Options',
	pollDuration: 'Poll Duration (Minutes)',
	mediaIds: 'Media IDs',
	binaryCount: 'Binary Properties',
	cardUri: 'Card URI',
	attachments: 'Attachments',
};

export const create: ItemOperation = {
	option: { name: 'Create', value: 'create', description: 'Publish a post, with media, a poll, a quote or a card', action: 'Create a post' },
	properties: [
		{
			displayName: 'Text',
			name: 'text',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			displayOptions: show,
			description: 'The text of the post (up to 25,000 characters for long-form; the service judges the weighted length)',
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: show,
			options: [
				{ displayName: 'Binary Properties', name: 'binaryProperties', type: 'string', default: '', placeholder: 'data, image2', description: 'Comma-separated binary properties of the input item to upload and attach (1-4 images, or 1 GIF or video)' },
				{ displayName: 'Card URI', name: 'cardUri', type: 'string', default: '', placeholder: 'card://1234567890' },
				{ displayName: 'Community ID', name: 'communityId', type: 'string', default: '' },
				{ displayName: 'Media IDs', name: 'mediaIds', type: 'string', default: '', description: 'Comma-separated IDs of media uploaded before' },
				{ displayName: 'Paid Partnership', name: 'paidPartnership', type: 'boolean', default: false, description: 'Whether the post is a paid partnership' },
				{ displayName: 'Poll Duration (Minutes)', name: 'pollDuration', type: 'number', default: 1440, typeOptions: { minValue: 5, maxValue: 10080 } },
				{ displayName: 'Poll Options', name: 'pollOptions', type: 'string', default: '', description: 'Comma-separated, 2-4 options of at most 25 characters' },
				{ displayName: 'Quote Post ID or URL', name: 'quote', type: 'string', default: '' },
				{
					displayName: 'Reply Settings',
					name: 'replySettings',
					type: 'options',
					default: 'following',
					options: [
						{ name: 'Following', value: 'following' },
						{ name: 'Mentioned Users', value: 'mentionedUsers' },
						{ name: 'Subscribers', value: 'subscribers' },
						{ name: 'Verified', value: 'verified' },
					],
				},
				{ displayName: 'Reply To Post ID or URL', name: 'replyTo', type: 'string', default: '' },
				{ displayName: 'Share With Followers', name: 'shareWithFollowers', type: 'boolean', default: false, description: 'Whether a community post is also shown to followers' },
			],
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const text = this.getNodeParameter('text', itemIndex, '') as string;
		const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const list = (value: unknown) =>
			String(value ?? '')
				.split(',')
				.map((s) => s.trim())
				.filter(Boolean);
		const binaryProperties = list(fields.binaryProperties);
		const idOrUrl = (value: unknown, label: string) => {
			if (!value) return undefined;
			const id = postIdFrom(String(value));
			if (!id) {
				throw new NodeOperationError(this.getNode(), `Invalid input in item ${itemIndex + 1}: ${label}: not a post ID or URL`, { itemIndex });
			}
			return id;
		};
		const input = validateInput(
			this.getNode(),
			schema,
			{
				text,
				replyTo: idOrUrl(fields.replyTo, 'Reply To Post ID or URL'),
				quote: idOrUrl(fields.quote, 'Quote Post ID or URL'),
				pollOptions: fields.pollOptions ? list(fields.pollOptions) : undefined,
				pollDuration: fields.pollOptions ? Number(fields.pollDuration ?? 1440) : undefined,
				mediaIds: fields.mediaIds ? list(fields.mediaIds) : undefined,
				binaryCount: binaryProperties.length,
				cardUri: fields.cardUri ? String(fields.cardUri) : undefined,
			},
			itemIndex,
			LABELS,
		);

		const mediaIds = [...(input.mediaIds ?? [])];
		for (const property of binaryProperties) {
			const binary = this.helpers.assertBinaryData(itemIndex, property);
			const data = await this.helpers.getBinaryDataBuffer(itemIndex, property);
			mediaIds.push(await uploadMedia.call(this, itemIndex, data, binary.mimeType));
		}

		const body: IDataObject = {};
		if (text) body.text = text;
		if (mediaIds.length) body.media = { media_ids: mediaIds };
		if (input.replyTo) body.reply = { in_reply_to_tweet_id: input.replyTo };
		if (input.quote) body.quote_tweet_id = input.quote;
		if (input.pollOptions) body.poll = { options: input.pollOptions, duration_minutes: input.pollDuration };
		if (input.cardUri) body.card_uri = input.cardUri;
		if (fields.replySettings) body.reply_settings = fields.replySettings;
		if (fields.communityId) {
			body.community_id = String(fields.communityId);
			if (fields.shareWithFollowers) body.share_with_followers = true;
		}
		if (fields.paidPartnership) body.paid_partnership = true;

		const response = await platformRequest.call(this, {
			method: 'POST',
			path: '/2/tweets',
			body,
			itemIndex,
			unsafeFailureHint:
				'The post may have been published although the request failed: look at the account before running again.',
		});
		return unwrapData<IDataObject>(response);
	},
};
