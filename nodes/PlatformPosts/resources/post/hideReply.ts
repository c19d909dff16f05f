import type { IDataObject } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import { postIdParameter, postLocator } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';

/**
 * PUT /2/tweets/:id/hidden with {hidden}: the author of a conversation hides or shows again a reply
 * to it. Hide Reply and Unhide Reply are the two values of one request.
 */
export function replyVisibilityOperation(hidden: boolean): ItemOperation {
	return {
		option: hidden
			? {
					name: 'Hide Reply',
					value: 'hideReply',
					action: 'Hide a reply',
					description:
						'Hide a reply to a conversation the authenticated user started (readers can still open it under hidden replies). Needs a user-context credential (OAuth2 scope tweet.moderate.write).',
				}
			: {
					name: 'Unhide Reply',
					value: 'unhideReply',
					action: 'Unhide a reply',
					description:
						'Show again a reply hidden from a conversation the authenticated user started. Needs a user-context credential (OAuth2 scope tweet.moderate.write).',
				},
		properties: [
			{
				...postLocator('postId', 'Reply'),
				description: 'The reply, by its ID or by its URL',
			},
		],
		authentication: USER_CONTEXT,
		async execute(ctx: OperationContext, itemIndex: number) {
			const id = postIdParameter(ctx, 'postId', itemIndex);
			const body = await ctx.request({
				method: 'PUT',
				path: `/2/tweets/${id}/hidden`,
				body: { hidden },
			});
			const data = unwrapData<IDataObject>(body) ?? {};
			return { ...(typeof data === 'object' ? data : { hidden }), post_id: id };
		},
	};
}

export const hideReply = replyVisibilityOperation(true);
