import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { KINDS, accountPath, adsRequest, objectId, objectLocator, single } from '../../common';
import { isoSeconds } from '../../shared/fields';
import { POST_LABELS, postOptions, readPost, toParams } from '../../shared/post';
import { scheduledPostUpdateSchema } from './schema';

export const update: ItemOperation = {
	option: {
		name: 'Update',
		value: 'update',
		description: 'Change a scheduled post that is still pending',
		action: 'Update a scheduled post',
	},
	properties: [
		objectLocator(KINDS.scheduledPost, ['update']),
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: showFor('scheduledPost', 'update'),
			options: [
				{ displayName: 'Post As (User ID)', name: 'as_user_id', type: 'string', default: '', description: 'ID of the account the post is published as (the service calls it as_user_id)' },
				...postOptions(),
				{ displayName: 'Scheduled At', name: 'scheduled_at', type: 'dateTime', default: '', description: 'Must be in the future' },
				{ displayName: 'Text', name: 'text', type: 'string', typeOptions: { rows: 3 }, default: '' },
			],
		},
		optionsCollection('scheduledPost', 'update'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const id = objectId(this, itemIndex, KINDS.scheduledPost);
		const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
		const input = readPost(this, itemIndex, fields, {});
		if (fields.scheduled_at) input.scheduled_at = isoSeconds(fields.scheduled_at);
		const post = validateInput(this.getNode(), scheduledPostUpdateSchema(new Date()), input, itemIndex, POST_LABELS);
		const path = accountPath(this, itemIndex, `/scheduled_tweets/${id}`);
		return single(await adsRequest(this, itemIndex, { method: 'PUT', path, qs: toParams(post) }));
	},
};
