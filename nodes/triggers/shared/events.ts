import type { IDataObject } from 'n8n-workflow';

import { wireEventType } from '../../shared/activity';
import { CREDENTIAL_TYPES } from '../../shared/transport';
import { attachedMedia } from './media';

export {
	ACTIVITY_EVENT_TYPES,
	LEGACY_ACTIVITY_EVENT_TYPES,
	needsUserContext,
	wireEventType,
} from '../../shared/activity';

/** Credentials the trigger accepts beside the bearer for user-context subscriptions. */
export const USER_CREDENTIAL_TYPES = [
	CREDENTIAL_TYPES.pkce,
	CREDENTIAL_TYPES.hmac,
	CREDENTIAL_TYPES.connect,
] as const;

/** Event types an Account Activity delivery can carry (see ACCOUNT_ACTIVITY_TYPES). */
export const ACCOUNT_ACTIVITY_EVENT_TYPES = [
	'post.create',
	'post.delete',
	'favorite',
	'follow',
	'unfollow',
	'block',
	'unblock',
	'mute',
	'unmute',
	'dm.message',
	'dm.indicate_typing',
	'dm.read',
	'user.revoke',
] as const;

/**
 * Deprecated PascalCase names still delivered by the service, and the dot names they stand for (the
 * service's contract pairs them: ProfileBannerPictureUpdate is profile.update.banner_picture). The
 * older spellings the service's prose lists (ProfileBannerUpdate, ProfileVerifiedUpdate, ...) map to
 * the same names.
 */
export const PASCAL_CASE_NAMES: Record<string, string> = {
	ProfileBioUpdate: 'profile.update.bio',
	ProfilePictureUpdate: 'profile.update.profile_picture',
	ProfileBannerPictureUpdate: 'profile.update.banner_picture',
	ProfileBannerUpdate: 'profile.update.banner_picture',
	ProfileScreennameUpdate: 'profile.update.screenname',
	ProfileGeoUpdate: 'profile.update.geo',
	ProfileUrlUpdate: 'profile.update.url',
	ProfileVerifiedBadgeUpdate: 'profile.update.verified_badge',
	ProfileVerifiedUpdate: 'profile.update.verified_badge',
	ProfileAffiliateBadgeUpdate: 'profile.update.affiliate_badge',
	ProfileAffiliateUpdate: 'profile.update.affiliate_badge',
	ProfileHandleUpdate: 'profile.update.handle',
	NewsNew: 'news.new',
	FollowFollow: 'follow.follow',
	FollowUnfollow: 'follow.unfollow',
	PostCreate: 'post.create',
	PostDelete: 'post.delete',
	SpacesStart: 'spaces.start',
	SpacesEnd: 'spaces.end',
	DmReceived: 'dm.received',
	DmSent: 'dm.sent',
	DmRead: 'dm.read',
	DmIndicateTyping: 'dm.indicate_typing',
};

/** Account Activity array names and the event_type each element becomes (documented in the README). */
export const ACCOUNT_ACTIVITY_TYPES: Record<string, string> = {
	tweet_create_events: 'post.create',
	tweet_delete_events: 'post.delete',
	favorite_events: 'favorite',
	follow_events: 'follow',
	block_events: 'block',
	mute_events: 'mute',
	direct_message_events: 'dm.message',
	direct_message_indicate_typing_events: 'dm.indicate_typing',
	direct_message_mark_read_events: 'dm.read',
	user_event: 'user.revoke',
};

/** The service's dot name of a delivered event type (PascalCase and prose spellings mapped). */
export function dotName(eventType: unknown): string {
	const name = String(eventType ?? '');
	if (PASCAL_CASE_NAMES[name]) return PASCAL_CASE_NAMES[name];
	if (/^[A-Z][A-Za-z]+$/.test(name)) {
		return name.replace(/([a-z])([A-Z])/g, '$1.$2').toLowerCase();
	}
	return wireEventType(name);
}

export interface PlatformEvent extends IDataObject {
	event_type: string;
	event_id: string;
	filter: IDataObject | null;
	tag: string | null;
	payload: IDataObject | IDataObject[] | null;
	includes: IDataObject | null;
	received_at: string;
}

function elementId(kind: string, element: IDataObject, index: number): string {
	const source = (element.source as IDataObject | undefined)?.id;
	const target = (element.target as IDataObject | undefined)?.id;
	// Follow, block and mute elements carry no id of their own: one is told apart by who acted on whom
	// and when (the target alone is the subscribed account for every follow of it).
	if (element.id === undefined && element.id_str === undefined && source != null && target != null)
		return `${kind}:${String(source)}:${String(target)}:${String(element.created_timestamp ?? index)}`;
	const own =
		element.id ??
		element.id_str ??
		target ??
		(element.favorited_status as IDataObject | undefined)?.id_str ??
		(element.status as IDataObject | undefined)?.id;
	if (own !== undefined && own !== null) return `${kind}:${String(own)}`;
	const created = element.created_timestamp ?? element.timestamp_ms ?? element.created_at ?? index;
	const actor =
		(element.source as IDataObject | undefined)?.id ??
		element.sender_id ??
		(element.user as IDataObject | undefined)?.id_str ??
		'';
	return `${kind}:${String(actor)}:${String(created)}`;
}

/**
 * Turns one delivery body into events: the Activity envelope (one event), an Account Activity body
 * (one event per array element), or a replay job status. Returns [] for anything else.
 */
export function normalizeDelivery(body: IDataObject, receivedAt: Date): PlatformEvent[] {
	const received_at = receivedAt.toISOString();
	const data = body.data as IDataObject | undefined;
	if (data && typeof data === 'object' && !Array.isArray(data) && 'event_type' in data) {
		return [
			{
				event_type: dotName(data.event_type),
				event_id: String(data.event_uuid ?? data.event_id ?? ''),
				filter: (data.filter as IDataObject) ?? null,
				tag: data.tag === undefined || data.tag === null ? null : String(data.tag),
				payload: (data.payload as IDataObject) ?? null,
				includes: (data.includes as IDataObject) ?? null,
				received_at,
				...attachedMedia(data.payload, data.includes),
			},
		];
	}
	const status = body.replay_job_status as IDataObject | undefined;
	if (status && typeof status === 'object') {
		const state = String(status.job_state ?? '').toLowerCase();
		return [
			{
				event_type: state === 'complete' ? 'replay.complete' : 'replay.incomplete',
				event_id: `replay:${String(status.job_id ?? '')}:${state}`,
				filter: null,
				tag: null,
				payload: status,
				includes: null,
				received_at,
			},
		];
	}
	const events: PlatformEvent[] = [];
	const forUser = body.for_user_id === undefined ? null : { user_id: String(body.for_user_id) };
	for (const [key, value] of Object.entries(body)) {
		const kind = ACCOUNT_ACTIVITY_TYPES[key];
		if (!kind) continue;
		const elements = (Array.isArray(value) ? value : [value]) as IDataObject[];
		elements.forEach((element, index) => {
			if (!element || typeof element !== 'object') return;
			let eventType = kind;
			if (key === 'follow_events' || key === 'block_events' || key === 'mute_events') {
				const type = String(element.type ?? '');
				if (type) eventType = type;
			}
			events.push({
				event_type: eventType,
				event_id: elementId(eventType, element, index),
				filter: forUser,
				tag: null,
				payload: element,
				includes:
					key === 'direct_message_events'
						? (body.users as IDataObject)
							? { users: body.users as IDataObject }
							: null
						: null,
				received_at,
			});
		});
	}
	return events;
}

/** The event type of a post that matched the filtered stream's rules (a delivery, or a stream line). */
export const STREAM_EVENT_TYPE = 'post.match';

export interface StreamEvent extends IDataObject {
	event_type: string;
	event_id: string;
	post: IDataObject;
	includes: IDataObject;
	matching_rules: IDataObject[];
	tags: string[];
	received_at: string;
}

/** A filtered-stream delivery as one item, or undefined when it carries no post. */
export function normalizeStreamDelivery(body: IDataObject, now: Date): StreamEvent | undefined {
	const post = body.data as IDataObject | undefined;
	if (!post || typeof post !== 'object' || Array.isArray(post) || !post.id) return undefined;
	const rules = (Array.isArray(body.matching_rules) ? body.matching_rules : []) as IDataObject[];
	const event: StreamEvent = {
		event_type: STREAM_EVENT_TYPE,
		event_id: String(post.id),
		post,
		includes: (body.includes as IDataObject) ?? {},
		matching_rules: rules,
		tags: rules.map((r) => r.tag).filter((t): t is string => typeof t === 'string' && t !== ''),
		received_at: now.toISOString(),
	};
	if (Array.isArray(body.errors)) event.errors = body.errors as IDataObject[];
	return event;
}

export function isStreamDelivery(body: IDataObject): boolean {
	return Array.isArray(body.matching_rules);
}
