import type { IDataObject } from 'n8n-workflow';
import { single } from '../../../shared/ads';
import { z } from 'zod';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath } from '../../account';
import {
	POST_LABELS,
	asUserIdProperty,
	needsTextOrMedia,
	postFields,
	postAdditionalFields,
	readPost,
	textProperty,
	toParams,
} from '../../shared/post';

const schema = z
	.object({
		...postFields,
		conversation_settings: z.enum(['EVERYONE', 'FOLLOWING', 'MENTIONED_USERS']).optional(),
		trim_user: z.boolean().optional(),
		tweet_mode: z
			.enum(['compat', 'extended'], { errorMap: () => ({ message: 'must be compat or extended' }) })
			.optional(),
		video_cta: z.enum(['VISIT_SITE', 'WATCH_NOW']).optional(),
		video_cta_value: z.string().url('must be a URL').optional(),
		video_description: z.string().max(200, 'at most 200 characters').optional(),
		video_title: z.string().max(70, 'at most 70 characters').optional(),
	})
	.strict()
	.superRefine(needsTextOrMedia)
	.superRefine((post, ctx) => {
		if (post.video_cta_value && !post.video_cta)
			ctx.addIssue({
				code: 'custom',
				path: ['video_cta'],
				message: 'is required with a video CTA URL',
			});
	});

const LABELS = {
	...POST_LABELS,
	conversation_settings: 'Who Can Reply',
	trim_user: 'Trim User',
	tweet_mode: 'Text Mode',
	video_cta: 'Video CTA',
	video_cta_value: 'Video CTA URL',
	video_description: 'Video Description',
	video_title: 'Video Title',
};

const VIDEO_FIELDS = ['video_cta', 'video_cta_value', 'video_description', 'video_title'];

export const create: ItemOperation = {
	option: {
		name: 'Create',
		value: 'create',
		description: 'Publish a post through the ad account (promoted-only by default)',
		action: 'Create a post as the ad account',
	},
	properties: [
		asUserIdProperty(),
		textProperty(),
		postAdditionalFields([
			{
				displayName: 'Text Mode',
				name: 'tweet_mode',
				type: 'options',
				default: 'compat',
				description:
					'How the returned post carries its text (sent as tweet_mode): Compatibility gives "text", possibly truncated to 140 characters; Extended gives the whole text in "full_text"',
				options: [
					{ name: 'Compatibility', value: 'compat' },
					{ name: 'Extended', value: 'extended' },
				],
			},
			{
				displayName: 'Trim User',
				name: 'trim_user',
				type: 'boolean',
				default: false,
				description: 'Whether the returned user object holds only the author ID',
			},
			{
				displayName: 'Video CTA',
				name: 'video_cta',
				type: 'options',
				default: 'VISIT_SITE',
				options: [
					{ name: 'Visit Site', value: 'VISIT_SITE' },
					{ name: 'Watch Now', value: 'WATCH_NOW' },
				],
			},
			{ displayName: 'Video CTA URL', name: 'video_cta_value', type: 'string', default: '' },
			{
				displayName: 'Video Description',
				name: 'video_description',
				type: 'string',
				default: '',
				description: 'At most 200 characters',
			},
			{
				displayName: 'Video Title',
				name: 'video_title',
				type: 'string',
				default: '',
				description: 'At most 70 characters',
			},
			{
				displayName: 'Who Can Reply',
				name: 'conversation_settings',
				type: 'options',
				default: 'EVERYONE',
				options: [
					{ name: 'Everyone', value: 'EVERYONE' },
					{ name: 'People You Follow', value: 'FOLLOWING' },
					{ name: 'Only People You Mention', value: 'MENTIONED_USERS' },
				],
			},
		]),
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const fields = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const input: IDataObject = {
			nullcast: true,
			...readPost(ctx, itemIndex, fields, { asUserId: true, text: true }),
		};
		if (fields.conversation_settings) input.conversation_settings = fields.conversation_settings;
		if (fields.trim_user !== undefined) input.trim_user = Boolean(fields.trim_user);
		if (fields.tweet_mode !== undefined) input.tweet_mode = fields.tweet_mode;
		for (const f of VIDEO_FIELDS) if (fields[f]) input[f] = String(fields[f]);
		const post = validateInput(ctx.getNode(), schema, input, itemIndex, LABELS);
		return single(
			await ctx.request({
				method: 'POST',
				path: accountPath(ctx, itemIndex, '/tweet'),
				qs: toParams(post),
			}),
		);
	},
};
