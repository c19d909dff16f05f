import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { z } from 'zod';

import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { validateInput } from '../../../shared/validation';
import { accountIdProperty, accountPath, adsRequest } from '../../common';

const show = showFor('scheduledPost', 'create');

export function scheduledPostSchema(now: Date) {
	return z
		.object({
			as_user_id: z.string().regex(/^\d{1,19}$/, 'a user ID is 1-19 digits'),
			scheduled_at: z
				.string()
				.refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 date-time')
				.refine((v) => Date.parse(v) > now.getTime(), 'must be in the future'),
			text: z.string().optional(),
			card_uri: z.string().regex(/^card:\/\/\d+$/, 'a card URI looks like card://123').optional(),
			media_keys: z.array(z.string().regex(/^\d+_\d+$/, 'a media key looks like 3_123')).max(4, 'at most 4 media keys').optional(),
			nullcast: z.boolean(),
			name: z.string().max(80, 'at most 80 characters').optional(),
		})
		.refine((v) => v.text || v.media_keys?.length, { path: ['text'], message: 'text is required when there is no media' });
}

export const create: ItemOperation = {
	option: { name: 'Create', value: 'create', description: 'Schedule a post for the ad account', action: 'Create a scheduled post' },
	properties: [
		accountIdProperty('scheduledPost', ['create']),
		{ displayName: 'As User ID', name: 'asUserId', type: 'string', default: '', required: true, displayOptions: show, description: 'The user on whose behalf the post is published' },
		{ displayName: 'Scheduled At', name: 'scheduledAt', type: 'dateTime', default: '', required: true, displayOptions: show, description: 'When to publish; must be in the future' },
		{ displayName: 'Text', name: 'text', type: 'string', typeOptions: { rows: 3 }, default: '', displayOptions: show },
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: show,
			options: [
				{ displayName: 'Card URI', name: 'card_uri', type: 'string', default: '', placeholder: 'card://1234567890' },
				{ displayName: 'Media Keys', name: 'media_keys', type: 'string', default: '', description: 'Comma-separated: up to 4 images, or 1 GIF, or 1 video from the media library' },
				{ displayName: 'Name', name: 'name', type: 'string', default: '', description: 'A name for the scheduled post (at most 80 characters)' },
				{ displayName: 'Nullcast', name: 'nullcast', type: 'boolean', default: true, description: 'Whether the post is promoted-only (not shown to followers)' },
			],
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const scheduledAt = String(this.getNodeParameter('scheduledAt', itemIndex, ''));
		const input = {
			as_user_id: String(this.getNodeParameter('asUserId', itemIndex, '')).trim(),
			scheduled_at: scheduledAt && !Number.isNaN(Date.parse(scheduledAt)) ? new Date(scheduledAt).toISOString().replace(/\.\d{3}Z$/, 'Z') : scheduledAt,
			text: (this.getNodeParameter('text', itemIndex, '') as string) || undefined,
			card_uri: fields.card_uri ? String(fields.card_uri) : undefined,
			media_keys: fields.media_keys ? String(fields.media_keys).split(',').map((k) => k.trim()).filter(Boolean) : undefined,
			nullcast: fields.nullcast === undefined ? true : Boolean(fields.nullcast),
			name: fields.name ? String(fields.name) : undefined,
		};
		const valid = validateInput(this.getNode(), scheduledPostSchema(new Date()), input, itemIndex, {
			as_user_id: 'As User ID',
			scheduled_at: 'Scheduled At',
			text: 'Text',
			card_uri: 'Card URI',
			media_keys: 'Media Keys',
			name: 'Name',
		});
		const body: IDataObject = { ...valid };
		if (valid.media_keys) body.media_keys = valid.media_keys.join(',');
		for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
		const response = await adsRequest(this, { method: 'POST', path: accountPath(this, itemIndex, '/scheduled_tweets'), body, itemIndex });
		return unwrapData<IDataObject>(response);
	},
};
