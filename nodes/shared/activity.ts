import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PlatformContext, PlatformRequest } from './transport';
import type { SendRequest } from './users';
import { CREDENTIAL_TYPES, platformRequest, unwrapData } from './transport';

/**
 * Webhook registration and activity subscriptions, shared by the Platform Trigger (which registers
 * its own webhook and subscriptions on activation) and Platform Posts > Admin (which prepares them
 * for a trigger to adopt). Both calls need the app-only bearer token.
 */

export interface Webhook extends IDataObject {
	id: string;
	url: string;
	valid?: boolean;
}

export interface SubscriptionInput extends IDataObject {
	event_type: string;
	filter: IDataObject;
	tag?: string;
	webhook_id?: string;
}

/**
 * Transport settings a caller may add (failure hint, and the credential: the app-only bearer unless
 * a subscription needs the account's own token, as DM events do). Item index and rate-limit wait
 * come with the caller's `send`.
 */
type Extra = Pick<PlatformRequest, 'unsafeFailureHint' | 'credentialType'>;

/** POST /2/webhooks: registers the URL (the service runs a CRC check first); returns the webhook. */
export async function registerWebhook(
	send: SendRequest,
	url: string,
	extra: Extra = {},
): Promise<Webhook> {
	const body = await send({
		...extra,
		method: 'POST',
		path: '/2/webhooks',
		body: { url },
		credentialType: CREDENTIAL_TYPES.appOnly,
	});
	return unwrapData<Webhook>(body);
}

/** The subscription of a create / update answer: at `data`, or at `data.subscription` on older servers. */
export function subscriptionOf(body: unknown): IDataObject {
	const data = (unwrapData<IDataObject>(body) ?? {}) as IDataObject;
	return ((data.subscription as IDataObject | undefined) ?? data) as IDataObject;
}

/** The id of a subscription object (`subscription_id`; `id` on older servers). */
export function subscriptionIdOf(subscription: IDataObject): string {
	return String(subscription.subscription_id ?? subscription.id);
}

/** POST /2/activity/subscriptions; returns the subscription. */
export async function createSubscription(
	send: SendRequest,
	input: SubscriptionInput,
	extra: Extra = {},
): Promise<IDataObject> {
	const body = await send({
		credentialType: CREDENTIAL_TYPES.appOnly,
		...extra,
		method: 'POST',
		path: '/2/activity/subscriptions',
		body: input,
	});
	return subscriptionOf(body);
}

/** A user ID as it is, or an @username looked up once (GET /2/users/by/username); empty gives undefined. */
export async function resolveUserId(
	ctx: PlatformContext,
	raw: string,
	itemIndex?: number,
	label = 'User',
): Promise<string | undefined> {
	const value = raw.trim().replace(/^@/, '');
	if (!value) return undefined;
	if (/^\d{1,19}$/.test(value)) return value;
	const where = itemIndex === undefined ? '' : `Invalid input in item ${itemIndex + 1}: `;
	if (!/^\w{1,15}$/.test(value)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${where}"${label}" is not a user ID or @username: "${raw}"`,
			{ itemIndex },
		);
	}
	const body = await platformRequest.call(ctx, {
		method: 'GET',
		path: `/2/users/by/username/${encodeURIComponent(value)}`,
		credentialType: CREDENTIAL_TYPES.appOnly,
		itemIndex,
	});
	const user = unwrapData<IDataObject>(body);
	if (!user?.id)
		throw new NodeOperationError(ctx.getNode(), `The user @${value} was not found`, { itemIndex });
	return String(user.id);
}
