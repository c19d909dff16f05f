import type { IDataObject } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { idProperty, readId } from './common';

const OP = 'checkAccountActivitySubscription';

/**
 * Admin → Check Account Activity Subscription: whether the authenticated account is subscribed to a
 * webhook. The service answers this for the account itself, so it takes a user's credential (OAuth2
 * with dm.read, dm.write, tweet.read and users.read, or OAuth1), not the app-only bearer token.
 */
export const checkAccountActivitySubscription: ItemOperation = {
	option: {
		name: 'Check Account Activity Subscription',
		value: OP,
		description:
			"Check whether the authenticated account's activity (Account Activity) is delivered to a webhook. Needs the account's own credential (OAuth2 or OAuth1), not the App-Only Bearer Token.",
		action: 'Check an account activity subscription',
	},
	properties: [idProperty(OP, 'webhookId', 'Webhook ID', 'The webhook to check')],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = readId(ctx, itemIndex, 'webhookId', 'Webhook ID');
		const body = await ctx.request({
			method: 'GET',
			path: `/2/account_activity/webhooks/${id}/subscriptions/all`,
		});
		return { webhook_id: id, ...(unwrapData<IDataObject>(body) ?? {}) };
	},
};
