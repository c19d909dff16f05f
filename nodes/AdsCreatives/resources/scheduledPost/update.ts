import type { IDataObject } from 'n8n-workflow';
import { single } from '../../../shared/ads';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath } from '../../account';
import { KINDS, objectId, objectLocator } from '../../kinds';
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
		objectLocator(KINDS.scheduledPost),
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'Post As (User ID)',
					name: 'as_user_id',
					type: 'string',
					default: '',
					description:
						'ID of the account the post is published as (the service calls it as_user_id)',
				},
				...postOptions(),
				{
					displayName: 'Scheduled At',
					name: 'scheduled_at',
					type: 'dateTime',
					default: '',
					description: 'Must be in the future',
				},
				{
					displayName: 'Text',
					name: 'text',
					type: 'string',
					typeOptions: { rows: 3 },
					default: '',
				},
			],
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = objectId(ctx, itemIndex, KINDS.scheduledPost);
		const fields = ctx.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
		const input = readPost(ctx, itemIndex, fields, {});
		if (fields.scheduled_at) input.scheduled_at = isoSeconds(fields.scheduled_at);
		const post = validateInput(
			ctx.getNode(),
			scheduledPostUpdateSchema(new Date()),
			input,
			itemIndex,
			POST_LABELS,
		);
		const path = accountPath(ctx, itemIndex, `/scheduled_tweets/${id}`);
		return single(await ctx.request({ method: 'PUT', path, qs: toParams(post) }));
	},
};
