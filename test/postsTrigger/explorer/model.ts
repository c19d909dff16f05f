/**
 * The model behind the Poll Trigger's explorer: a fake service holding what each mode watches (per
 * account where the mode watches the authenticated user's own data), answering the real poll() through
 * a fake transport (pages of a drawn size, since_id / until_id where the endpoint takes them, Spaces in
 * a drawn order, 429 and 503 on any request), n8n's poll time that runs out after a drawn number of
 * pages, static data kept as JSON across polls and restarts (or not saved after a failed poll), and
 * credentials switched to another account. A simulated clock runs across polls (a minute between
 * polls, a second per request; the settling polls come after a window's reset). The service keeps a
 * 15-minute rate-limit window of a drawn size for the watched endpoint, states it in every answer's
 * headers and refuses a request beyond it (429); without a drawn size it sends no such headers (the
 * node then counts against its assumed limit). A poll the node skips sends no request.
 * `violation` runs one schedule and says what broke.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { poll } from '../../../nodes/PlatformPostsTrigger/poll';
import { modeSpec, type PollMode } from '../../../nodes/PlatformPostsTrigger/modes';
import { CREDENTIAL_TYPES } from '../../../nodes/shared/transport';
import { pollContext, postIdAt } from '../helpers';

/** Every mode is explored. */
export type ExploredMode = PollMode;

export type Change =
	| { kind: 'add'; count: number }
	| { kind: 'remove'; pick: number }
	/** Removed and added again: back on top where the service lists in the order added. */
	| { kind: 'readd'; pick: number }
	/** A Space moves on: scheduled to live, live to ended (New Spaces of a User). */
	| { kind: 'advance'; pick: number }
	| { kind: 'switchAccount' }
	/** n8n restarted: the static data comes back from what it saved. */
	| { kind: 'restart' };

export interface PollStep {
	changes: Change[];
	/** Entries per page the service answers (at most max_results). */
	pageLimit: number;
	/** n8n's poll time runs out after this many pages of one poll. */
	budgetPages?: number;
	/** The request of this poll (0-based) that fails, how and how many times in a row. */
	failure?: { at: number; status: 429 | 503; times: number };
	/** Where the service gives no order (Spaces): how it orders this poll's answers. */
	shuffle: number;
	/** Ms since the previous poll (default a minute, n8n's shortest interval). */
	wait?: number;
}

const MINUTE = 60_000;
const WINDOW = 15 * MINUTE;

export interface Schedule {
	mode: ExploredMode;
	/**
	 * The node's version: from 1.1 a Space is emitted in each state it is seen in (scheduled, live,
	 * ended), once each, and direct messages are asked for by event type.
	 */
	typeVersion?: number;
	/** Requests per 15-minute window the service takes and states in its headers (none: no headers). */
	rateLimit?: number;
	/** n8n saves the static data of a failed poll too (or drops what that poll changed). */
	savedOnFailure: boolean;
	initial: number;
	steps: PollStep[];
}

const USER = '42';
const LIST = '1146654567674912769';
const QUOTED = '1346889436626259968';
const ACCOUNTS = ['7', '8'];
const CONVERSATION = `${ACCOUNTS[0]}-${USER}`;

type Order = 'added' | 'id' | 'none';

interface Explored {
	parameters: IDataObject;
	credentialType: string;
	/** The mode watches the authenticated user's own data: each account has its own. */
	perAccount: boolean;
	order: Order;
	path: (me: string) => string;
	entry: (id: string, n: number) => IDataObject;
	eventId: (id: string, me: string) => string;
}

const post = (id: string) => ({ id, text: `post ${id}`, author_id: USER });
const user = (id: string) => ({ id, name: `User ${id}`, username: `u${id.slice(-6)}` });
const dm = (id: string) => ({
	id,
	event_type: 'MessageCreate',
	text: `dm ${id}`,
	sender_id: USER,
	dm_conversation_id: CONVERSATION,
});
const byId = { __rl: true, mode: 'id', value: USER };

export const EXPLORED: Record<ExploredMode, Explored> = {
	userPosts: {
		parameters: { user: byId },
		credentialType: CREDENTIAL_TYPES.appOnly,
		perAccount: false,
		order: 'id',
		path: () => `/2/users/${USER}/tweets`,
		entry: post,
		eventId: (id) => id,
	},
	mentions: {
		parameters: {},
		credentialType: CREDENTIAL_TYPES.pkce,
		perAccount: true,
		order: 'id',
		path: (me) => `/2/users/${me}/mentions`,
		entry: post,
		eventId: (id) => id,
	},
	search: {
		parameters: { query: 'autumn sale' },
		credentialType: CREDENTIAL_TYPES.appOnly,
		perAccount: false,
		order: 'id',
		path: () => '/2/tweets/search/recent',
		entry: post,
		eventId: (id) => id,
	},
	followers: {
		parameters: { user: byId },
		credentialType: CREDENTIAL_TYPES.appOnly,
		perAccount: false,
		order: 'added',
		path: () => `/2/users/${USER}/followers`,
		entry: user,
		eventId: (id) => `follow:${id}:${USER}`,
	},
	likedPosts: {
		parameters: { user: byId },
		credentialType: CREDENTIAL_TYPES.hmac,
		perAccount: false,
		order: 'added',
		path: () => `/2/users/${USER}/liked_tweets`,
		entry: post,
		eventId: (id) => `favorite:${USER}:${id}`,
	},
	bookmarks: {
		parameters: {},
		credentialType: CREDENTIAL_TYPES.pkce,
		perAccount: true,
		order: 'added',
		path: (me) => `/2/users/${me}/bookmarks`,
		entry: post,
		eventId: (id, me) => `bookmark:${me}:${id}`,
	},
	directMessages: {
		parameters: {},
		credentialType: CREDENTIAL_TYPES.pkce,
		perAccount: true,
		order: 'id',
		path: () => '/2/dm_events',
		entry: dm,
		eventId: (id) => id,
	},
	listPosts: {
		parameters: { list: { __rl: true, mode: 'id', value: LIST } },
		credentialType: CREDENTIAL_TYPES.appOnly,
		perAccount: false,
		order: 'id',
		path: () => `/2/lists/${LIST}/tweets`,
		entry: post,
		eventId: (id) => id,
	},
	listMembers: {
		parameters: { list: { __rl: true, mode: 'id', value: LIST } },
		credentialType: CREDENTIAL_TYPES.hmac,
		perAccount: false,
		order: 'added',
		path: () => `/2/lists/${LIST}/members`,
		entry: user,
		eventId: (id) => `list_member:${LIST}:${id}`,
	},
	listFollowers: {
		parameters: { list: { __rl: true, mode: 'id', value: LIST } },
		credentialType: CREDENTIAL_TYPES.pkce,
		perAccount: false,
		order: 'added',
		path: () => `/2/lists/${LIST}/followers`,
		entry: user,
		eventId: (id) => `list_follow:${id}:${LIST}`,
	},
	conversationMessages: {
		parameters: { conversationId: CONVERSATION },
		credentialType: CREDENTIAL_TYPES.pkce,
		perAccount: false,
		order: 'id',
		path: () => `/2/dm_conversations/${CONVERSATION}/dm_events`,
		entry: dm,
		eventId: (id) => id,
	},
	quotePosts: {
		parameters: { post: { __rl: true, mode: 'id', value: QUOTED } },
		credentialType: CREDENTIAL_TYPES.appOnly,
		perAccount: false,
		order: 'id',
		path: () => `/2/tweets/${QUOTED}/quote_tweets`,
		entry: post,
		eventId: (id) => id,
	},
	userSpaces: {
		parameters: { creator: byId },
		credentialType: CREDENTIAL_TYPES.appOnly,
		perAccount: false,
		order: 'none',
		path: () => '/2/spaces/by/creator_ids',
		entry: (id, n) => ({
			id,
			state: 'live',
			creator_id: USER,
			created_at: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
		}),
		eventId: (id) => `space:${id}`,
	},
};

/** Whether the service lets an item come back (a post, a message or a mention cannot). */
export const readdable = (mode: ExploredMode) => EXPLORED[mode].order !== 'id';

interface Item {
	id: string;
	n: number;
	/** A Space's state. */
	state?: 'scheduled' | 'live' | 'ended';
}

const NEXT_STATE = { scheduled: 'live', live: 'ended', ended: 'ended' } as const;

/** Runs one schedule against the real poll(); returns what broke, or undefined. */
export async function violation(s: Schedule): Promise<string | undefined> {
	const spec = modeSpec(s.mode)!;
	const explored = EXPLORED[s.mode];
	// The simulated time: post ids hold it (recent search reaches 7 days back from it).
	let clock = Date.now();
	const firstId = BigInt(postIdAt(clock - MINUTE));
	/** The service's rate-limit window of the watched endpoint. */
	let window: { start: number; used: number } | undefined;
	let n = 0;
	const lists = new Map<string, Item[]>(ACCOUNTS.map((a) => [a, []]));
	let account = 0;
	const owner = () => (explored.perAccount ? ACCOUNTS[account] : ACCOUNTS[0]);
	const list = () => lists.get(owner())!;
	const newId = () => {
		n++;
		return s.mode === 'userSpaces'
			? `1S${String(n).padStart(11, '0')}`
			: String(firstId + BigInt(n) * BigInt(1000));
	};
	const add = (count: number) => {
		for (let i = 0; i < count; i++) {
			const id = newId();
			// Spaces: one in three is live when created, the others scheduled.
			list().push(
				s.mode === 'userSpaces' ? { id, n, state: n % 3 ? 'scheduled' : 'live' } : { id, n },
			);
		}
	};
	const byState = s.mode === 'userSpaces' && (s.typeVersion ?? 1) >= 1.1;
	/** The event an item is emitted as: from version 1.1 a Space's depends on its state. */
	const eventIdOf = (item: Item, me: string) =>
		byState ? `space:${item.id}:${item.state}` : explored.eventId(item.id, me);
	add(s.initial);

	/** Newest first, as the service lists them. */
	const served = (shuffle: number): Item[] => {
		const items = [...list()];
		if (explored.order === 'id') return items.sort((a, b) => b.n - a.n);
		items.reverse();
		if (explored.order === 'none' && items.length) {
			const k = shuffle % items.length;
			const rotated = [...items.slice(k), ...items.slice(0, k)];
			return shuffle % 2 ? rotated.reverse() : rotated;
		}
		return items;
	};

	let saved = '{}';
	let staticData: IDataObject = {};
	const emitted = new Set<string>();
	/** Items emitted or there when the position was recorded (a Space emitted again moved on). */
	const known = new Set<string>();
	/** The items of the watched data when the current position was recorded (undefined: not yet). */
	let baseline: Set<string> | undefined;
	/** The account whose data the position belongs to. */
	let positionAccount = 0;
	const log: string[] = [];
	const fail = (why: string) => `${why}\n${log.join('\n')}`;

	const runPoll = async (step: PollStep, index: number): Promise<string | undefined> => {
		let request = 0;
		/** The service's window refused a request of this poll. */
		let refused = false;
		let failuresLeft = step.failure?.times ?? 0;
		const keyBefore = staticData.key;
		clock += step.wait ?? MINUTE;
		const fakeNow = Date.now;
		Date.now = () => clock;
		const helpers = {
			async httpRequestWithAuthentication(
				_type: string,
				options: { url: string; qs?: IDataObject },
			): Promise<unknown> {
				const at = request++;
				clock += 1000;
				if (step.failure && at >= step.failure.at && failuresLeft > 0) {
					failuresLeft--;
					return step.failure.status === 429
						? {
								statusCode: 429,
								headers: { 'x-rate-limit-reset': String(Math.floor(clock / 1000) + 900) },
								body: { title: 'Too Many Requests', type: 'about:blank', status: 429 },
							}
						: {
								statusCode: 503,
								headers: {},
								body: { title: 'Service Unavailable', type: 'about:blank', status: 503 },
							};
				}
				const url = new URL(options.url);
				const q = (options.qs ?? {}) as Record<string, string>;
				if (url.pathname === '/2/users/me')
					return { statusCode: 200, headers: {}, body: { data: { id: ACCOUNTS[account] } } };
				if (url.pathname !== explored.path(ACCOUNTS[account]))
					throw new Error(`unexpected request ${url.pathname}`);
				const headers: Record<string, string> = {};
				if (s.rateLimit !== undefined) {
					if (!window || clock >= window.start + WINDOW) window = { start: clock, used: 0 };
					const reset = String(Math.ceil((window.start + WINDOW) / 1000));
					if (window.used >= s.rateLimit) {
						refused = true;
						return {
							statusCode: 429,
							headers: { 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': reset },
							body: { title: 'Too Many Requests', type: 'about:blank', status: 429 },
						};
					}
					window.used++;
					headers['x-rate-limit-limit'] = String(s.rateLimit);
					headers['x-rate-limit-remaining'] = String(s.rateLimit - window.used);
					headers['x-rate-limit-reset'] = reset;
				}
				if (!spec.sinceId && (q.since_id !== undefined || q.until_id !== undefined))
					throw new Error('since_id or until_id sent to an endpoint without them');
				let items = served(step.shuffle);
				if (q.since_id !== undefined)
					items = items.filter((i) => BigInt(i.id) > BigInt(q.since_id));
				if (q.until_id !== undefined)
					items = items.filter((i) => BigInt(i.id) < BigInt(q.until_id));
				let page = items;
				const meta: IDataObject = { result_count: 0 };
				if (!spec.unpaged) {
					const max = Number(q.max_results);
					if (!(max >= spec.page.min && max <= spec.page.max))
						throw new Error(`max_results ${q.max_results} out of bounds`);
					const start = Number(q[spec.tokenParam] ?? 0);
					const size = Math.min(max, step.pageLimit);
					page = items.slice(start, start + size);
					if (start + size < items.length) meta.next_token = String(start + size);
				}
				meta.result_count = page.length;
				const body: IDataObject = { meta };
				if (page.length)
					body.data = page.map((i) => ({
						...explored.entry(i.id, i.n),
						...(i.state ? { state: i.state } : {}),
					}));
				return { statusCode: 200, headers, body };
			},
		};
		const node = {
			id: 'node-1',
			name: 'Poll',
			type: 'n8n-nodes-platform.platformPostsTrigger',
			typeVersion: s.typeVersion ?? 1,
			position: [0, 0],
			parameters: {},
			credentials: {
				[explored.credentialType]: { id: `credential-${account}`, name: `Account ${account}` },
			},
		};
		const built = pollContext(
			{
				event: s.mode,
				authentication: explored.credentialType,
				// Above anything a schedule adds: the cap's documented skipping is not what is explored.
				maxItems: 1000,
				...explored.parameters,
			},
			staticData,
			'trigger',
			{
				helpers,
				getNode: () => node,
				getPollBudgetMs: () =>
					step.budgetPages === undefined ? undefined : step.budgetPages * 2000 - 1,
			},
		);
		let result: INodeExecutionData[][] | null;
		try {
			result = await poll.call(built.context);
		} catch (error) {
			Date.now = fakeNow;
			const failures = step.failure?.status === 503 ? step.failure.times : 0;
			// The transport tries a 503 four times in all.
			if (failures < 4) return fail(`poll ${index} failed: ${String(error)}`);
			log.push(`poll ${index}: failed (503)`);
			if (!s.savedOnFailure) staticData = JSON.parse(saved) as IDataObject;
			saved = JSON.stringify(staticData);
			return undefined;
		}
		Date.now = fakeNow;
		saved = JSON.stringify(staticData);
		staticData = JSON.parse(saved) as IDataObject;
		log.push(`state ${JSON.stringify({ ...staticData, known: undefined })}`);
		const ids = (result?.[0] ?? []).map((i) => String(i.json.event_id));
		const now = served(step.shuffle);
		const me = ACCOUNTS[account];
		const raw = new Map(now.map((i) => [eventIdOf(i, me), i]));
		log.push(
			`poll ${index}: [${now.map((i) => i.n).join(',')}] emitted [${ids.map((e) => raw.get(e)?.n ?? e).join(',')}]`,
		);
		const limited = (step.failure?.status === 429 && request > step.failure.at) || refused;
		if (limited) return undefined;
		// Skipped while the rate-limit window is spent: no request, nothing emitted, the position kept.
		if (request === 0) {
			if (ids.length)
				return fail(`poll ${index}: a poll without a request emitted ${ids.join(', ')}`);
			log.push(`poll ${index}: skipped (rate-limit window)`);
			return undefined;
		}
		// The first poll, and the first one with another account where the mode watches its own data.
		if (!baseline || (explored.perAccount && positionAccount !== account)) {
			if (ids.length) return fail(`poll ${index}: the first poll emitted ${ids.join(', ')}`);
			// A first poll the rate-limit window ended before it read a run of ids records no position
			// (n8n keeps the node's static data as it was): the next one is still the first.
			if (staticData.key === keyBefore) {
				log.push(`poll ${index}: recorded no position`);
				return undefined;
			}
			positionAccount = account;
			baseline = new Set(now.map((i) => eventIdOf(i, me)));
			for (const i of now) known.add(i.id);
			return undefined;
		}
		let previous: Item | undefined;
		for (const id of ids) {
			const item = raw.get(id);
			if (!item) return fail(`poll ${index}: emitted ${id}, which is not in the watched data`);
			if (emitted.has(id)) return fail(`poll ${index}: emitted ${id} twice`);
			if (baseline.has(id)) return fail(`poll ${index}: emitted ${id}, there before activation`);
			emitted.add(id);
			// A Space that started or ended since (version 1.1) comes after the new ones: not ordered.
			const moved = known.has(item.id);
			known.add(item.id);
			if (moved) continue;
			// Oldest first where the service orders (Spaces: in the order they were created).
			if (previous) {
				const before =
					explored.order === 'added'
						? now.indexOf(item) < now.indexOf(previous)
						: item.n > previous.n;
				if (!before)
					return fail(`poll ${index}: ${String(item.n)} emitted after ${String(previous.n)}`);
			}
			previous = item;
		}
		return undefined;
	};

	// After any window's reset (the service's, or one a 429 named), so that each settling poll reads.
	const settle: PollStep = { changes: [], pageLimit: 100, shuffle: 0, wait: WINDOW + MINUTE };
	const steps = [...s.steps, settle, settle, settle];
	for (const [index, step] of steps.entries()) {
		for (const change of step.changes) {
			const items = list();
			if (change.kind === 'add') add(change.count);
			else if (change.kind === 'restart') staticData = JSON.parse(saved) as IDataObject;
			else if (change.kind === 'switchAccount') {
				account = 1 - account;
				log.push(`switched to account ${ACCOUNTS[account]}`);
			} else if (change.kind === 'advance') {
				const item = items[change.pick % Math.max(1, items.length)];
				if (item?.state) item.state = NEXT_STATE[item.state];
			} else if (items.length) {
				const [item] = items.splice(change.pick % items.length, 1);
				if (change.kind === 'readd') items.push(item);
			}
		}
		const why = await runPoll(step, index);
		if (why) return why;
	}
	if (!baseline) return fail('the settling polls recorded no position');
	const me = ACCOUNTS[account];
	for (const item of list()) {
		const id = eventIdOf(item, me);
		if (!baseline.has(id) && !emitted.has(id))
			return fail(`${String(item.n)} (${id}) was never emitted`);
	}
	return undefined;
}
