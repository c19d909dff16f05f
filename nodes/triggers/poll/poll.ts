import { createHash } from 'node:crypto';

import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import { requireKind } from '../../shared/authentication';
import type { UserRef } from '../../shared/locators';
import { listIdFrom, locatorValue, postIdFrom, userRefFromValue } from '../../shared/locators';
import type {
	PlatformContext,
	PlatformCredentialType,
	PlatformRequest,
} from '../../shared/transport';
import type { RateWindow } from '../../shared/errors';
import { asNodeError, errorInfo, rateLimitOfError } from '../../shared/errors';
import { CREDENTIAL_TYPES, platformRequest } from '../../shared/transport';
import type { SendRequest } from '../../shared/users';
import { fetchAuthenticatedUserId, fetchUserIdByUsername } from '../../shared/users';
import { validateInput } from '../../shared/validation';
import {
	DEFAULT_MAX_ITEMS,
	MAX_ITEMS_LIMIT,
	MAX_QUERY_LENGTH,
	POLL_TRIGGER_DISPLAY_NAME,
} from './description';
import type { ItemContext } from './items';
import { addIncludes, toItem } from './items';
import type { ModeSpec, PollMode } from './modes';
import {
	EVENT_KINDS_VERSION,
	fieldQuery,
	IDLE_READ_VERSION,
	MODES,
	modeSpec,
	PAUSE_NOTICE_MS,
	PAUSE_SIGNAL_VERSION,
	RATE_WINDOW_MS,
} from './modes';

/**
 * One poll: read what is newer than the position kept in the workflow's static data, emit it oldest
 * first, move the position over what was emitted. The first poll after activation (or after the
 * watched user, query, mode or account changed) only records the position. A manual test run shows the latest few items and leaves
 * the position alone. A rate limit skips the poll and keeps the position: the next poll catches up.
 */

export const MANUAL_ITEMS = 5;
/** Ids remembered for the reads without since_id: enough that a few deletions do not lose the place. */
export const KNOWN_IDS = 200;
/**
 * Ids just below the remembered window (the ones it let go of last, or read below it by the first
 * poll), kept so that a read still finds the place when the window's own ids are gone: its items
 * removed (a user clears most bookmarks) or ids of followers who left since (follow-and-unfollow bots
 * pushed the older followers out of the window).
 */
export const BELOW_IDS = 20;
/**
 * Size of the first page where the position is an id seen before (versions before IDLE_READ_VERSION),
 * and of the page that follows a first page of IDLE_PAGE whose top changed.
 */
const FIRST_PAGE = 10;
/**
 * Size of the first page from IDLE_READ_VERSION on (at least the endpoint's minimum): the service bills
 * every resource it answers, and most polls find nothing new. A first page that answers exactly the
 * newest ids remembered, in their order, ends the read: a new item comes on top, so the top changed
 * where one arrived. Only the ids remembered coming back on top in that same order, after a new item,
 * hide it; the next poll whose top changed reads past them with the run rule (STOP_RUN) and emits it.
 * Items that arrived while the last poll read were not seen by it: after a read of more than one
 * request, the next poll does not stop at its first page (PollState.paged).
 */
const IDLE_PAGE = 2;
/**
 * Remembered ids read in a row after which a poll stops reading: what follows is older. An item removed
 * and added again comes back at the top among new ones, so one remembered id alone does not stop the read.
 */
const STOP_RUN = FIRST_PAGE;
/** Pages a poll may read, whatever the service answers (a guard against a loop). */
const MAX_PAGES = 50;

/** How far back recent search reaches: a since_id older than this is refused. */
export const SEARCH_WINDOW_MS = 7 * 24 * 3_600_000;
/** Kept inside the search window by this much, for clocks that differ and a slow poll. */
const SEARCH_MARGIN_MS = 3_600_000;
/** The time post ids count from (a post id holds its creation time in ms, shifted left by 22 bits). */
const POST_ID_EPOCH_MS = 1288834974657;

/**
 * How long recent search may take to index a post after a newer one was indexed: a post made first can
 * turn up a minute after a newer one. The service documents no figure; seconds to minutes is what is
 * seen. Each search read starts this far behind the newest id emitted and drops what it emitted.
 */
export const SEARCH_LAG_MS = 5 * 60_000;
/**
 * Search ids emitted within SEARCH_LAG_MS of the newest one, remembered to drop on the next read. Past
 * this many, the overlap starts at the oldest one kept: a post indexed later than that many newer
 * matching posts is not read.
 */
export const RECENT_IDS = 500;

/** When a post was created (ms): a post id holds it. */
export function postIdTime(id: string): number {
	return Number(BigInt(id) / BigInt(4_194_304)) + POST_ID_EPOCH_MS;
}

/** The smallest post id created at `ms` (no post created before `ms` has an id above it). */
export function postIdAt(ms: number): string {
	return (BigInt(Math.max(0, Math.floor(ms - POST_ID_EPOCH_MS))) * BigInt(4_194_304)).toString();
}

/**
 * How every log line of a poll starts: the node and its workflow by name and id, so that with several
 * poll triggers in one n8n the line says which one skipped a poll or hit the cap.
 */
export function logPrefix(ctx: Pick<IPollFunctions, 'getNode' | 'getWorkflow'>): string {
	const workflow = ctx.getWorkflow();
	return `${POLL_TRIGGER_DISPLAY_NAME} "${ctx.getNode().name}" in workflow "${workflow.name ?? ''}" (${String(workflow.id ?? '')})`;
}

/** What a test run found nothing in: the plural of what the mode watches. */
const NOTHING_FOUND: Record<PollMode, string> = {
	userPosts: 'posts by this user',
	mentions: 'mentions of the authenticated user',
	search: 'posts of the last 7 days matching the query',
	followers: 'followers of this user',
	likedPosts: 'posts liked by this user',
	bookmarks: 'bookmarks',
	directMessages: 'direct message events',
	listPosts: 'posts in this list',
	listMembers: 'members of this list',
	listFollowers: 'followers of this list',
	conversationMessages: 'direct message events in this conversation',
	quotePosts: 'quote posts of this post',
	userSpaces: 'Spaces created by this user',
};

export interface PollState extends IDataObject {
	/** What the position belongs to: mode, user, query, exclusions. */
	key?: string;
	/** When the position of `key` was recorded (ms): a start record older than it is not taken. */
	keyAt?: number;
	/** Newest id read (modes whose endpoint takes since_id). */
	newestId?: string;
	/** Newest ids read, newest first (modes without since_id). */
	known?: string[];
	/** The ids just below `known` (BELOW_IDS of them), newest first: remembered as well. */
	below?: string[];
	/**
	 * Where a poll cut short by n8n's poll time stopped reading (modes without since_id): the next poll
	 * reads on past it before a run of remembered ids stops it, so the older items left unread are emitted.
	 */
	resumeAfter?: string[];
	/**
	 * The oldest item a poll capped by Max Items per Poll emitted (modes without since_id): the older
	 * ones were skipped, so a later read stops there instead of emitting them late.
	 */
	skippedBelow?: string;
	/**
	 * The ids a poll cut short by n8n's poll time left unread (modes with since_id): newer than sinceId,
	 * older than untilId. The next polls read them first.
	 */
	gap?: { sinceId?: string; untilId: string };
	/**
	 * Recent search: where the next read starts (its since_id), SEARCH_LAG_MS behind newestId, never
	 * lower than where the previous one started. Absent: newestId.
	 */
	overlapFrom?: string;
	/** Recent search: the ids above overlapFrom already emitted, newest first (dropped when read again). */
	recent?: string[];
	/** Cached id of the watched user or of the authenticated user. */
	subject?: { ref: string; id: string };
	/** Cached id of the authenticated user, where a mode needs it besides its subject. */
	me?: { ref: string; id: string };
	/**
	 * The mode's 15-minute rate-limit window: requests left and when it resets (ms), as the last
	 * answer's headers stated it, or counted against the mode's assumed limit where they are absent, or
	 * from a 429. While none are left, polls are skipped without a request. `told`: the skip was logged.
	 */
	rate?: { mode: PollMode; remaining: number; resetAt: number; told?: boolean };
	/** Spaces seen scheduled or live (version 1.1): emitted again when they start or end. */
	spaces?: Record<string, 'scheduled' | 'live'>;
	/**
	 * The last poll's read (modes without since_id, from IDLE_READ_VERSION on) sent more than one
	 * request: the next poll's first page does not end the read (see pagedReads).
	 */
	paged?: boolean;
	/**
	 * Moves by one each time a poll changes the position: a poll whose static data holds a lower number
	 * than one this n8n process handed out reads a position older than the one committed (PollSnapshots).
	 * Absent (static data saved before it existed): 0.
	 */
	positionSeq?: number;
}

interface Settings {
	credentialType: PlatformCredentialType;
	mode: ModeSpec;
	/** The node's typeVersion. */
	version: number;
	/** Direct messages the authenticated user sent are not emitted (version 1.1). */
	excludeOwn: boolean;
	/** The dm event types asked for (version 1.1), where not all. */
	dmEventTypes?: string;
	user?: UserRef;
	/** The list, post or conversation watched. */
	target?: string;
	query?: string;
	exclude: string[];
	maxItems: number;
	fields: { postFields: string; expansions: string; userFields: string };
}

const settingsSchema = z
	.object({
		authentication: z.enum(
			Object.values(CREDENTIAL_TYPES) as [PlatformCredentialType, ...PlatformCredentialType[]],
		),
		event: z.enum(MODES.map((m) => m.value) as [PollMode, ...PollMode[]]),
		// The contract's pattern for a conversation id (DmConversationId): a group conversation's id of
		// 15 to 19 digits, or two user ids joined by a dash.
		conversationId: z
			.string()
			.trim()
			.regex(
				/^(?:[0-9]{1,19}-[0-9]{1,19}|[0-9]{15,19})$/,
				'a conversation ID (a group conversation ID of 15 to 19 digits, or two user IDs joined by a dash)',
			)
			.optional(),
		query: z.string().trim().max(MAX_QUERY_LENGTH, `at most ${MAX_QUERY_LENGTH} characters`),
		maxItems: z.number().int('a whole number').min(1).max(MAX_ITEMS_LIMIT),
		includeReplies: z.boolean(),
		includeReposts: z.boolean(),
		excludeOwn: z.boolean(),
		joinsAndLeaves: z.boolean(),
		postFields: z.string(),
		expansions: z.string(),
		userFields: z.string(),
	})
	.superRefine((value, issues) => {
		if (value.event === 'search' && !value.query) {
			issues.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['query'],
				message: 'a search query is required',
			});
		}
	});

const LABELS = {
	authentication: 'Authentication',
	event: 'Trigger On',
	conversationId: 'Conversation ID',
	query: 'Query',
	maxItems: 'Max Items per Poll',
	excludeOwn: 'Leave Out My Messages',
	joinsAndLeaves: 'Include Joins and Leaves',
	postFields: 'Post Fields',
	expansions: 'Expansions',
	userFields: 'User Fields',
};

function readSettings(ctx: IPollFunctions): Settings {
	const options = (ctx.getNodeParameter('options', {}) ?? {}) as IDataObject;
	const event = String(ctx.getNodeParameter('event', 'userPosts'));
	const subject = modeSpec(event)?.subject;
	const version = Number(ctx.getNode().typeVersion ?? 1);
	// The direct message options of version 1.1 (version 1 has neither: all events, all senders).
	const dmOptions = version >= EVENT_KINDS_VERSION && modeSpec(event)?.kind === 'dmEvents';
	const raw = {
		authentication: ctx.getNodeParameter('authentication', CREDENTIAL_TYPES.appOnly),
		event,
		conversationId:
			subject === 'conversation' ? String(ctx.getNodeParameter('conversationId', '')) : undefined,
		query: event === 'search' ? String(ctx.getNodeParameter('query', '') ?? '') : '',
		maxItems: Number(ctx.getNodeParameter('maxItems', DEFAULT_MAX_ITEMS)),
		includeReplies: event === 'userPosts' ? ctx.getNodeParameter('includeReplies', true) : true,
		includeReposts: event === 'userPosts' ? ctx.getNodeParameter('includeReposts', true) : true,
		excludeOwn: dmOptions ? ctx.getNodeParameter('excludeOwn', false) : false,
		joinsAndLeaves: dmOptions ? ctx.getNodeParameter('joinsAndLeaves', false) : true,
		postFields: String(options.postFields ?? 'created_at,author_id,entities,conversation_id'),
		expansions: String(options.expansions ?? 'author_id'),
		userFields: String(options.userFields ?? 'username,name'),
	};
	const valid = validateInput(ctx.getNode(), settingsSchema, raw, 0, LABELS);
	const mode = modeSpec(valid.event)!;
	// Before any request: a credential kind the service refuses for the mode's endpoints.
	requireKind(ctx, 0, `"${mode.name}"`, mode.authentication, valid.authentication);
	const exclude: string[] = [];
	if (!valid.includeReplies) exclude.push('replies');
	if (!valid.includeReposts) exclude.push('retweets');
	return {
		credentialType: valid.authentication,
		mode,
		version,
		excludeOwn: valid.excludeOwn,
		dmEventTypes: valid.joinsAndLeaves ? undefined : 'MessageCreate',
		user:
			mode.subject === 'user'
				? userRefFromValue(ctx.getNode(), ctx.getNodeParameter('user', ''), 0, 'User')
				: mode.subject === 'creator'
					? userRefFromValue(ctx.getNode(), ctx.getNodeParameter('creator', ''), 0, 'Creator')
					: undefined,
		target:
			mode.subject === 'list'
				? locatorValue(ctx.getNode(), ctx.getNodeParameter('list', ''), 'List', 0, listIdFrom)
				: mode.subject === 'post'
					? locatorValue(ctx.getNode(), ctx.getNodeParameter('post', ''), 'Post', 0, postIdFrom)
					: valid.conversationId,
		query: valid.query || undefined,
		exclude,
		maxItems: valid.maxItems,
		fields: {
			postFields: valid.postFields,
			expansions: valid.expansions,
			userFields: valid.userFields,
		},
	};
}

/**
 * Requests of a poll never wait for a rate-limit reset: the poll is skipped instead. `deadline`: the
 * end of n8n's poll budget, which no request, retry or wait of the poll outlasts.
 */
function sender(ctx: IPollFunctions, settings: Settings, deadline?: number): SendRequest {
	return async (request) =>
		await platformRequest.call<PlatformContext, [PlatformRequest], Promise<IDataObject>>(ctx, {
			...request,
			api: 'platform',
			credentialType: settings.credentialType,
			maxRateLimitWait: 0,
			deadline,
		});
}

/**
 * What n8n gives a poll to spend (ms), where it says (n8n-workflow's IPollFunctions.getPollBudgetMs):
 * under n8n's durable poll scheduler, the tick's timeout less a margin (36 s of N8N_SCHEDULER_POLL_TIMEOUT's
 * default 45 s: n8n/dist/workflows/triggers/trigger-execution-context.factory.js, getExecutePollFunctions);
 * otherwise 5 minutes (n8n-core/dist/execution-engine/node-execution-context/poll-context.js). After it
 * n8n abandons a scheduled tick and backs the node off
 * (n8n/dist/scheduling/poll-trigger-node/poll-trigger-task-handler.js), so every poll, the first
 * included, ends within it. An older n8n without it: undefined (no bound).
 */
export function pollBudget(ctx: IPollFunctions): number | undefined {
	return typeof ctx.getPollBudgetMs === 'function' ? ctx.getPollBudgetMs() : undefined;
}

/**
 * What the position belongs to. A mode that watches the authenticated user's own data (mentions,
 * bookmarks, direct messages) names the account: a credential switched to another account starts that
 * account's own position instead of reading it from the other account's.
 */
function positionKey(settings: Settings, subject: string | undefined): string {
	const who =
		settings.mode.subject === 'me'
			? `${settings.credentialType}:${subject ?? ''}`
			: settings.user
				? `${settings.user.by}:${settings.user.value.toLowerCase()}`
				: (settings.target ?? '');
	const key: unknown[] = [settings.mode.value, who, settings.query ?? '', settings.exclude];
	// Messages only (version 1.1): a position read with joins and leaves is not this one's.
	if (settings.dmEventTypes) key.push(settings.dmEventTypes);
	return JSON.stringify(key);
}

/** The key kept before positions named the account (only the credential type): taken over once. */
function earlierKey(settings: Settings): string | undefined {
	if (settings.mode.subject !== 'me') return undefined;
	return JSON.stringify([
		settings.mode.value,
		settings.credentialType,
		settings.query ?? '',
		settings.exclude,
	]);
}

/**
 * What the recorded id of the authenticated user belongs to: the credential (its type and, where n8n
 * names it, its id). The id itself is looked up on every poll (see subjectId).
 */
function meRef(ctx: IPollFunctions, settings: Settings): string {
	const credential = ctx.getNode().credentials?.[settings.credentialType];
	return `me:${settings.credentialType}:${credential?.id ?? ''}`;
}

/**
 * The authenticated account each poll trigger last looked up, with a digest of the credential it was
 * looked up with (by workflow and node). The same credential (the same id in n8n) can be reconnected
 * to another account, and n8n then stores new tokens in it: a poll whose credential reads as before
 * keeps the account without a request, a changed credential (reconnected, or tokens refreshed) asks
 * the service again. In memory only (a restart asks once); the digest is of tokens, never the tokens.
 * At most ACCOUNTS_KEPT triggers, the least recently used forgotten first.
 */
const accounts = new Map<string, { digest: string; id: string }>();
const ACCOUNTS_KEPT = 1_000;

async function authenticatedUserId(
	ctx: IPollFunctions,
	settings: Settings,
	send: SendRequest,
): Promise<string> {
	const workflow = ctx.getWorkflow();
	const key = `${String(workflow.id ?? '')}:${ctx.getNode().id ?? ctx.getNode().name}:${meRef(ctx, settings)}`;
	const credential = await ctx.getCredentials(settings.credentialType);
	const digest = createHash('sha256').update(JSON.stringify(credential)).digest('base64');
	const known = accounts.get(key);
	accounts.delete(key);
	if (known && known.digest === digest) {
		accounts.set(key, known);
		return known.id;
	}
	const id = await fetchAuthenticatedUserId(ctx.getNode(), send);
	accounts.set(key, { digest, id });
	if (accounts.size > ACCOUNTS_KEPT) accounts.delete(accounts.keys().next().value!);
	return id;
}

async function subjectId(
	ctx: IPollFunctions,
	settings: Settings,
	state: PollState,
	send: SendRequest,
): Promise<string | undefined> {
	const { mode, user } = settings;
	if (mode.subject === 'none') return undefined;
	if (mode.subject === 'list' || mode.subject === 'post' || mode.subject === 'conversation')
		return settings.target;
	if (user?.by === 'id') return user.value;
	const ref =
		mode.subject === 'me' ? meRef(ctx, settings) : `username:${user!.value.toLowerCase()}`;
	// The authenticated user is not cached in the position: the same credential (the same id in n8n)
	// can be reconnected to another account, and a cached id would then read the first account's
	// mentions, or the other account's old messages under the first account's position
	// (authenticatedUserId asks again when the credential changed). A username's id does not change
	// with the credential: it is cached.
	if (mode.subject !== 'me' && state.subject?.ref === ref && state.subject.id)
		return state.subject.id;
	const id =
		mode.subject === 'me'
			? await authenticatedUserId(ctx, settings, send)
			: await fetchUserIdByUsername(ctx.getNode(), send, user!.value);
	state.subject = { ref, id };
	return id;
}

/** The authenticated user's id, for modes that tell what it sent from what it received. */
async function meId(
	ctx: IPollFunctions,
	settings: Settings,
	state: PollState,
	send: SendRequest,
): Promise<string | undefined> {
	if (!settings.mode.needsMe) return undefined;
	// As in subjectId: the credential may now name another account.
	const ref = meRef(ctx, settings);
	const id = await authenticatedUserId(ctx, settings, send);
	state.me = { ref, id };
	return id;
}

/** Compares numeric ids of any length (they exceed 2^53). */
export function newerThan(a: string, b: string): boolean {
	if (a.length !== b.length) return a.length > b.length;
	return a > b;
}

/**
 * The mode's rate-limit window across polls (PollState.rate): every answer of the mode's endpoint
 * updates it, and a poll sends no request while it has none left.
 */
interface RateTracker {
	observe(window: RateWindow): void;
	/** A request may be sent now. */
	left(): boolean;
	/** When the window resets (ms), while it has no request left. */
	resetAt(): number | undefined;
}

function rateTracker(state: PollState, mode: ModeSpec): RateTracker {
	// A window of another mode (the mode was changed) is another endpoint's: it does not count.
	const current = () => {
		const rate = state.rate;
		return rate && rate.mode === mode.value && rate.resetAt > Date.now() ? rate : undefined;
	};
	return {
		observe(window) {
			const now = Date.now();
			if (window.limited) {
				// Refused: nothing is left until the reset it names (without one, the next poll tries).
				if (window.resetAt)
					state.rate = { mode: mode.value, remaining: 0, resetAt: window.resetAt.getTime() };
				return;
			}
			if (window.remaining !== undefined && window.resetAt) {
				const resetAt = window.resetAt.getTime();
				state.rate = { mode: mode.value, remaining: window.remaining, resetAt };
				return;
			}
			// No headers: count against the mode's assumed limit, from the first request of a window.
			const rate = current();
			state.rate = rate
				? { mode: mode.value, remaining: Math.max(0, rate.remaining - 1), resetAt: rate.resetAt }
				: { mode: mode.value, remaining: mode.rateLimit - 1, resetAt: now + RATE_WINDOW_MS };
		},
		left() {
			const rate = current();
			return !rate || rate.remaining > 0;
		},
		resetAt() {
			const rate = current();
			return rate && rate.remaining <= 0 ? rate.resetAt : undefined;
		},
	};
}

/** The read stopped before the place it was reading to: the next poll reads on from there. */
function paused(cut: Read['cut']): boolean {
	return cut === 'time' || cut === 'rate';
}

interface Read {
	/** The new entries, in the service's order (newest first where it has one). */
	entries: IDataObject[];
	includes: IDataObject;
	/**
	 * Why more items remained unread: the per-poll cap, n8n's poll time, or the rate-limit window
	 * having no request left.
	 */
	cut?: 'cap' | 'time' | 'rate';
	/** Every entry answered, remembered or not (an answer without order: Spaces). */
	answered: IDataObject[];
	/** Ids read that were emitted or remembered, in the service's order. */
	seen: string[];
	/** The resume point was read past (or there was none). */
	resumed: boolean;
}

interface ReadOptions {
	limit: number;
	firstPage?: number;
	sinceId?: string;
	/**
	 * The since_id is not sent (recent search refuses one older than its 7 days): the read asks from
	 * `startTime` and stops at the first id not newer than sinceId (the answer is newest first).
	 */
	startTime?: string;
	untilId?: string;
	/** Ids remembered (modes without since_id): not emitted again. */
	known?: Set<string>;
	/**
	 * Read on past all these ids (the last ones a poll cut short read) before a run of remembered ids
	 * may stop the read. Several, because one of them may have come back to the top of the list.
	 */
	resumeAfter?: string[];
	/**
	 * The remembered ids, newest first (IDLE_READ_VERSION): a first page that answers exactly the first
	 * of them, in this order and at least IDLE_PAGE of them, ends the read.
	 */
	top?: string[];
	/** A remembered id the read stops at: older items were skipped by the cap. */
	stopAt?: string;
	/**
	 * The remembered ids older than the place a poll cut short stopped at. Until the read has passed
	 * every id of resumeAfter, a run of these (and only these) ends it: one of resumeAfter may have
	 * been removed since, and the read would otherwise go on into old items.
	 */
	beyond?: Set<string>;
	/** Ids already emitted that the read answers again (recent search's overlap): left out, read on. */
	drop?: Set<string>;
	/** When the poll started (Date.now()): n8n's poll time counts from there. */
	started?: number;
	/** The mode's rate-limit window: told every answer, and no further page while it has none left. */
	window?: RateTracker;
}

async function read(
	ctx: IPollFunctions,
	settings: Settings,
	send: SendRequest,
	id: string | undefined,
	opts: ReadOptions,
): Promise<Read> {
	const { mode } = settings;
	const base: IDataObject = fieldQuery(mode.kind, settings.fields);
	if (mode.subjectQuery) Object.assign(base, mode.subjectQuery(id ?? ''));
	if (mode.value === 'search')
		Object.assign(base, { query: settings.query, sort_order: 'recency' });
	if (settings.exclude.length) base.exclude = settings.exclude.join(',');
	if (mode.kind === 'dmEvents' && settings.dmEventTypes) base.event_types = settings.dmEventTypes;
	if (opts.startTime) base.start_time = opts.startTime;
	else if (opts.sinceId) base.since_id = opts.sinceId;
	if (opts.untilId) base.until_id = opts.untilId;
	const size = (wanted: number) => Math.min(mode.page.max, Math.max(mode.page.min, wanted));
	const budget = pollBudget(ctx);
	const started = opts.started ?? Date.now();
	const { known } = opts;
	// An answer without an order (Spaces) is compared whole: every id not remembered is new. A window of
	// fewer than STOP_RUN ids means a short list: it is read to its end.
	const stopRun = known && !mode.unpaged && known.size >= STOP_RUN ? STOP_RUN : Infinity;
	const entries: IDataObject[] = [];
	const includes: IDataObject = {};
	const seen: string[] = [];
	const answered: IDataObject[] = [];
	const read = new Set<string>();
	const resumeAt = new Set(opts.resumeAfter ?? []);
	let resumed = resumeAt.size === 0;
	let run = 0;
	/** Remembered ids older than the cut place read in a row (while not resumed). */
	let beyondRun = 0;
	let token: string | undefined;
	let cut: Read['cut'];
	for (let page = 0; page < MAX_PAGES; page++) {
		// The service bills every resource it answers: a page that follows a run of remembered ids asks
		// only for what completes the run (a new item there is read on past as before; the page size
		// never decides what is new).
		// After a short first page whose top changed (opts.top), the next page is the size the first page
		// had before IDLE_READ_VERSION: the same resources as then when a few items are new.
		const wanted =
			page === 0 && opts.firstPage
				? Math.min(opts.firstPage, opts.limit)
				: resumed && run > 0 && stopRun !== Infinity
					? Math.min(stopRun - run, opts.limit - entries.length)
					: page === 1 && opts.top
						? Math.min(FIRST_PAGE, opts.limit - entries.length)
						: opts.limit - entries.length;
		const qs: IDataObject = mode.unpaged ? { ...base } : { ...base, max_results: size(wanted) };
		if (token) qs[mode.tokenParam] = token;
		let body: IDataObject;
		try {
			body = await send({
				method: 'GET',
				path: mode.path(id ?? ''),
				qs,
				onRateWindow: opts.window ? (w) => opts.window!.observe(w) : undefined,
			});
		} catch (error) {
			// A page that got no answer before the end of n8n's poll budget (the transport's deadline):
			// the pages already read are kept, as when the time ends between pages, and the next poll
			// reads on from there. With nothing read yet the poll fails and keeps its position.
			if (
				page > 0 &&
				budget !== undefined &&
				errorInfo(error).noAnswer &&
				Date.now() - started >= budget
			) {
				ctx.logger.warn(
					`${logPrefix(ctx)}: page ${page + 1} got no answer within n8n's poll time; the next poll reads on from there`,
				);
				cut = 'time';
				break;
			}
			// The transport's errors are n8n's node errors already: passed on as they are.
			throw asNodeError(ctx, error);
		}
		addIncludes(includes, body.includes as IDataObject | undefined);
		const data = (Array.isArray(body.data) ? body.data : []) as IDataObject[];
		let reached = false;
		if (page === 0 && opts.top && data.length >= IDLE_PAGE) {
			// Nothing new on top: the first page is the newest ids remembered, in their order.
			const ids = data.map((entry) => String(entry.id ?? ''));
			reached = ids.every((k, i) => k === opts.top![i]);
		}
		for (const entry of data) {
			const entryId = String(entry.id ?? '');
			// Pages that shifted while they were read repeat an entry: it counts once.
			if (read.has(entryId)) continue;
			read.add(entryId);
			if (mode.unpaged) answered.push(entry);
			if (resumeAt.delete(entryId) && resumeAt.size === 0) {
				resumed = true;
				run = 0;
			}
			if (known?.has(entryId)) {
				seen.push(entryId);
				run++;
				beyondRun = opts.beyond?.has(entryId) ? beyondRun + 1 : 0;
				// Past the place a cut short poll stopped at, though one of its ids was not read (removed): a
				// run of remembered ids older than that place, or the cap's stop id in its place among them.
				if (!resumed && (beyondRun >= stopRun || (entryId === opts.stopAt && beyondRun >= 2))) {
					resumed = true;
					reached = true;
					break;
				}
				// Stop after a run of remembered ids; not before the place where a poll cut short stopped
				// reading, since unread items may follow it.
				// The cap's stop id counts in its place only, after another remembered id: removed and added
				// again, it comes back on top, where new items may follow it.
				if (resumed && (run >= stopRun || (entryId === opts.stopAt && run >= 2))) {
					reached = true;
					break;
				}
				continue;
			}
			run = 0;
			beyondRun = 0;
			if (opts.drop?.has(entryId)) continue;
			// The service returns only newer posts for since_id; an older one is never emitted again.
			if (opts.sinceId && !newerThan(entryId, opts.sinceId)) {
				if (!opts.startTime) continue;
				reached = true;
				break;
			}
			if (entries.length >= opts.limit) {
				cut = 'cap';
				break;
			}
			entries.push(entry);
			seen.push(entryId);
		}
		// A page can come back empty and still name a next one (the service removed or withheld its
		// items after paging): only the absence of a next_token ends the list.
		const next = (body.meta as IDataObject | undefined)?.next_token;
		if (reached || cut || !next) break;
		if (entries.length >= opts.limit) {
			cut = 'cap';
			break;
		}
		// At half the budget or past it: a budget of 0 stops each read after its first page, however
		// fast that page came.
		if (budget !== undefined && Date.now() - started >= budget / 2) {
			ctx.logger.warn(
				`${logPrefix(ctx)}: stopped reading after ${page + 1} pages to finish within n8n's poll time; the next poll reads on from there`,
			);
			cut = 'time';
			break;
		}
		if (opts.window && !opts.window.left()) {
			ctx.logger.warn(
				`${logPrefix(ctx)}: stopped reading after ${page + 1} pages: the service's rate-limit window has no request left until ${new Date(opts.window.resetAt() ?? Date.now()).toISOString()}; the first poll after it reads on from there`,
			);
			cut = 'rate';
			break;
		}
		if (page === MAX_PAGES - 1) {
			// The guard against a loop ended the read with pages left: the next poll reads on from here,
			// as after a poll cut short (ending it silently would take what is below for old).
			ctx.logger.warn(
				`${logPrefix(ctx)}: stopped reading after ${MAX_PAGES} pages; the next poll reads on from there`,
			);
			cut = 'time';
			break;
		}
		token = String(next);
	}
	return { entries, includes, cut, seen, resumed, answered };
}

function emit(
	settings: Settings,
	entries: IDataObject[],
	includes: IDataObject,
	subject: string | undefined,
	me?: string,
): INodeExecutionData[][] | null {
	if (!entries.length) return null;
	const context: ItemContext = {
		mode: settings.mode,
		subjectId: subject,
		meId: me,
		query: settings.query,
		receivedAt: new Date().toISOString(),
		version: settings.version,
	};
	// The service answers newest first; the workflow gets them in the order they happened.
	const items = [...entries]
		.reverse()
		.map((entry) => ({ json: toItem(entry, includes, context), pairedItem: { item: 0 } }));
	return [items];
}

/**
 * Leave Out My Messages (version 1.1): the messages the authenticated user sent are not emitted. They
 * still move the position like every other one read.
 */
function withoutOwn(
	settings: Settings,
	entries: IDataObject[],
	subject: string | undefined,
	me: string | undefined,
): IDataObject[] {
	if (!settings.excludeOwn) return entries;
	const own = settings.mode.value === 'directMessages' ? subject : me;
	if (own === undefined) return entries;
	return entries.filter(
		(e) =>
			!(String(e.sender_id ?? '') === own && (e.event_type ?? 'MessageCreate') === 'MessageCreate'),
	);
}

/** The start of what recent search reaches (7 days back, less a margin), in ms. */
function searchWindowStart(): number {
	return Date.now() - SEARCH_WINDOW_MS + SEARCH_MARGIN_MS;
}

/** An id recent search no longer takes: created before the start of its 7 days (a post id holds its creation time). */
function outsideSearchWindow(settings: Settings, id: string | undefined): boolean {
	return (
		settings.mode.value === 'search' &&
		id !== undefined &&
		newerThan(postIdAt(searchWindowStart()), id)
	);
}

/**
 * The position of recent search as the read sends it. The service refuses a since_id older than 7
 * days, so a query that matched nothing for a week would fail every poll: the read then asks from the
 * window's start (start_time) and keeps the position to itself (what is not newer ends the read).
 * Nothing between the kept id and the window's start can be found any more, and a trigger that polled
 * meanwhile found what was there.
 */
function since(
	settings: Settings,
	id: string | undefined,
): Pick<ReadOptions, 'sinceId' | 'startTime'> {
	if (!outsideSearchWindow(settings, id)) return { sinceId: id };
	return {
		sinceId: id,
		startTime: new Date(searchWindowStart()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
	};
}

function newestOf(entries: IDataObject[], current: string | undefined): string | undefined {
	let newest = current;
	for (const entry of entries) {
		const id = String(entry.id ?? '');
		if (/^\d+$/.test(id) && (!newest || newerThan(id, newest))) newest = id;
	}
	return newest;
}

/**
 * Modes with since_id: the ids left unread by a poll cut short by n8n's poll time (the gap) first, then
 * what is newer than the position. The position moves only over what is emitted.
 */
async function sinceIdPoll(
	ctx: IPollFunctions,
	settings: Settings,
	send: SendRequest,
	id: string | undefined,
	state: PollState,
	started: number,
	window: RateTracker,
): Promise<Pick<Read, 'entries' | 'includes' | 'cut'>> {
	const includes: IDataObject = {};
	let older: IDataObject[] = [];
	// Recent search reads from behind its newest id (indexing lag) and drops what it emitted there.
	const overlap = settings.mode.value === 'search';
	const lower = overlap ? (state.overlapFrom ?? state.newestId) : state.newestId;
	const drop = overlap ? new Set(state.recent ?? []) : undefined;
	/** `capped`: the entries of the read that Max Items per Poll ended (older ones were skipped). */
	const done = (found: Pick<Read, 'entries' | 'includes' | 'cut'>, capped?: IDataObject[]) => {
		if (overlap) moveOverlap(state, lower, found.entries, capped);
		return found;
	};
	if (state.gap && outsideSearchWindow(settings, state.gap.untilId)) {
		// The unread ids of a search cut short have left the 7 days it reaches: none can be read now.
		ctx.logger.warn(
			`${logPrefix(ctx)}: the posts a poll cut short left unread are older than recent search reaches (7 days); they are skipped`,
		);
		delete state.gap;
	}
	if (state.gap) {
		const gap = await read(ctx, settings, send, id, {
			limit: settings.maxItems,
			...since(settings, state.gap.sinceId),
			untilId: state.gap.untilId,
			drop,
			started,
			window,
		});
		addIncludes(includes, gap.includes);
		older = gap.entries;
		// The overlap of the read that follows reaches into the gap: what the gap gave is not given twice.
		for (const entry of older) drop?.add(String(entry.id ?? ''));
		if (paused(gap.cut)) {
			const oldest = oldestOf(gap.entries);
			if (oldest) state.gap = { ...state.gap, untilId: oldest };
			// The time is spent: what is newer waits for the next poll, where it is read after the gap.
			return done({ entries: older, includes, cut: gap.cut });
		}
		delete state.gap;
		if (gap.cut === 'cap') return done({ entries: older, includes, cut: gap.cut }, older);
	}
	const limit = settings.maxItems - older.length;
	if (limit <= 0) return done({ entries: older, includes });
	// The gap took the window's last request: what is newer waits for the first poll after the reset.
	if (!window.left()) return done({ entries: older, includes });
	const result = await read(ctx, settings, send, id, {
		limit,
		...since(settings, lower),
		drop,
		started,
		window,
	});
	addIncludes(includes, result.includes);
	if (paused(result.cut) && result.entries.length) {
		state.gap = { untilId: oldestOf(result.entries)! };
		if (lower) state.gap.sinceId = lower;
	}
	if (result.entries.length) state.newestId = newestOf(result.entries, state.newestId);
	return done(
		{ entries: [...result.entries, ...older], includes, cut: result.cut },
		result.cut === 'cap' ? result.entries : undefined,
	);
}

/**
 * Recent search, after a read: the next one starts SEARCH_LAG_MS behind the newest id (never lower
 * than this one started), and the ids emitted above that start are remembered to be dropped.
 */
function moveOverlap(
	state: PollState,
	lower: string | undefined,
	emitted: IDataObject[],
	capped: IDataObject[] | undefined,
): void {
	if (!state.newestId) return;
	let from = (BigInt(postIdAt(postIdTime(state.newestId) - SEARCH_LAG_MS)) - BigInt(1)).toString();
	if (lower && newerThan(lower, from)) from = lower;
	// Max Items per Poll skipped what is older than the oldest emitted: the overlap does not bring it back.
	const oldest = capped ? oldestOf(capped) : undefined;
	if (oldest && newerThan(oldest, from)) from = oldest;
	const ids = new Set([...emitted.map((e) => String(e.id ?? '')), ...(state.recent ?? [])]);
	// A gap left by a cut short poll is read from its own since_id, below the overlap: what was
	// emitted above that stays remembered until the gap is read.
	const gapFrom = state.gap ? (state.gap.sinceId ?? '0') : undefined;
	const keepAbove = gapFrom !== undefined && newerThan(from, gapFrom) ? gapFrom : from;
	let recent = [...ids]
		.filter((k) => /^\d+$/.test(k) && newerThan(k, keepAbove))
		.sort((a, b) => (newerThan(a, b) ? -1 : 1));
	if (recent.length > RECENT_IDS) {
		if (newerThan(recent[RECENT_IDS], from)) from = recent[RECENT_IDS];
		recent = recent.slice(0, RECENT_IDS);
	}
	state.overlapFrom = from;
	state.recent = recent;
}

/**
 * The nodes (by pollRef) whose last read in this process sent more than one request, from
 * IDLE_READ_VERSION on. The service lists these modes by when each item was added and its page tokens
 * go on past the page's last item: what is added while a read asks for its next page lands on top,
 * above the first page, and that read never sees it. If the newest remembered ids are then removed and
 * added again in their order (unfollowed and followed again, the older one first), a first page of
 * IDLE_PAGE answers them as remembered, and the new items below them would wait for the next change at
 * the top. So the poll after such a read asks a first page of FIRST_PAGE and reads past a remembered
 * top. PollState.paged says it across processes and restarts; this set says it too when n8n failed to
 * commit that poll's position (an empty poll whose position moved: the next ticks read the position
 * before it).
 */
const pagedReads = new Set<string>();

/**
 * Modes without since_id: every id read that is not remembered is new, read past remembered ones that
 * came back to the top (removed and added again) until a run of them. The window is then rebuilt in
 * the service's order from what was read, so it stays the newest part of the list.
 */
async function knownIdsPoll(
	ctx: IPollFunctions,
	settings: Settings,
	sendRequest: SendRequest,
	id: string | undefined,
	state: PollState,
	started: number,
	window: RateTracker,
): Promise<Pick<Read, 'entries' | 'includes' | 'cut'>> {
	const remembered = state.known ?? [];
	const below = state.below ?? [];
	// Where an earlier poll was cut short: the remembered ids after the last of its ids still remembered.
	let cutAt = -1;
	for (const k of state.resumeAfter ?? []) cutAt = Math.max(cutAt, remembered.indexOf(k));
	// From IDLE_READ_VERSION on, a first page of IDLE_PAGE that finds the top unchanged ends the read,
	// unless the last read sent more than one request (pagedReads).
	const ref = pollRef(ctx);
	const idle =
		settings.version >= IDLE_READ_VERSION &&
		!settings.mode.unpaged &&
		!state.resumeAfter &&
		!state.paged &&
		!pagedReads.has(ref) &&
		remembered.length >= IDLE_PAGE;
	/** Requests this poll sent to the list. */
	let requests = 0;
	const send: SendRequest = async (request) => {
		requests++;
		return await sendRequest(request);
	};
	const result = await read(ctx, settings, send, id, {
		limit: settings.maxItems,
		// After a poll cut short, the read goes past the place it stopped at: a short first page of ids
		// already read would spend a request of the window on them again.
		firstPage:
			settings.mode.unpaged || state.resumeAfter ? undefined : idle ? IDLE_PAGE : FIRST_PAGE,
		top: idle ? remembered : undefined,
		known: new Set([...remembered, ...below]),
		resumeAfter: state.resumeAfter,
		beyond: state.resumeAfter ? new Set([...remembered.slice(cutAt + 1), ...below]) : undefined,
		stopAt: state.skippedBelow,
		started,
		window,
	});
	if (paused(result.cut)) {
		// Where this read stopped; while an earlier cut short poll's place is still ahead, that place
		// too (its ids may have come back on top, where this read already saw them).
		const last = result.seen.slice(-STOP_RUN);
		const earlier = result.resumed ? [] : (state.resumeAfter ?? []);
		state.resumeAfter = [...earlier, ...last.filter((k) => !earlier.includes(k))].slice(
			0,
			3 * STOP_RUN,
		);
	} else delete state.resumeAfter;
	const seen = new Set(result.seen);
	let ordered = [...result.seen, ...remembered.filter((k) => !seen.has(k))];
	let kept = below;
	/** The window may let ids go: it was read again (or has none to let go). */
	let settled = !result.cut;
	if (!settings.mode.unpaged && !result.cut && ordered.length > KNOWN_IDS) {
		// The window is about to let ids go. Some of those it keeps may be gone (followers who left
		// since): a window of gone ids finds no place once its newer ones go too, and every older item
		// would look new. The list is read again to the window's depth, and the ids not in it dropped.
		const answered = await listIds(
			ctx,
			settings,
			send,
			id,
			result.entries.length + ordered.length + below.length,
			started,
			window,
		);
		if (answered) {
			// The window rebuilt in the list's order as it is now: an id added again while this poll
			// read (back on top, behind the read) keeps its place among the newest.
			const memory = new Set([...ordered, ...below]);
			ordered = [...answered].filter((k) => memory.has(k));
			kept = [];
		} else settled = false;
	}
	if (settings.version >= IDLE_READ_VERSION && !settings.mode.unpaged) {
		if (requests > 1) {
			state.paged = true;
			pagedReads.add(ref);
		} else if (!result.cut) {
			// One request read the top to a run of remembered ids (or the list's end): nothing is behind it.
			// A read cut short keeps both as they were: n8n may fail to commit it too.
			delete state.paged;
			pagedReads.delete(ref);
		}
	}
	// Spaces come in one answer without an order, and every id in it is compared: the window holds the
	// whole answer when it is longer than KNOWN_IDS (an id let go of would be new again every poll).
	const size = settings.mode.unpaged ? Math.max(KNOWN_IDS, result.seen.length) : KNOWN_IDS;
	// A read that was cut short, or could not read the window again, cannot tell which ids are gone:
	// the window keeps the ids it would let go of (up to twice its size) until a poll that can.
	const known = ordered.slice(0, settled ? size : 2 * size);
	state.known = known;
	if (!settings.mode.unpaged) {
		// What the window lets go of is just below it: newer than what was below before.
		const inWindow = new Set(known);
		state.below = [...ordered.slice(KNOWN_IDS), ...kept.filter((k) => !seen.has(k))]
			.filter((k) => !inWindow.has(k))
			.slice(0, BELOW_IDS);
		if (!state.below.length) delete state.below;
	}
	if (result.cut === 'cap') state.skippedBelow = result.seen[result.seen.length - 1];
	else if (
		state.skippedBelow &&
		!known.includes(state.skippedBelow) &&
		!(state.below ?? []).includes(state.skippedBelow)
	)
		delete state.skippedBelow;
	// The service gives Spaces in no order: they are emitted in the order they were created.
	if (!settings.mode.unpaged) return result;
	const changed =
		settings.version >= EVENT_KINDS_VERSION
			? spaceChanges(state, result.answered, result.entries)
			: [];
	// Newest first, as emit() expects: the new Spaces are emitted first, then those that started or ended.
	const entries = [...byCreation(changed), ...byCreation(result.entries)];
	return { entries, includes: result.includes, cut: result.cut };
}

/**
 * The ids of the list's first `depth` items (the whole list if shorter), read in the largest pages;
 * undefined where n8n's poll time or the rate-limit window ends the read first.
 */
async function listIds(
	ctx: IPollFunctions,
	settings: Settings,
	send: SendRequest,
	id: string | undefined,
	depth: number,
	started: number,
	window: RateTracker,
): Promise<Set<string> | undefined> {
	const { mode } = settings;
	const budget = pollBudget(ctx);
	const base: IDataObject = fieldQuery(mode.kind, settings.fields);
	if (mode.subjectQuery) Object.assign(base, mode.subjectQuery(id ?? ''));
	if (settings.exclude.length) base.exclude = settings.exclude.join(',');
	if (mode.kind === 'dmEvents' && settings.dmEventTypes) base.event_types = settings.dmEventTypes;
	const ids = new Set<string>();
	let token: string | undefined;
	for (let page = 0; page < MAX_PAGES; page++) {
		if (!window.left()) return undefined;
		if (budget !== undefined && Date.now() - started > budget / 2) return undefined;
		const qs: IDataObject = { ...base, max_results: mode.page.max };
		if (token) qs[mode.tokenParam] = token;
		const body = await send({
			method: 'GET',
			path: mode.path(id ?? ''),
			qs,
			onRateWindow: (w) => window.observe(w),
		});
		for (const entry of (Array.isArray(body.data) ? body.data : []) as IDataObject[])
			ids.add(String(entry.id ?? ''));
		const next = (body.meta as IDataObject | undefined)?.next_token;
		if (!next || ids.size >= depth) return ids;
		token = String(next);
	}
	return undefined;
}

/**
 * Version 1.1: the Spaces seen scheduled or live are remembered with their state, so that one seen
 * before is emitted again when it starts (spaces.start) or ends (spaces.end), once each. Returns those
 * that changed among the Spaces answered (the new ones are emitted as new) and keeps the states of the
 * remembered Spaces only.
 */
function spaceChanges(
	state: PollState,
	answered: IDataObject[],
	fresh: IDataObject[],
): IDataObject[] {
	const isNew = new Set(fresh.map((e) => String(e.id)));
	const states = { ...(state.spaces ?? {}) };
	const changed: IDataObject[] = [];
	for (const space of answered) {
		const id = String(space.id);
		const now = String(space.state ?? '');
		const before = states[id];
		if (!isNew.has(id) && before && now !== before && (now === 'live' || now === 'ended'))
			changed.push(space);
		if (now === 'scheduled' || now === 'live') states[id] = now;
		else delete states[id];
	}
	const known = new Set(state.known ?? []);
	state.spaces = Object.fromEntries(Object.entries(states).filter(([id]) => known.has(id)));
	return changed;
}

/**
 * Newest first by created_at (ids of Spaces carry no time); entries without it keep their place, and
 * those with it are sorted among themselves into the other places (one comparison of an entry without
 * a time with two that have one would not be an order: the sort's result would depend on its steps).
 */
function byCreation(entries: IDataObject[]): IDataObject[] {
	const at = (entry: IDataObject) => String(entry.created_at ?? '');
	// Array.prototype.sort is stable: entries created at the same time keep the service's order.
	const dated = entries.filter(at).sort((a, b) => (at(a) < at(b) ? 1 : at(a) > at(b) ? -1 : 0));
	let next = 0;
	return entries.map((entry) => (at(entry) ? dated[next++] : entry));
}

function oldestOf(entries: IDataObject[]): string | undefined {
	let oldest: string | undefined;
	for (const entry of entries) {
		const id = String(entry.id ?? '');
		if (/^\d+$/.test(id) && (!oldest || newerThan(oldest, id))) oldest = id;
	}
	return oldest;
}

/**
 * A pause of the polls a builder would notice (PAUSE_NOTICE_MS or longer, from version
 * PAUSE_SIGNAL_VERSION on), said once per pause where the builder looks: n8n records the error a poll
 * throws as a failed execution of the workflow (its Executions list), and n8n's durable poll scheduler
 * reads `failure` to wait for the reset before its next poll. The position is untouched, so the first
 * poll after the reset catches up. A shorter pause, and earlier versions, keep the log line alone.
 */
function reportPause(ctx: IPollFunctions, settings: Settings, resetAt: number): void {
	if (settings.version < PAUSE_SIGNAL_VERSION || resetAt - Date.now() < PAUSE_NOTICE_MS) return;
	const until = new Date(resetAt).toISOString().replace(/\.\d{3}Z$/, 'Z');
	throw new NodeOperationError(
		ctx.getNode(),
		`Polls paused until ${until}: the service's rate-limit window for "${settings.mode.name}" has no request left`,
		{
			description: `Nothing is lost: the first poll after ${until} reads everything new since the last successful poll. The window belongs to the account (or app) and the kind of read, so other workflows and apps polling the same with this credential spend it too: if this repeats, set a longer interval in Poll Times, or give the other workflows another credential. This is reported once per pause; when it is the answer to Publish, the workflow is not published: publish it again after that time.`,
			failure: { cause: 'rate-limited', resetsAtEpochMs: resetAt },
		},
	);
}

/**
 * The workflow's global static data field that keeps, per Poll Trigger node, the position its last
 * first poll recorded (StartRecord).
 */
export const STARTS_FIELD = 'platformPollTriggerStarts';

/** The fields of a position a first poll records (PollState). */
const START_FIELDS = ['newestId', 'known', 'below', 'skippedBelow', 'spaces'] as const;

/**
 * The position a first poll recorded, kept in the workflow's global static data as well as in the
 * node's own. Under n8n's durable poll scheduler the node's static data inside a poll is a snapshot of
 * the poller_state row (n8n/dist/workflows/triggers/trigger-execution-context.factory.js,
 * resolveNodeStaticData), and the poll n8n runs when the workflow is published commits nothing when it
 * returns nothing (n8n-core/dist/execution-engine/poll-trigger-executor.js: no commit for
 * `testingTrigger`): its position would be lost, and the first scheduled poll would record the
 * position again, past every item published in between. The global static data, though, is the
 * workflow's, and n8n saves it when the publication ends (workflow-trigger-activator.js,
 * activateInternal: saveStaticData) and reads it again on every tick (poll-trigger-task-handler.js
 * builds the workflow from the published data with its staticData). A poll that finds no position of
 * its own takes this one when it belongs to the same mode, account, user and query (`key`), and reads
 * on from it. Keyed by node id and name: a renamed node starts afresh, as its own static data does.
 */
interface StartRecord extends IDataObject {
	key: string;
	/** When it was recorded (ms). */
	at: number;
	position: IDataObject;
}

function startRef(ctx: IPollFunctions): string {
	const node = ctx.getNode();
	return `${node.id ?? ''}:${node.name}`;
}

function startRecord(ctx: IPollFunctions): StartRecord | undefined {
	const starts = ctx.getWorkflowStaticData('global')[STARTS_FIELD] as IDataObject | undefined;
	const record = starts?.[startRef(ctx)] as StartRecord | undefined;
	return record && typeof record.key === 'string' && record.position ? record : undefined;
}

function recordStart(ctx: IPollFunctions, state: PollState): void {
	const global = ctx.getWorkflowStaticData('global');
	const position: IDataObject = {};
	for (const field of START_FIELDS) if (state[field] !== undefined) position[field] = state[field];
	const record: StartRecord = { key: state.key!, at: state.keyAt ?? Date.now(), position };
	// Assigned whole: n8n marks the static data changed (and saves it) on a write to its top level.
	global[STARTS_FIELD] = {
		...((global[STARTS_FIELD] as IDataObject | undefined) ?? {}),
		[startRef(ctx)]: JSON.parse(JSON.stringify(record)) as IDataObject,
	};
}

/** The budget of a poll n8n's scheduler did not start (n8n-core's PollContext default, 5 minutes). */
export const UNSCHEDULED_BUDGET_MS = 5 * 60_000;

/**
 * A scheduled poll whose position n8n does not keep when it returns nothing: n8n's scheduler runs the
 * poll (its budget is the tick's, not PollContext's default: trigger-execution-context.factory.js
 * passes getPollBudgetMs only with a tick's lease) and the node's static data is the workflow's own,
 * an n8n observable object (n8n-workflow's observable-object.js defines `__dataChanged` on it), not a
 * snapshot of a poller_state row: durable cursors are off (poll-cursor.service.js resolveCursor). Each
 * tick then builds the workflow from the database and a null poll saves nothing
 * (poll-trigger-task-handler.js), so a first poll there records a position that is lost, every time.
 * A scheduler configured to give exactly 5 minutes (a poll timeout and lease of 375 s) is not told
 * apart from the in-memory polls.
 */
function unkeptPosition(stored: PollState, budget: number | undefined): boolean {
	return budget !== undefined && budget !== UNSCHEDULED_BUDGET_MS && '__dataChanged' in stored;
}

/** The same data, whatever the order of its keys. */
function sameData(a: unknown, b: unknown): boolean {
	const sorted = (value: unknown): unknown =>
		Array.isArray(value)
			? value.map(sorted)
			: value !== null && typeof value === 'object'
				? Object.fromEntries(
						Object.keys(value)
							.sort()
							.map((k) => [k, sorted((value as IDataObject)[k])]),
					)
				: value;
	return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

/**
 * Replaces the static data's position with the one a successful poll moved, and moves positionSeq
 * when the position changed (the rate-limit window the poll counted is not the position).
 */
function keep(stored: PollState, state: PollState): void {
	const position = (data: PollState) => ({ ...data, positionSeq: undefined, rate: undefined });
	if (!sameData(position(stored), position(state)))
		state.positionSeq = (stored.positionSeq ?? 0) + 1;
	for (const name of Object.keys(stored)) if (!(name in state)) delete stored[name];
	Object.assign(stored, state);
}

/**
 * Under n8n's durable poll scheduler, several polls of one node can run at once, each on its own
 * snapshot of the position: n8n makes each Poll Times entry its own scheduler job, and after a restart
 * fires every occurrence missed within N8N_SCHEDULER_MISFIRE_GRACE (60 s) at once. Each tick reads the
 * poller_state row when its task starts (n8n/dist/scheduling/poll-trigger-node/poll-trigger-task-handler.js:
 * `state?.cursor` to createPollExecutionContext; trigger-execution-context.factory.js, __runPoll:
 * resolveCursor with that prefetched cursor), and a poll that returns items commits its execution
 * whatever another tick committed (the commit is fenced by the tick's lease, not by the position): the
 * same items would run once per tick. So, per n8n process:
 * - one poll of a node at a time: a poll that starts while another of the same node runs returns null
 *   at once, its static data untouched, and n8n commits nothing for it (takeStagedCursor: a snapshot
 *   equal to its seed);
 * - a poll whose snapshot is older than the position this process last handed out (positionSeq
 *   lower) returns null the same way, while that position is younger than STALE_SNAPSHOT_MS: a stale
 *   poll would emit the same items again, or commit its own older position (an empty poll that only
 *   counted the rate-limit window) over the newer one.
 * n8n's legacy polls work on the workflow's live static data, which always holds the latest positionSeq:
 * the second check never stops them.
 */
const pollsInFlight = new Set<string>();
const handedOut = new Map<string, { seq: number; at: number }>();

/**
 * How long a position handed out outranks an older snapshot. n8n commits it right after poll()
 * returns (with the execution, __emit: runPolledWorkflow; or alone), and a tick is abandoned after
 * N8N_SCHEDULER_POLL_TIMEOUT (45 s by default): a snapshot still older after 2 minutes means the
 * commit failed (n8n logs "the next poll repeats the same window"), and that snapshot is polled again,
 * so a failed commit delays those items; it never stalls the trigger nor loses them.
 */
export const STALE_SNAPSHOT_MS = 2 * 60_000;

function pollRef(ctx: IPollFunctions): string {
	return `${String(ctx.getWorkflow().id ?? '')}:${ctx.getNode().id ?? ctx.getNode().name}`;
}

export async function poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	// A manual test run reads and keeps nothing of the position.
	if (this.getMode() === 'manual') return await pollOnce.call(this);
	const ref = pollRef(this);
	const stored = this.getWorkflowStaticData('node') as PollState;
	const latest = handedOut.get(ref);
	const stale =
		latest !== undefined &&
		(stored.positionSeq ?? 0) < latest.seq &&
		Date.now() - latest.at < STALE_SNAPSHOT_MS;
	if (pollsInFlight.has(ref) || stale) {
		this.logger.debug(
			`${logPrefix(this)}: ${stale ? 'this poll read a position older than the one the last poll handed out' : 'another poll of this node is running'}; this one is skipped`,
		);
		return null;
	}
	const seqBefore = stored.positionSeq ?? 0;
	const budget = pollBudget(this);
	// n8n commits the position of a poll with items at once, and that of a scheduler tick's empty poll
	// when it moved (commitStagedCursor); the poll it runs at publishing commits nothing without items,
	// and its budget is PollContext's default (so are the legacy polls', whose static data is live).
	const tick = budget !== UNSCHEDULED_BUDGET_MS;
	pollsInFlight.add(ref);
	try {
		const result = await pollOnce.call(this);
		const seq = stored.positionSeq ?? 0;
		if (result !== null || (tick && seq !== seqBefore)) handedOut.set(ref, { seq, at: Date.now() });
		return result;
	} finally {
		pollsInFlight.delete(ref);
	}
}

async function pollOnce(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const started = Date.now();
	const settings = readSettings(this);
	const manual = this.getMode() === 'manual';
	const budget = manual ? undefined : pollBudget(this);
	// A budget that is not positive gives no deadline (each read still stops after its first page).
	const send = sender(
		this,
		settings,
		budget !== undefined && budget > 0 ? started + budget : undefined,
	);
	const stored = this.getWorkflowStaticData('node') as PollState;
	// The poll works on a copy, kept only when the poll succeeds: a 429 or an error half-way through a
	// poll leaves the position as the last successful poll left it.
	const state = JSON.parse(JSON.stringify(stored)) as PollState;
	const window = rateTracker(state, settings.mode);
	const resetAt = window.resetAt();
	if (!manual && resetAt !== undefined) {
		// The window has no request left (its last answer said so, or a 429 did): this poll sends none,
		// emits nothing and keeps the position; the first poll after the reset catches up. Logged once a
		// window: polls every minute would repeat it up to 14 times.
		const line = `${logPrefix(this)}: the service's rate-limit window for "${settings.mode.name}" has no request left; polls are skipped until it resets at ${new Date(resetAt).toISOString()}, then the next poll catches up`;
		const first = !stored.rate?.told;
		if (first) this.logger.info(line);
		else this.logger.debug(line);
		if (stored.rate) stored.rate.told = true;
		if (first) reportPause(this, settings, resetAt);
		return null;
	}
	try {
		const id = await subjectId(this, settings, state, send);
		const me = await meId(this, settings, state, send);
		if (manual) {
			// A test shows the latest items whatever was seen before, so that there is a sample to map.
			const latest = await read(this, settings, send, id, { limit: MANUAL_ITEMS });
			if (!latest.entries.length) {
				throw new NodeOperationError(
					this.getNode(),
					`The service answered, but there are no ${NOTHING_FOUND[settings.mode.value]} yet`,
					{
						description:
							'A test shows the latest items, new or not, as a sample; there is none to show. Publish one (or change the fields above) and fetch again. Once the workflow is active, every new one starts it.',
					},
				);
			}
			return emit(settings, latest.entries, latest.includes, id, me);
		}
		const key = positionKey(settings, id);
		const { mode } = settings;
		if (state.key !== key && state.key !== undefined && state.key === earlierKey(settings))
			state.key = key;
		const start = state.key !== key ? startRecord(this) : undefined;
		// Only a record newer than the position held: a watch that moved to another account since the
		// workflow was published (and back) starts afresh, as it does without the record.
		if (start?.key === key && !(state.keyAt !== undefined && state.keyAt >= start.at)) {
			// No position of its own, but a first poll recorded one for the same watch (when the workflow
			// was published): read on from it, so that what was published since then is emitted.
			for (const field of [...START_FIELDS, 'resumeAfter', 'gap', 'overlapFrom', 'recent', 'paged'])
				delete state[field];
			Object.assign(state, JSON.parse(JSON.stringify(start.position)) as PollState);
			state.key = key;
			state.keyAt = start.at;
			this.logger.info(
				`${logPrefix(this)}: reading on from the position recorded at ${new Date(start.at).toISOString()} (when the workflow was published)`,
			);
		}
		if (state.key !== key) {
			if (unkeptPosition(stored, budget)) {
				throw new NodeOperationError(
					this.getNode(),
					'This poll cannot keep its position: n8n runs poll triggers on its scheduler without durable cursors',
					{
						description:
							'With N8N_SCHEDULER_ENABLED, N8N_SCHEDULER_POLL_TRIGGERS_ENABLED and N8N_USE_WORKFLOW_PUBLICATION_SERVICE on and N8N_POLLER_DURABLE_CURSORS_ENABLED off, n8n keeps nothing from a poll that finds nothing new, and this trigger has no position yet (the poll when the workflow was published could not record one, or the credential now names another account): it would never start the workflow. Set N8N_POLLER_DURABLE_CURSORS_ENABLED=true (recommended), or N8N_SCHEDULER_POLL_TRIGGERS_ENABLED=false, restart n8n and publish the workflow again.',
					},
				);
			}
			// First poll for this mode, account, user and query: only record where the data stands now.
			// Modes without since_id remember the whole window that later polls compare against (up to
			// three pages). A read the rate-limit window or n8n's poll time ends records what it read, and
			// its last id as the place older items begin, as the cap does: repeating the read would meet
			// the same spent window or slow service. Later reads end at a run of remembered ids, which
			// removed ones break: a read of fewer than a full page (100, half the window) records nothing,
			// and the next poll (after the reset) reads again.
			const first = await read(this, settings, send, id, {
				limit: mode.sinceId ? mode.page.min : mode.unpaged ? Infinity : KNOWN_IDS + BELOW_IDS,
				started,
				window,
			});
			if (paused(first.cut) && first.seen.length < KNOWN_IDS / 2) {
				if (state.rate) stored.rate = state.rate;
				return null;
			}
			state.key = key;
			state.keyAt = Date.now();
			delete state.resumeAfter;
			delete state.skippedBelow;
			delete state.gap;
			delete state.overlapFrom;
			delete state.recent;
			delete state.below;
			delete state.paged;
			pagedReads.delete(pollRef(this));
			if (mode.sinceId) {
				delete state.known;
				const newest = newestOf(first.entries, undefined);
				if (newest) state.newestId = newest;
				else delete state.newestId;
			} else {
				delete state.newestId;
				const read = first.entries.map((e) => String(e.id));
				// Spaces: the whole answer (see knownIdsPoll).
				state.known = mode.unpaged ? read : read.slice(0, KNOWN_IDS);
				if (!mode.unpaged && read.length > KNOWN_IDS) state.below = read.slice(KNOWN_IDS);
				// A longer list (or a read the rate-limit window ended): what is older is not new either.
				if (first.cut && !mode.unpaged) state.skippedBelow = read[read.length - 1];
			}
			if (mode.unpaged && settings.version >= EVENT_KINDS_VERSION) {
				// The Spaces scheduled or live now are emitted when they start or end.
				delete state.spaces;
				spaceChanges(state, first.answered, first.answered);
			}
			recordStart(this, state);
			this.logger.info(
				`${logPrefix(this)}: first poll recorded the position (${state.newestId ?? `${state.known?.length ?? 0} ids`}); new items start the workflow from the next poll on`,
			);
			keep(stored, state);
			return null;
		}
		const found = mode.sinceId
			? await sinceIdPoll(this, settings, send, id, state, started, window)
			: await knownIdsPoll(this, settings, send, id, state, started, window);
		if (found.cut === 'cap') {
			this.logger.warn(
				`${logPrefix(this)}: more than ${settings.maxItems} new items since the last poll; the newest ${found.entries.length} are emitted and older ones skipped (raise "Max Items per Poll" or poll more often)`,
			);
		}
		keep(stored, state);
		return emit(settings, withoutOwn(settings, found.entries, id, me), found.includes, id, me);
	} catch (error) {
		// What the service said of its window holds whatever became of the poll.
		if (state.rate && !manual) stored.rate = state.rate;
		const limited = rateLimitOfError(error);
		if (limited && !manual) {
			if (limited.resetAt && limited.resetAt.getTime() > Date.now())
				stored.rate = {
					mode: settings.mode.value,
					remaining: 0,
					resetAt: limited.resetAt.getTime(),
					told: true,
				};
			this.logger.warn(
				`${logPrefix(this)}: rate limit reached; this poll is skipped and the position kept. ${limited.resetAt ? `The limit resets at ${limited.resetAt.toISOString()}; polls until then are skipped without a request.` : 'The service named no reset time.'}`,
			);
			if (limited.resetAt) reportPause(this, settings, limited.resetAt.getTime());
			return null;
		}
		const failure = asNodeError(this, error);
		if (!manual) {
			// The position moves only when a poll succeeds, so a failed one loses nothing: say so.
			failure.description = [
				failure.description,
				'This poll failed and kept its place: the next poll reads what this one missed.',
			]
				.filter(Boolean)
				.join(' ');
		}
		throw failure;
	}
}
