import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath, adsRequest, single } from '../../common';
import { isoSeconds } from '../../shared/fields';
import { POST_LABELS, asUserIdProperty, postOptions, readPost, textProperty, toParams } from '../../shared/post';
import { scheduledPostSchema } from './schema';

const show = showFor('scheduledPost', 'create');

export const create: ItemOperation = {
	option: { name: 'Create', value: 'create', description: 'Schedule a post for the ad account', action: 'Create a scheduled post' },
	properties: [
		asUserIdProperty(show),
		{
			displayName: 'Scheduled At',
			name: 'scheduledAt',
			type: 'dateTime',
			default: '',
			required: true,
			displayOptions: show,
			description: 'When to publish; must be in the future',
		},
		textProperty(show),
		{ displayName: 'Additional Fields', name: 'additionalFields', type: 'collection', placeholder: 'Add Field', default: {}, displayOptions: show, options: postOptions() },
		optionsCollection('scheduledPost', 'create'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const input: IDataObject = {
			nullcast: true,
			...readPost(this, itemIndex, fields, { asUserId: true, text: true }),
			scheduled_at: isoSeconds(this.getNodeParameter('scheduledAt', itemIndex, '')),
		};
		const post = validateInput(this.getNode(), scheduledPostSchema(new Date()), input, itemIndex, POST_LABELS);
		const path = accountPath(this, itemIndex, '/scheduled_tweets');
		return single(await adsRequest(this, itemIndex, { method: 'POST', path, qs: toParams(post) }));
	},
};
