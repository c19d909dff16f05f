import type { IDataObject } from 'n8n-workflow';

import { single } from '../../../shared/ads';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath } from '../../account';
import { KINDS, objectId, objectLocator } from '../../kinds';
import { POST_LABELS, postOptions, readPost, toParams } from '../../shared/post';
import { draftFields } from './create';

/** Each field given replaces the stored one; a draft keeps text or media (checked by the service). */
const schema = draftFields
	.partial()
	.strict()
	.refine((v) => Object.keys(v).length > 0, 'nothing to update: add a field');

export const update: ItemOperation = {
	option: {
		name: 'Update',
		value: 'update',
		description: 'Change the text, media, card or author of a draft post',
		action: 'Update a draft post',
	},
	properties: [
		objectLocator(KINDS.draftPost),
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
				...postOptions('none'),
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
		const id = objectId(ctx, itemIndex, KINDS.draftPost);
		const fields = ctx.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
		const post = validateInput(
			ctx.getNode(),
			schema,
			readPost(ctx, itemIndex, fields, { name: false }),
			itemIndex,
			POST_LABELS,
		);
		const path = accountPath(ctx, itemIndex, `/draft_tweets/${id}`);
		return single(await ctx.request({ method: 'PUT', path, qs: toParams(post) }));
	},
};
