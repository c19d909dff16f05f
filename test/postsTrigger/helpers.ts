import nock from 'nock';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { poll } from '../../nodes/triggers/poll/poll';
import { CREDENTIAL_TYPES } from '../../nodes/shared/transport';
import { BASE, createContext } from '../helpers/context';

/**
 * A small stand-in for the service's newest-first reads: a store of entries, since_id where the
 * endpoint takes it (refused elsewhere), max_results within the endpoint's bounds, and a page size
 * the server may keep below max_results (so that a poll has to follow pages).
 */
export interface FakeRead {
	path: string;
	sinceId: boolean;
	tokenParam: 'pagination_token' | 'next_token';
	bounds: { min: number; max: number };
}

/** Recent search reaches the last 7 days (the contract: "the last 7 days"), whatever the trigger assumes. */
const RECENT_SEARCH_DAYS_MS = 7 * 24 * 3_600_000;

/**
 * Recent search's refusal of a since_id or until_id older than its 7 days (a 400 Invalid Request), or
 * undefined when the query is inside them. `now`: the service's clock.
 */
export function outsideSearchWindow(
	q: Record<string, string>,
	now: number,
): [number, IDataObject] | undefined {
	for (const key of ['since_id', 'until_id'])
		if (q[key] !== undefined && BigInt(q[key]) < BigInt(postIdAt(now - RECENT_SEARCH_DAYS_MS)))
			return [
				400,
				{
					title: 'Invalid Request',
					detail: `Invalid '${key}': must be a post id created after the start of the last 7 days`,
					type: 'https://api.test.local/2/problems/invalid-request',
				},
			];
	return undefined;
}

/** User 42, whose posts and followers the scheduler and failure tests watch (App-Only). */
export const USER_42 = '42';
export const USER_42_POSTS_READ: FakeRead = {
	path: `/2/users/${USER_42}/tweets`,
	sinceId: true,
	tokenParam: 'pagination_token',
	bounds: { min: 5, max: 100 },
};
export const USER_42_FOLLOWERS_READ: FakeRead = {
	path: `/2/users/${USER_42}/followers`,
	sinceId: false,
	tokenParam: 'pagination_token',
	bounds: { min: 1, max: 1000 },
};
export const USER_42_POSTS = {
	event: 'userPosts',
	authentication: CREDENTIAL_TYPES.appOnly,
	user: { __rl: true, mode: 'id', value: USER_42 },
};
export const USER_42_FOLLOWERS = { ...USER_42_POSTS, event: 'followers' };

/** New Spaces of a User, the Spaces User 42 creates (App-Only): the poll's parameters. */
export const USER_42_SPACES = {
	event: 'userSpaces',
	authentication: CREDENTIAL_TYPES.appOnly,
	creator: { __rl: true, mode: 'id', value: USER_42 },
};

/**
 * A stand-in for the Spaces of a creator (GET /2/spaces/by/creator_ids): every request answers all of
 * `spaces` as they are then, copied and in their order, and no `data` when there are none.
 */
export function serveSpaces(spaces: IDataObject[]) {
	return nock(BASE)
		.persist()
		.get('/2/spaces/by/creator_ids')
		.query(true)
		.reply(() => [
			200,
			spaces.length
				? { data: spaces.map((s) => ({ ...s })), meta: { result_count: spaces.length } }
				: { meta: { result_count: 0 } },
		]);
}

export interface Served {
	entries: IDataObject[];
	pageLimit: number;
	queries: Array<Record<string, string>>;
	/** Answer the next request with 429 and this reset time (Unix seconds). */
	rateLimitOnce?: number;
	/**
	 * 'id' (the default): newest id first, as posts are. 'added': the last entry of `entries` first, as
	 * followers, likes, bookmarks and list members are (an item removed and added again comes back on top).
	 */
	order?: 'id' | 'added';
	/** A slow service: how long (ms) the answer to this query takes. */
	delayMs?: (query: Record<string, string>) => number;
	/**
	 * The rate-limit window the answers state in their headers (none when unset): each answer spends a
	 * request of it; with none left the service answers 429. It does not renew itself at `reset` (Unix
	 * seconds): a test sets the next window when its clock passes the reset.
	 */
	rate?: { limit: number; remaining: number; reset: number };
	/** Answer this query without `meta` (the contract does not require it): its page is the last. */
	noMeta?: (query: Record<string, string>) => boolean;
}

/** The smallest post id created at `ms` (a post id is its creation time in ms since 2010-11-04, shifted left 22 bits). */
export function postIdAt(ms: number): string {
	return (BigInt(Math.floor(ms - 1288834974657)) << BigInt(22)).toString();
}

// Post ids of the last hour (an id holds its creation time): recent search refuses a since_id older
// than 7 days, and the node keeps its position inside that window.
let counter = BigInt(postIdAt(Date.now() - 3_600_000));
export function nextId(): string {
	counter += BigInt(1000);
	return String(counter);
}

export function serve(read: FakeRead, served: Served) {
	return nock(BASE)
		.persist()
		.get(read.path)
		.query(true)
		.reply(async (uri) => {
			const q = Object.fromEntries(new URL(uri, BASE).searchParams.entries());
			served.queries.push(q);
			const delay = served.delayMs?.(q) ?? 0;
			// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- test code: an unref'd timer, so that a slow answer never keeps jest open
			if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay).unref());
			if (served.rateLimitOnce !== undefined) {
				const reset = served.rateLimitOnce;
				served.rateLimitOnce = undefined;
				return [
					429,
					{ title: 'Too Many Requests', type: 'about:blank', status: 429 },
					{ 'x-rate-limit-reset': String(reset) },
				];
			}
			const rate = served.rate;
			const rateHeaders = (): Record<string, string> =>
				rate
					? {
							'x-rate-limit-limit': String(rate.limit),
							'x-rate-limit-remaining': String(rate.remaining),
							'x-rate-limit-reset': String(rate.reset),
						}
					: {};
			if (rate && rate.remaining <= 0)
				return [
					429,
					{ title: 'Too Many Requests', type: 'about:blank', status: 429 },
					rateHeaders(),
				];
			if (rate) rate.remaining--;
			const max = Number(q.max_results);
			if (!Number.isInteger(max) || max < read.bounds.min || max > read.bounds.max) {
				return [
					400,
					{
						title: 'Invalid Request',
						detail: `max_results ${q.max_results} out of bounds`,
						type: 'https://api.test.local/2/problems/invalid-request',
					},
				];
			}
			if ((q.since_id !== undefined || q.until_id !== undefined) && !read.sinceId) {
				return [
					400,
					{
						title: 'Invalid Request',
						detail: 'since_id and until_id not taken here',
						type: 'https://api.test.local/2/problems/invalid-request',
					},
				];
			}
			let list =
				served.order === 'added'
					? [...served.entries].reverse()
					: [...served.entries].sort((a, b) =>
							BigInt(String(a.id)) < BigInt(String(b.id)) ? 1 : -1,
						);
			if (q.since_id !== undefined)
				list = list.filter((e) => BigInt(String(e.id)) > BigInt(q.since_id));
			if (q.until_id !== undefined)
				list = list.filter((e) => BigInt(String(e.id)) < BigInt(q.until_id));
			const start = q[read.tokenParam] ? Number(q[read.tokenParam]) : 0;
			const size = Math.min(max, served.pageLimit);
			const page = list.slice(start, start + size);
			const meta: IDataObject = { result_count: page.length };
			if (start + size < list.length) meta.next_token = String(start + size);
			const body: IDataObject = served.noMeta?.(q) ? {} : { meta };
			if (page.length) {
				body.data = page;
				body.includes = { users: [{ id: '42', username: 'author', name: 'Author' }] };
			}
			return [200, body, rateHeaders()];
		});
}

export function pollContext(
	parameters: IDataObject,
	staticData: IDataObject,
	mode: 'trigger' | 'manual' = 'trigger',
	extra: IDataObject = {},
	typeVersion = 1,
) {
	return createContext({
		typeVersion,
		parameters: {
			maxItems: 100,
			options: {},
			includeReplies: true,
			includeReposts: true,
			query: '',
			...parameters,
		},
		staticData,
		extra: { getMode: () => mode, ...extra },
	});
}

/** The event_id of each item a poll emitted (none when it emitted nothing). */
export function ids(result: INodeExecutionData[][] | null): string[] {
	return (result?.[0] ?? []).map((i) => String(i.json.event_id));
}

/** What a world of `watch` reads: the poll's parameters, its endpoint, and how an item looks there. */
export interface Watched {
	parameters: IDataObject;
	read: FakeRead;
	/** The service's entry for an id. */
	entry: (id: string) => IDataObject;
	/** The event_id the node emits for an id. */
	eventId: (id: string) => string;
}

/**
 * A list read newest added first (as followers, likes and list members are), watched by a node of
 * `typeVersion`; the service answers at most `pageLimit` a page. `add` returns the entries' ids.
 */
export function watch(watched: Watched, typeVersion = 1, pageLimit = 100) {
	const served: Served = { entries: [], pageLimit, queries: [], order: 'added' };
	const staticData: IDataObject = {};
	serve(watched.read, served);
	let budget: number | undefined;
	const run = async (parameters: IDataObject = {}) => {
		const built = pollContext(
			{ ...watched.parameters, ...parameters },
			staticData,
			'trigger',
			{ getPollBudgetMs: () => budget },
			typeVersion,
		);
		const result = await poll.call(built.context);
		return { ids: ids(result), logs: built.logs };
	};
	const add = (n: number) => {
		const added: string[] = [];
		for (let i = 0; i < n; i++) {
			const id = nextId();
			served.entries.push(watched.entry(id));
			added.push(id);
		}
		return added;
	};
	const remove = (id: string) => {
		served.entries = served.entries.filter((e) => e.id !== id);
	};
	/** Unfollowed (unliked, removed) and followed again: back on top of the list. */
	const readd = (id: string) => {
		remove(id);
		served.entries.push(watched.entry(id));
	};
	/** The max_results of each request from `from` on. */
	const sizes = (from = 0) => served.queries.slice(from).map((q) => Number(q.max_results));
	/** n8n's poll time, in ms; a negative one cuts every read short after its first page. */
	const setBudget = (ms: number | undefined) => (budget = ms);
	return { served, staticData, run, add, remove, readd, sizes, setBudget };
}

/**
 * A stand-in for direct messages read by the account `me`: GET /2/users/me answers `me`; GET
 * /2/dm_events answers `events` as they are then, the last added first, only the kinds event_types
 * asks for (every kind without it), at most max_results. Returns the queries it was sent, in order.
 */
export function serveDirectMessages(me: string, events: IDataObject[]) {
	const queries: Array<Record<string, string>> = [];
	nock(BASE)
		.persist()
		.get('/2/users/me')
		.reply(200, { data: { id: me } });
	nock(BASE)
		.persist()
		.get('/2/dm_events')
		.query(true)
		.reply((uri) => {
			const q = Object.fromEntries(new URL(uri, BASE).searchParams.entries());
			queries.push(q);
			const types = q.event_types?.split(',');
			const list = [...events]
				.reverse()
				.filter((e) => !types || types.includes(String(e.event_type)))
				.slice(0, Number(q.max_results));
			return [
				200,
				list.length
					? { data: list, meta: { result_count: list.length } }
					: { meta: { result_count: 0 } },
			];
		});
	return queries;
}
