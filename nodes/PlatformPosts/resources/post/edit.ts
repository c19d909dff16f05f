import type { IDataObject } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import { postLocator, postIdParameter } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { attachmentFields, composeBody, sendPost, sorted } from './compose';

/**
 * Edits a recent post: POST /2/tweets with `edit_options.previous_post_id`. The platform's release
 * notes name POST /2/posts for edits; the live service takes them on POST /2/tweets, so that is the
 * path used.
 */
export const edit: ItemOperation = {
	option: {
		name: 'Edit',
		value: 'edit',
		description:
			"Edit one of the authenticated user's recent posts (within 1 hour of creation; needs a premium subscription). The edit becomes a new version with a new ID.",
		action: 'Edit a post',
	},
	properties: [
		{
			...postLocator('postId', 'Post'),
			description: 'The post to edit, by its ID or by its URL',
		},
		{
			displayName: 'Text',
			name: 'text',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description:
				'The new text of the post (the whole text, not a change). May be empty when media is attached.',
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: sorted(attachmentFields()),
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const previous = postIdParameter(ctx, 'postId', itemIndex);
		const body = await composeBody.call(ctx, itemIndex);
		body.edit_options = { previous_post_id: previous };
		const response = await sendPost.call(ctx, itemIndex, body, 'edit');
		return { previous_post_id: previous, ...unwrapData<IDataObject>(response) };
	},
};
