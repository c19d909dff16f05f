import type { IDataObject } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import { userLocator, userRefParameter } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { resolveUserId } from '../../users';

/** Block DMs and Unblock DMs: the same request on /block or /unblock. */
function dmBlockOperation(block: boolean): ItemOperation {
	const verb = block ? 'block' : 'unblock';
	return {
		option: block
			? {
					name: 'Block DMs',
					value: 'blockDms',
					description:
						'Stop direct messages between the authenticated user and a user (the account itself is not blocked). Needs a user-context credential (OAuth2 scopes dm.write, tweet.read, users.read).',
					action: 'Block direct messages from a user',
				}
			: {
					name: 'Unblock DMs',
					value: 'unblockDms',
					description:
						'Allow direct messages between the authenticated user and a user again, after Block DMs. Needs a user-context credential (OAuth2 scopes dm.write, tweet.read, users.read).',
					action: 'Unblock direct messages from a user',
				},
		properties: [
			{
				...userLocator('dmUser'),
				description: `The user whose direct messages to ${verb}, by username, ID or profile URL`,
			},
		],
		authentication: USER_CONTEXT,
		async execute(ctx: OperationContext, itemIndex: number) {
			const userId = await resolveUserId.call(
				ctx,
				itemIndex,
				userRefParameter(ctx, 'dmUser', itemIndex),
			);
			const body = await ctx.request({
				method: 'POST',
				path: `/2/users/${userId}/dm/${verb}`,
				// Blocking (or unblocking) twice leaves the same state: safe to repeat.
				retryTransient: true,
			});
			return { ...(unwrapData<IDataObject>(body) ?? {}), target_user_id: userId };
		},
	};
}

export const blockDms = dmBlockOperation(true);
export const unblockDms = dmBlockOperation(false);
