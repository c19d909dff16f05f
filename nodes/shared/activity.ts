import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PlatformContext, PlatformCredentialType, PlatformRequest } from './transport';
import type { SendRequest } from './users';
import { CREDENTIAL_TYPES, platformRequest, unwrapData } from './transport';

/**
 * Webhook registration and activity subscriptions, shared by the Platform Trigger (which registers
 * its own webhook and subscriptions on activation) and Platform Posts > Admin (which prepares them
 * for a trigger to adopt). Both calls need the app-only bearer token.
 */

/**
 * The Activity API event types the package offers, by the value a workflow stores. The first twelve
 * are the ones the Platform Trigger's versions 1 and 2 subscribe to for "All Events"; the rest are
 * the service's contract event types the package added later (version 3's "All Events" includes
 * them). post.create, post.delete and dm.* are named only in the service's prose (newer than its
 * contract); the others are the contract's names, except two prose names (see WIRE_EVENT_TYPES).
 */
export const LEGACY_ACTIVITY_EVENT_TYPES = [
	'post.create',
	'post.delete',
	'spaces.start',
	'spaces.end',
	'dm.received',
	'dm.sent',
	'dm.read',
	'dm.indicate_typing',
	'profile.update.bio',
	'profile.update.verified',
	'profile.update.affiliate',
	'profile.update.screenname',
] as const;

export const ACTIVITY_EVENT_TYPES = [
	...LEGACY_ACTIVITY_EVENT_TYPES,
	'profile.update.profile_picture',
	'profile.update.banner_picture',
	'profile.update.geo',
	'profile.update.url',
	'profile.update.handle',
	'follow.follow',
	'follow.unfollow',
	'news.new',
	'chat.received',
	'chat.sent',
] as const;

export type ActivityEventType = (typeof ACTIVITY_EVENT_TYPES)[number];

/**
 * Stored values whose name on the wire differs: the service's prose calls the badge events
 * profile.update.verified and profile.update.affiliate, but the service takes (and sends) only
 * profile.update.verified_badge and profile.update.affiliate_badge. Saved workflows keep the stored
 * value; requests and the Events filter use the wire name.
 */
export const WIRE_EVENT_TYPES: Readonly<Record<string, string>> = {
	'profile.update.verified': 'profile.update.verified_badge',
	'profile.update.affiliate': 'profile.update.affiliate_badge',
};

/** The service's name of an event type given by its stored value (the same for all but two). */
export function wireEventType(value: string): string {
	return WIRE_EVENT_TYPES[value] ?? value;
}

/** Each offered event type in plain words, as the Events field and Event Type lists show it. */
export const ACTIVITY_EVENT_LABELS: Record<ActivityEventType, string> = {
	'post.create': 'New Post',
	'post.delete': 'Post Deleted',
	'spaces.start': 'Space Started',
	'spaces.end': 'Space Ended',
	'dm.received': 'Direct Message Received',
	'dm.sent': 'Direct Message Sent',
	'dm.read': 'Direct Message Read',
	'dm.indicate_typing': 'Typing in a Direct Message',
	'profile.update.bio': 'Profile Bio Changed',
	'profile.update.verified': 'Profile Verification Changed',
	'profile.update.affiliate': 'Profile Affiliation Changed',
	'profile.update.screenname': 'Profile Username Changed',
	'profile.update.profile_picture': 'Profile Picture Changed',
	'profile.update.banner_picture': 'Profile Banner Changed',
	'profile.update.geo': 'Profile Location Changed',
	'profile.update.url': 'Profile Website Changed',
	'profile.update.handle': 'Profile Handle Changed',
	'follow.follow': 'Follow',
	'follow.unfollow': 'Unfollow',
	'news.new': 'News Story Published',
	'chat.received': 'Chat Message Received',
	'chat.sent': 'Chat Message Sent',
};

/**
 * Events the service subscribes only with a user-context token of the account (an app-only bearer
 * token is refused): direct message and chat events.
 */
export function needsUserContext(eventType: string): boolean {
	return eventType.startsWith('dm.') || eventType.startsWith('chat.');
}

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

/** The subscription of a create / update answer: at `data.subscription` (the contract's shape), or at `data`. */
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
	credentialType: PlatformCredentialType = CREDENTIAL_TYPES.appOnly,
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
		credentialType,
		itemIndex,
	});
	const user = unwrapData<IDataObject>(body);
	if (!user?.id)
		throw new NodeOperationError(ctx.getNode(), `The user @${value} was not found`, { itemIndex });
	return String(user.id);
}
