import type { IDataObject } from 'n8n-workflow';

import type { ModeSpec } from './modes';
import { EVENT_KINDS_VERSION } from './modes';

/**
 * Items in the shape the webhook trigger (Platform Trigger) emits for the same data, so that a
 * workflow can move from one trigger to the other without remapping:
 * - activity-style items `{event_type, event_id, filter, tag, payload, includes, received_at}` for a
 *   user's posts (post.create), mentions (post.mention), liked posts (favorite, payload with
 *   favorited_status as in Account Activity), bookmarks (bookmark), followers (follow, payload with
 *   source and target as in Account Activity) and direct messages (dm.received / dm.sent, payload
 *   `{direct_message_events: [event]}` as in the Activity API);
 * - search matches like the filtered-stream items `{event_type: 'post.match', event_id, post, includes,
 *   matching_rules, tags, received_at}`, with the query that matched.
 */

export interface Page {
	data: IDataObject[];
	includes: IDataObject;
}

const INCLUDE_KEYS = ['users', 'media', 'tweets', 'polls'] as const;

function list(value: unknown): IDataObject[] {
	return (Array.isArray(value) ? value : []) as IDataObject[];
}

/** The expanded objects one post refers to (its author, mentioned or replied-to users, media, polls, referenced posts). */
export function includesFor(post: IDataObject, includes: IDataObject): IDataObject {
	const userIds = new Set<string>();
	for (const key of ['author_id', 'in_reply_to_user_id', 'sender_id'])
		if (post[key] !== undefined) userIds.add(String(post[key]));
	const mentions = list((post.entities as IDataObject | undefined)?.mentions);
	for (const m of mentions) if (m.id !== undefined) userIds.add(String(m.id));
	const attachments = (post.attachments ?? {}) as IDataObject;
	const mediaKeys = new Set(((attachments.media_keys ?? []) as unknown[]).map(String));
	const pollIds = new Set(((attachments.poll_ids ?? []) as unknown[]).map(String));
	const tweetIds = new Set(list(post.referenced_tweets).map((r) => String(r.id)));
	const picked: IDataObject = {};
	const pick = (key: (typeof INCLUDE_KEYS)[number], keep: (o: IDataObject) => boolean) => {
		const found = list(includes[key]).filter(keep);
		if (found.length) picked[key] = found;
	};
	pick('users', (u) => userIds.has(String(u.id)));
	pick('media', (m) => mediaKeys.has(String(m.media_key)));
	pick('polls', (p) => pollIds.has(String(p.id)));
	pick('tweets', (t) => tweetIds.has(String(t.id)));
	return picked;
}

/** Appends one page's includes to the includes gathered so far. */
export function addIncludes(into: IDataObject, page: IDataObject | undefined): void {
	for (const key of INCLUDE_KEYS) {
		const more = list(page?.[key]);
		if (more.length) into[key] = [...list(into[key]), ...more];
	}
}

export interface ItemContext {
	mode: ModeSpec;
	/** Whose data is read: the entered user, list, post or conversation, or the authenticated user. */
	subjectId?: string;
	/** The authenticated user, where the mode looked it up (messages it sent or received). */
	meId?: string;
	query?: string;
	receivedAt: string;
	/** The node's typeVersion: version 1 keeps its labels for Spaces and direct message joins. */
	version: number;
}

/** A Space's item label by its state (version 1.1): the Platform Trigger's names, and scheduled. */
const SPACE_EVENTS: Record<string, string> = {
	live: 'spaces.start',
	ended: 'spaces.end',
	scheduled: 'spaces.scheduled',
};

/**
 * A direct message event's label (version 1.1): a message is dm.sent or dm.received as in the
 * Platform Trigger; a join or leave of a group conversation (ParticipantsJoin, ParticipantsLeave) is
 * dm.participants_join or dm.participants_leave, never a message.
 */
function dmEventType(entry: IDataObject, sent: boolean): string {
	const kind = String(entry.event_type ?? 'MessageCreate');
	if (kind === 'MessageCreate') return sent ? 'dm.sent' : 'dm.received';
	return `dm.${kind.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()}`;
}

/** What an item's filter names, by whose data the mode reads. */
const FILTER_KEY: Record<ModeSpec['subject'], string | undefined> = {
	user: 'user_id',
	me: 'user_id',
	creator: 'user_id',
	none: undefined,
	list: 'list_id',
	post: 'post_id',
	conversation: 'dm_conversation_id',
};

function activity(
	eventType: string,
	eventId: string,
	ctx: ItemContext,
	payload: IDataObject,
	includes: IDataObject | null,
): IDataObject {
	const filterKey = FILTER_KEY[ctx.mode.subject];
	return {
		event_type: eventType,
		event_id: eventId,
		filter: ctx.subjectId && filterKey ? { [filterKey]: ctx.subjectId } : null,
		tag: null,
		payload,
		includes,
		received_at: ctx.receivedAt,
	};
}

/** The users a Space names (its creator and hosts) among the expanded ones. */
function spaceIncludes(space: IDataObject, includes: IDataObject): IDataObject {
	const ids = new Set(
		[space.creator_id, ...((space.host_ids as unknown[] | undefined) ?? [])]
			.filter((v) => v !== undefined)
			.map(String),
	);
	const users = list(includes.users).filter((u) => ids.has(String(u.id)));
	return users.length ? { users } : {};
}

/** One read entry (post, user, direct message event or Space) as one item. */
export function toItem(entry: IDataObject, includes: IDataObject, ctx: ItemContext): IDataObject {
	const id = String(entry.id);
	const own = includesFor(entry, includes);
	switch (ctx.mode.value) {
		case 'search':
			return {
				event_type: 'post.match',
				event_id: id,
				post: entry,
				includes: own,
				matching_rules: [],
				tags: [],
				query: ctx.query ?? '',
				received_at: ctx.receivedAt,
			};
		case 'userPosts':
			return activity('post.create', id, ctx, entry, own);
		case 'mentions':
			return activity('post.mention', id, ctx, entry, own);
		case 'likedPosts':
			return activity(
				'favorite',
				`favorite:${ctx.subjectId}:${id}`,
				ctx,
				{ favorited_status: entry, user: { id: ctx.subjectId } },
				own,
			);
		case 'bookmarks':
			return activity('bookmark', `bookmark:${ctx.subjectId}:${id}`, ctx, entry, own);
		case 'followers':
			return activity(
				'follow',
				`follow:${id}:${ctx.subjectId}`,
				ctx,
				{ type: 'follow', source: entry, target: { id: ctx.subjectId } },
				null,
			);
		case 'listPosts':
			return activity('list.post', id, ctx, entry, own);
		case 'listMembers':
			return activity(
				'list.member_added',
				`list_member:${ctx.subjectId}:${id}`,
				ctx,
				{ list: { id: ctx.subjectId }, user: entry },
				null,
			);
		case 'listFollowers':
			return activity(
				'list.follow',
				`list_follow:${id}:${ctx.subjectId}`,
				ctx,
				{ source: entry, target_list: { id: ctx.subjectId } },
				null,
			);
		case 'quotePosts':
			return activity('post.quote', id, ctx, entry, own);
		case 'userSpaces':
			if (ctx.version >= EVENT_KINDS_VERSION) {
				// Each state a Space is emitted in is an event of its own (scheduled, started, ended).
				const kind = SPACE_EVENTS[String(entry.state)] ?? `spaces.${String(entry.state)}`;
				return activity(
					kind,
					`space:${id}:${String(entry.state)}`,
					ctx,
					entry,
					spaceIncludes(entry, includes),
				);
			}
			// Version 1: a Space that is live when first seen has started; any other is announced.
			return activity(
				entry.state === 'live' ? 'spaces.start' : 'spaces.scheduled',
				`space:${id}`,
				ctx,
				entry,
				spaceIncludes(entry, includes),
			);
		case 'conversationMessages':
		case 'directMessages': {
			const me = ctx.mode.value === 'directMessages' ? ctx.subjectId : ctx.meId;
			const sent = me !== undefined && String(entry.sender_id ?? '') === me;
			return activity(
				ctx.version >= EVENT_KINDS_VERSION
					? dmEventType(entry, sent)
					: sent
						? 'dm.sent'
						: 'dm.received',
				id,
				ctx,
				{ direct_message_events: [entry] },
				own,
			);
		}
	}
}
