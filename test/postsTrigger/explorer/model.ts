/**
 * The model behind the Poll Trigger's explorer: a fake service holding what each mode watches (per
 * account where the mode watches the authenticated user's own data), answering the real poll() through
 * a fake transport, and n8n's two ways of running a poll (durable and legacy). Its menu, each behaviour
 * with its source, is the Change and PollStep types below and DEVELOPING.md's table: pages of a drawn
 * size with cursor tokens, pages emptied after paging, since_id / until_id where the endpoint takes
 * them, Spaces in a drawn order, changes between polls and between pages, long lists, items in the
 * middle, recent search's indexing lag, 429 and 503 on any request, a 15-minute rate-limit window of a
 * drawn size (or no headers), n8n's poll time, restarts, saves that fail, several ticks of the node
 * started at once on one position (durable), credentials switched or reconnected to another account. A simulated clock runs across polls (a minute between polls, a
 * second per request; the settling polls come after a window's reset). A poll the node skips sends no
 * request. `violation` runs one schedule and says what broke.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { poll, SEARCH_LAG_MS, STARTS_FIELD } from '../../../nodes/triggers/poll/poll';
import { modeSpec, type PollMode } from '../../../nodes/triggers/poll/modes';
import { CREDENTIAL_TYPES } from '../../../nodes/shared/transport';
import { defaultCredentials } from '../../helpers/context';
import { pollContext, postIdAt } from '../helpers';

/** Every mode is explored. */
export type ExploredMode = PollMode;

export type Change =
	/**
	 * New items on top. `lag` (recent search only): ms after its creation the post is indexed (shown);
	 * seconds to minutes, as platform.md's changelog and practice have it ("assumed": no figure is
	 * documented).
	 */
	| { kind: 'add'; count: number; lag?: number }
	| { kind: 'remove'; pick: number }
	/** Many at once (a list longer than the trigger remembers: KNOWN_IDS). Source: contract (lists of any length). */
	| { kind: 'bulk'; count: number }
	/** The newest `count` leave at once (follow-and-unfollow bots leaving). Assumed. */
	| { kind: 'dropNewest'; count: number }
	/** Of the newest 200, all but every `keep`-th removed (a user clearing bookmarks). Assumed. */
	| { kind: 'thin'; keep: number }
	/**
	 * A new item in the middle of the list, not on top (a member added to a list at its place, a
	 * protected account made public, a suspended account restored). Issue 51; assumed for order.
	 */
	| { kind: 'middle'; pick: number }
	/** The same credential (same id in n8n) reconnected to the other account. Issue 51. */
	| { kind: 'reconnect' }
	/** Removed and added again: back on top where the service lists in the order added. */
	| { kind: 'readd'; pick: number }
	/**
	 * The `count` items listed from place `from` on (0: the newest) removed and added again, the oldest
	 * of them first: back on top in the order they were listed (`reverse`: the newest of them first,
	 * back on top in the reverse order) (someone unliking and liking again the
	 * posts they liked last, unfollowing and following again), above what came in meanwhile. Contract
	 * (lists by when added; one added again is back on top, as the sandbox answers); that people do it
	 * between two polls: assumed.
	 */
	| { kind: 'readdTop'; from: number; count: number; reverse?: boolean }
	/** A Space moves on: scheduled to live, live to ended (New Spaces of a User). */
	| { kind: 'advance'; pick: number }
	| { kind: 'switchAccount' }
	/**
	 * n8n restarted: the static data comes back from what it saved. The same change stands for a
	 * leader change with several main instances on the legacy path: at step-down n8n removes the
	 * leader's in-memory polls without saving their static data (active-workflow-manager.js
	 * removeAllNonWebhookTriggerWorkflows, or with the publication service
	 * workflows/publication/published-workflow-trigger-deactivator.js deactivateAllNonWebhookTriggers,
	 * both OnLeaderStepdown), and the new leader builds the workflow from the database
	 * (addActiveWorkflows('leadershipChange'), or the publication reconciler's republish on
	 * takeover). The poll module's memory is not cleared here, as in a process that led before. Two
	 * leaders polling at once on the legacy path (a leader that lost Redis polls on) are not
	 * generated: nothing there keeps two in-memory polls of one node from emitting the same item, and
	 * docs/production.md says so; on the durable path they are the `siblings` ticks.
	 */
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
	/**
	 * The page of this poll's read (1-based after the first) whose items the service deleted or withheld
	 * after paging: answered with result_count 0 and a next_token (contract: meta.next_token with
	 * result_count 0 is allowed; platform.md: deleted and withheld posts are left out of pages).
	 */
	emptied?: number;
	/** Changes that happen between the first and second page of this poll's read. */
	between?: Change[];
	/** n8n's save of the static data after this poll fails (logged and swallowed by n8n). */
	saveFails?: boolean;
	/**
	 * Durable, after the poll at publishing: this many more ticks of the node whose tasks started with
	 * this poll's, on the same position, run after it. n8n makes each Poll Times entry its own
	 * scheduler job and, after a restart, fires every occurrence missed within
	 * N8N_SCHEDULER_MISFIRE_GRACE (60 s) at once; each tick reads the poller_state row when its task
	 * starts (scheduling/poll-trigger-node/poll-trigger-task-handler.js: `state?.cursor` to
	 * createPollExecutionContext; workflows/triggers/trigger-execution-context.factory.js, __runPoll:
	 * resolveCursor with that prefetched cursor), and a poll with items commits its execution, fenced
	 * by its own lease only. Measured in real n8n 2.40.7 (docs/production.md): one post ran 5 times.
	 */
	siblings?: number;
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
	/**
	 * How n8n 2.40.7 runs the poll. 'durable' (scheduling/poll-trigger-node/poll-trigger-task-handler.js):
	 * each poll builds the workflow from the database (static data as last committed); the position is
	 * committed with the execution or, for an empty poll, by commitStagedCursor. 'legacy'
	 * (n8n-core execution-engine/poll-trigger-executor.js, trigger-execution-context.factory.js __emit):
	 * the workflow stays in memory between polls, and the static data is saved only with an emit,
	 * `void saveStaticData(...)`: not awaited, a failure logged and swallowed; a restart reloads what
	 * was last saved. Default 'durable'.
	 */
	host?: 'durable' | 'legacy';
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
	/** Recent search: when the post is indexed (the service shows it from then on), and after how long. */
	indexedAt?: number;
	lag?: number;
	/** Appeared in the middle of the list: not required to be emitted (the documented limit). */
	middle?: boolean;
	/** A Space's state. */
	state?: 'scheduled' | 'live' | 'ended';
}

const NEXT_STATE = { scheduled: 'live', live: 'ended', ended: 'ended' } as const;

/** Runs one schedule against the real poll(); returns what broke, or undefined. */
/** Schedules run so far in this process: each gets a workflow id of its own. */
let schedules = 0;

export async function violation(s: Schedule): Promise<string | undefined> {
	const spec = modeSpec(s.mode)!;
	const explored = EXPLORED[s.mode];
	// The simulated time: post ids hold it (recent search reaches 7 days back from it).
	let clock = Date.now();
	/** The service's rate-limit window of the watched endpoint. */
	let window: { start: number; used: number } | undefined;
	let n = 0;
	/** Where each item stands in the order the service lists by when added (higher: newer). */
	const rank = new Map<Item, number>();
	let ranks = 0;
	const lists = new Map<string, Item[]>(ACCOUNTS.map((a) => [a, []]));
	let account = 0;
	const owner = () => (explored.perAccount ? ACCOUNTS[account] : ACCOUNTS[0]);
	const list = () => lists.get(owner())!;
	const newId = () => {
		n++;
		// A post id holds its creation time (the sandbox's sb.idTime; platform.md, ids).
		return s.mode === 'userSpaces'
			? `1S${String(n).padStart(11, '0')}`
			: String(BigInt(postIdAt(clock)) + BigInt(n));
	};
	/** Items added since the last poll that read without a refusal (new ones, not those added again). */
	const added = new Set<Item>();
	const add = (count: number, lag?: number) => {
		for (let i = 0; i < count; i++) {
			const id = newId();
			// Spaces: one in three is live when created, the others scheduled.
			const fresh: Item =
				s.mode === 'userSpaces'
					? { id, n, state: n % 3 ? 'scheduled' : 'live' }
					: { id, n, ...(lag && s.mode === 'search' ? { indexedAt: clock + lag, lag } : {}) };
			rank.set(fresh, ++ranks);
			list().push(fresh);
			added.add(fresh);
		}
	};
	const byState = s.mode === 'userSpaces' && (s.typeVersion ?? 1) >= 1.1;
	/** The event an item is emitted as: from version 1.1 a Space's depends on its state. */
	const eventIdOf = (item: Item, me: string) =>
		byState ? `space:${item.id}:${item.state}` : explored.eventId(item.id, me);
	add(s.initial);

	const cursorOf = (item: Item) =>
		explored.order === 'id' ? `id:${item.id}` : `rank:${String(rank.get(item) ?? 0)}`;
	/** The item comes before (newer than) the cursor: already paged past. */
	const before = (item: Item, token: string) => {
		const [kind, value] = token.split(':');
		return kind === 'id'
			? BigInt(item.id) >= BigInt(value)
			: (rank.get(item) ?? 0) >= Number(value);
	};
	/** Newest first, as the service lists them (recent search: what it has indexed). */
	const served = (shuffle: number): Item[] => {
		const items = list().filter((i) => i.indexedAt === undefined || i.indexedAt <= clock);
		if (explored.order === 'id')
			return items.sort((a, b) =>
				BigInt(a.id) < BigInt(b.id) ? 1 : BigInt(a.id) > BigInt(b.id) ? -1 : 0,
			);
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
	/** The workflow's global static data: in the database, and as the poll sees it. */
	let savedGlobal = '{}';
	let globalData: IDataObject = {};
	const legacy = s.host === 'legacy';
	/** The credential's id in n8n (a reconnect keeps it, a switch changes it). */
	let credential = 0;
	/**
	 * How many times the credentials were connected: a reconnect keeps the credential's id, and n8n
	 * stores the new account's tokens in it (n8n 2.40.7's OAuth callbacks save the token data they get:
	 * `controllers/oauth/oauth2-credential.controller.js`, `oauth1-credential.controller.js`).
	 */
	let connection = 0;
	/** One workflow per schedule, the same across its polls (n8n's workflow id). */
	const workflowId = `explored-${++schedules}`;
	/** Events emitted since the last save that held them (legacy): a restart may run them again. */
	let unsaved = new Set<string>();
	/** Events a restart (legacy, a lost save) may run twice: n8n's documented loss of a save. */
	const excused = new Set<string>();
	/** Events not required to be emitted (the documented limits). */
	const optional = new Set<string>();
	/**
	 * Legacy: a restart brought back a position other than the one in memory (an earlier account's, or
	 * none): the next successful poll either records a position or reads on from the one saved, and
	 * what it emits then is excused from the first poll's check.
	 */
	let reanchor = false;
	const emitted = new Set<string>();
	/** Items emitted or there when the position was recorded (a Space emitted again moved on). */
	const known = new Set<string>();
	/** The items of the watched data when the current position was recorded (undefined: not yet). */
	let baseline: Set<string> | undefined;
	/** The account whose data the position belongs to. */
	let positionAccount = 0;
	const log: string[] = [];
	const fail = (why: string) => `${why}\n${log.join('\n')}`;

	/** Every item ever added, per owner: what was emitted may be gone by the end of the poll. */
	const ever: Item[] = [];
	/**
	 * The documented limit of the modes without since_id: when all but fewer than 20 (two runs) of the
	 * ids the trigger remembers (read off its static data) are gone, it cannot find its place, and
	 * older items may be emitted. Past that bound, what is in the list is excused (once more, not
	 * required).
	 */
	const bound = () => {
		if (spec.sinceId || spec.unpaged) return;
		// Before a poll has committed a position, the node reads on from the one recorded at publishing
		// (kept in the workflow's global static data).
		const starts = Object.values((globalData[STARTS_FIELD] as IDataObject | undefined) ?? {});
		const position =
			staticData.key === undefined && starts.length
				? ((starts[0] as IDataObject).position as IDataObject)
				: staticData;
		const memory = [
			...((position.known as string[] | undefined) ?? []),
			...((position.below as string[] | undefined) ?? []),
		];
		if (memory.length < 10) return;
		const present = new Set(list().map((i) => i.id));
		// Twice a run: an item that appears in the middle breaks a run of the rest.
		if (memory.filter((k) => present.has(k)).length >= 20) return;
		log.push('fewer than 20 remembered ids left: older items excused');
		for (const item of list()) {
			const id = eventIdOf(item, ACCOUNTS[account]);
			excused.add(id);
			optional.add(id);
		}
	};
	/** The next successful poll is a first one (no position for this account yet). */
	const firstPending = () => !baseline || (explored.perAccount && positionAccount !== account);
	/** `paging`: between the pages of a read; during a first poll, see 'readd'. */
	const apply = (change: Change, paging = false) => {
		const items = list();
		if (change.kind === 'add') {
			const before = items.length;
			add(change.count, change.lag);
			// Added while a first poll reads: that poll may take them as there before it.
			if (paging && firstPending())
				for (const item of items.slice(before))
					for (const who of ACCOUNTS) optional.add(eventIdOf(item, who));
		} else if (change.kind === 'bulk') add(change.count);
		else if (change.kind === 'restart') {
			const keyBefore = staticData.key;
			const memory = JSON.stringify(staticData);
			staticData = JSON.parse(saved) as IDataObject;
			globalData = JSON.parse(savedGlobal) as IDataObject;
			if (legacy && memory !== saved && staticData.key === keyBefore) {
				// The legacy path lost what polls since the last save recorded (a position recorded anew
				// for another account in between, say): what is there now may run once more.
				log.push('restart: an older position came back');
				for (const owned of lists.values())
					for (const item of owned)
						for (const who of ACCOUNTS) {
							excused.add(eventIdOf(item, who));
							optional.add(eventIdOf(item, who));
						}
			}
			// What was emitted since the last save that held it may run again (legacy path).
			for (const e of unsaved) excused.add(e);
			unsaved = new Set();
			// The legacy path saves only with an emit: a first position never saved is gone, and the
			// next poll records it anew (a new start; what arrived meanwhile counts as there before it).
			if (legacy && staticData.key !== keyBefore && baseline) {
				log.push('restart: the position saved is not the one in memory; the next poll starts anew');
				// What is there now may run once more or not at all: n8n lost the position.
				for (const owned of lists.values())
					for (const item of owned)
						for (const who of ACCOUNTS) {
							excused.add(eventIdOf(item, who));
							optional.add(eventIdOf(item, who));
						}
				baseline = undefined;
				reanchor = true;
			}
		} else if (change.kind === 'switchAccount') {
			account = 1 - account;
			credential = 1 - credential;
			log.push(`switched to account ${ACCOUNTS[account]}`);
		} else if (change.kind === 'reconnect') {
			account = 1 - account;
			connection++;
			log.push(`credential reconnected to account ${ACCOUNTS[account]}`);
		} else if (change.kind === 'advance') {
			const item = items[change.pick % Math.max(1, items.length)];
			if (item?.state) item.state = NEXT_STATE[item.state];
		} else if (change.kind === 'dropNewest' || change.kind === 'thin') {
			const top = served(0).slice(0, change.kind === 'thin' ? 200 : change.count);
			const gone = new Set(
				top.filter((_, i) => change.kind !== 'thin' || i % change.keep !== 0).map((i) => i.id),
			);
			const kept = items.filter((i) => !gone.has(i.id));
			items.splice(0, items.length, ...kept);
		} else if (change.kind === 'readdTop') {
			if (explored.order !== 'added') return;
			const listed = served(0).slice(change.from, change.from + change.count);
			const top = change.reverse ? listed : listed.reverse();
			const memory = new Set([
				...((staticData.known as string[] | undefined) ?? []),
				...((staticData.below as string[] | undefined) ?? []),
			]);
			for (const item of top) {
				items.splice(items.indexOf(item), 1);
				items.push(item);
				rank.set(item, ++ranks);
				// As 'readd': one the trigger no longer remembers may be emitted once more.
				if (!memory.has(item.id) || (paging && firstPending())) {
					const id = eventIdOf(item, ACCOUNTS[account]);
					excused.add(id);
					optional.add(id);
				}
			}
		} else if (change.kind === 'middle') {
			if (s.mode === 'userSpaces' || items.length < 2) return;
			const at = 1 + (change.pick % (items.length - 1));
			n++;
			// By id: an older post made visible again (hours to days old); by the order added: at its place.
			const id =
				explored.order === 'id'
					? String(BigInt(postIdAt(clock - (1 + (change.pick % 72)) * 3_600_000)) + BigInt(n))
					: newId();
			const inserted: Item = { id, n, middle: true };
			rank.set(inserted, ((rank.get(items[at - 1]) ?? 0) + (rank.get(items[at]) ?? 0)) / 2);
			items.splice(at, 0, inserted);
		} else if (items.length) {
			const [item] = items.splice(change.pick % items.length, 1);
			if (change.kind === 'readd') {
				items.push(item);
				rank.set(item, ++ranks);
				// Back on top, and not among the ids the trigger remembers (the newest KNOWN_IDS it read,
				// BELOW_IDS below them; fewer where its reads were cut): it cannot tell this from a new
				// one, and may emit it (once more). The documented limit, read off its static data.
				const memory = new Set([
					...((staticData.known as string[] | undefined) ?? []),
					...((staticData.below as string[] | undefined) ?? []),
				]);
				if (!memory.has(item.id) || (paging && firstPending())) {
					const id = eventIdOf(item, ACCOUNTS[account]);
					excused.add(id);
					optional.add(id);
				}
			}
		}
		for (const item of items) if (!ever.includes(item)) ever.push(item);
		bound();
	};

	/** `prefetched`: the position a sibling tick's task read when it started (PollStep.siblings). */
	const runPoll = async (
		step: PollStep,
		index: number,
		prefetched?: string,
	): Promise<string | undefined> => {
		let request = 0;
		/** Requests of this poll to the watched endpoint: the page of the read. */
		let pageOfPoll = 0;
		/** The service's window refused a request of this poll. */
		let refused = false;
		let failuresLeft = step.failure?.times ?? 0;
		// The durable scheduler builds the workflow from the database for each poll.
		const seed = prefetched ?? saved;
		if (!legacy) {
			staticData = JSON.parse(seed) as IDataObject;
			globalData = JSON.parse(savedGlobal) as IDataObject;
		}
		/**
		 * Durable: the first poll is the one n8n runs when the workflow is published
		 * (active-workflow-triggers.js activatePollTrigger: executePollTrigger(true)). It commits its
		 * position only with items (poll-trigger-executor.js: no commitStagedCursor for a test poll);
		 * the publication then saves the workflow's static data, the global part included
		 * (workflow-trigger-activator.js activateInternal).
		 */
		const publishing = !legacy && index === 0;
		const keyBefore = staticData.key;
		clock += step.wait ?? MINUTE;
		// What is there when the poll starts: a first poll's position holds these (items added while it
		// reads are new).
		const atStart = served(step.shuffle);
		// The documented limit of version 1.2 (docs/nodes/platform-poll-trigger.md, "Where it ends"): when
		// the newest items of the list are the newest ones the trigger remembers (read off its static
		// data), in the same order, the poll reads no further, and an item added since the last poll
		// below them (those came back on top after it) waits for a poll whose top changed. How many: 2,
		// or the endpoint's smallest page where larger (5 liked posts, 10 quote posts). Not required.
		if ((s.typeVersion ?? 1) >= 1.2 && !spec.sinceId && !spec.unpaged) {
			const depth = Math.max(2, spec.page.min);
			const window = (staticData.known as string[] | undefined) ?? [];
			const top = atStart.slice(0, depth).map((i) => i.id);
			if (top.length === depth && top.every((id, i) => id === window[i])) {
				const hidden = [...added].filter((i) => atStart.includes(i));
				if (hidden.length)
					log.push(
						`poll ${index}: the newest ${depth} are the newest remembered: ${hidden.map((i) => i.n).join(',')} not required`,
					);
				for (const item of hidden) optional.add(eventIdOf(item, ACCOUNTS[account]));
			}
		}
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
				const page0 = pageOfPoll++;
				if (page0 === 1 && step.between) for (const c of step.between) apply(c, true);
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
					// The token is a cursor past the page's last item in the list's own order (by id, or by
					// when added): items removed or added meanwhile do not shift the pages. Assumed: the
					// contract says only that the token is opaque.
					const token = q[spec.tokenParam];
					let start = 0;
					if (token !== undefined) {
						const last = items.findIndex((i) => !before(i, token));
						start = last < 0 ? items.length : last;
					}
					const size = Math.min(max, step.pageLimit);
					page = items.slice(start, start + size);
					if (start + size < items.length) meta.next_token = cursorOf(page[page.length - 1]);
					if (token !== undefined && step.emptied === page0 && page.length) {
						// Deleted or withheld after paging: gone for good, the page answered empty.
						const gone = new Set(page.map((i) => i.id));
						const kept = list().filter((i) => !gone.has(i.id));
						list().splice(0, list().length, ...kept);
						log.push(`poll ${index}: page ${page0} emptied (${page.map((i) => i.n).join(',')})`);
						bound();
						page = [];
					}
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
				[explored.credentialType]: {
					id: `credential-${credential}`,
					name: `Account ${credential}`,
				},
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
				getWorkflow: () => ({ id: workflowId, name: 'Explored', active: true }),
				getCredentials: async (type: string) => ({
					...defaultCredentials()[type],
					// Stands for the tokens the connection stored: another connection, other tokens.
					connectedAs: `${credential}:${connection}`,
				}),
				// The poll at publishing has PollContext's 5 minutes (trigger-execution-context.factory.js,
				// getExecutePollFunctions: a tick's budget only with a lease).
				getPollBudgetMs: () =>
					step.budgetPages !== undefined
						? step.budgetPages * 2000 - 1
						: publishing
							? 300_000
							: undefined,
				getWorkflowStaticData: (type: string) => (type === 'global' ? globalData : staticData),
			},
		);
		let result: INodeExecutionData[][] | null;
		try {
			result = await poll.call(built.context);
		} catch (error) {
			Date.now = fakeNow;
			const failures = step.failure?.status === 503 ? step.failure.times : 0;
			// From version 1.2 a pause of 5 minutes or more is reported as a failed execution whose
			// failure names n8n's `rate-limited` cause: a failed poll like a 503's, nothing emitted.
			const paused =
				(error as { failure?: { cause?: string } }).failure?.cause === 'rate-limited' &&
				(s.typeVersion ?? 1) >= 1.2;
			// The transport tries a 503 four times in all, fewer where a retry would end after the poll's
			// deadline (n8n's poll budget: PlatformRequest.deadline in nodes/shared/transport.ts).
			if (failures < 4 && !paused && step.budgetPages === undefined)
				return fail(`poll ${index} failed: ${String(error)}`);
			log.push(`poll ${index}: failed (${paused ? 'paused, rate limit' : '503'})`);
			// Legacy: nothing is saved, the workflow in memory keeps what the poll left.
			if (legacy) return undefined;
			if (!s.savedOnFailure) staticData = JSON.parse(saved) as IDataObject;
			saved = JSON.stringify(staticData);
			return undefined;
		}
		Date.now = fakeNow;
		const snapshot = JSON.stringify(staticData);
		/** The key this poll left (the poll at publishing records one that n8n does not commit). */
		const pollKey = (JSON.parse(snapshot) as IDataObject).key;
		const emits = !!result?.[0]?.length;
		if (legacy) {
			// Saved with an emit only, and that save may fail (logged, swallowed).
			if (emits && !step.saveFails) {
				saved = snapshot;
				savedGlobal = JSON.stringify(globalData);
				unsaved = new Set();
			}
			staticData = JSON.parse(snapshot) as IDataObject;
		} else {
			// Durable: committed with the execution; an empty poll's commit may fail (the next poll
			// repeats the window: poll-trigger-task-handler.js). The poll at publishing commits nothing
			// without items. The workflow's static data is saved with an emit (__emit: saveStaticData)
			// and at the end of publishing. A position equal to the one the poll started from commits
			// nothing (trigger-execution-context.factory.js, takeStagedCursor).
			if (emits || (!publishing && !step.saveFails && snapshot !== seed)) saved = snapshot;
			if (emits || publishing) savedGlobal = JSON.stringify(globalData);
			staticData = JSON.parse(saved) as IDataObject;
		}
		log.push(
			`state ${JSON.stringify({ ...staticData, known: (staticData.known as string[] | undefined)?.length, below: (staticData.below as string[] | undefined)?.length, rate: undefined, recent: (staticData.recent as string[] | undefined)?.length })}`,
		);
		const ids = (result?.[0] ?? []).map((i) => String(i.json.event_id));
		const now = served(step.shuffle);
		const me = ACCOUNTS[account];
		for (const item of list()) if (!ever.includes(item)) ever.push(item);
		const raw = new Map(ever.map((i) => [eventIdOf(i, me), i]));
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
		added.clear();
		// The first poll, and the first one with another account where the mode watches its own data.
		if (!baseline || (explored.perAccount && positionAccount !== account)) {
			// Recent search: a post made before this first poll but not indexed yet may start the
			// workflow later or not (made before activation, found after it): either is allowed.
			for (const item of list())
				if (item.indexedAt !== undefined && !atStart.includes(item)) {
					excused.add(eventIdOf(item, me));
					optional.add(eventIdOf(item, me));
				}
			// Reanchoring: with no position saved, the poll that records one (or reads on from one saved).
			// (A position of another account restored is not this account's: still to be recorded.)
			const othersKey =
				explored.perAccount && !String(staticData.key).includes(`:${ACCOUNTS[account]}"`);
			if (reanchor && (staticData.key === undefined || othersKey)) {
				log.push(`poll ${index}: recorded no position`);
				return undefined;
			}
			if (reanchor) {
				reanchor = false;
				for (const id of ids) {
					emitted.add(id);
					if (legacy && !(emits && !step.saveFails)) unsaved.add(id);
				}
				positionAccount = account;
				// Read on from the position restored: it, not this poll, says what is old (what was there
				// at the restart is excused already). Recorded anew: what is there now is old.
				baseline =
					staticData.key === keyBefore
						? new Set()
						: new Set(
								atStart
									.filter((i) => now.includes(i))
									.map((i) => eventIdOf(i, me))
									.filter((e) => !ids.includes(e)),
							);
				for (const i of atStart) known.add(i.id);
				return undefined;
			}
			if (ids.length) return fail(`poll ${index}: the first poll emitted ${ids.join(', ')}`);
			// A first poll the rate-limit window ended before it read a run of ids records no position
			// (n8n keeps the node's static data as it was): the next one is still the first.
			// The poll at publishing: recorded where it stands, though n8n commits nothing of it (the
			// node keeps it with the workflow for the next poll).
			if ((publishing ? pollKey : staticData.key) === keyBefore) {
				log.push(`poll ${index}: recorded no position`);
				return undefined;
			}
			positionAccount = account;
			baseline = new Set(atStart.filter((i) => now.includes(i)).map((i) => eventIdOf(i, me)));

			for (const i of atStart) known.add(i.id);
			return undefined;
		}
		let previous: Item | undefined;
		for (const id of ids) {
			const item = raw.get(id);
			if (!item) return fail(`poll ${index}: emitted ${id}, which is not in the watched data`);
			if (emitted.has(id) && !excused.has(id)) return fail(`poll ${index}: emitted ${id} twice`);
			if (legacy && !(emits && !step.saveFails)) unsaved.add(id);
			if (baseline.has(id) && !excused.has(id))
				return fail(`poll ${index}: emitted ${id}, there before activation`);
			emitted.add(id);
			// A Space that started or ended since (version 1.1) comes after the new ones: not ordered.
			const moved = known.has(item.id);
			known.add(item.id);
			if (moved) continue;
			// Oldest first where the service orders (Spaces: in the order they were created).
			// Not where the list changed between the pages of this read: its order then is not the final one.
			const settled = !step.between?.length;
			if (previous && settled && now.includes(item) && now.includes(previous) && !item.middle) {
				const before =
					explored.order === 'added'
						? now.indexOf(item) < now.indexOf(previous)
						: explored.order === 'id'
							? BigInt(item.id) > BigInt(previous.id)
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
		for (const change of step.changes) apply(change);
		const row = saved;
		const why = await runPoll(step, index);
		if (why) return why;
		for (let k = 0; !legacy && index > 0 && k < (step.siblings ?? 0); k++) {
			const sibling: PollStep = {
				changes: [],
				pageLimit: step.pageLimit,
				shuffle: step.shuffle,
				wait: 0,
			};
			const whySibling = await runPoll(sibling, index, row);
			if (whySibling) return `${whySibling} (a tick started with poll ${index} on its position)`;
		}
	}
	// A backlog longer than a window's requests read: more settling polls, while a read is left
	// unfinished (a place to resume at, a gap), up to 30.
	for (let extra = 0; extra < 30 && (staticData.resumeAfter || staticData.gap); extra++) {
		const why = await runPoll(settle, steps.length + extra);
		if (why) return why;
	}
	if (!baseline) return fail('the settling polls recorded no position');
	const me = ACCOUNTS[account];
	for (const item of list()) {
		const id = eventIdOf(item, me);
		// The documented limits: an item that appears in the middle of a list may not be emitted; a
		// post indexed later than SEARCH_LAG_MS after it was made is not read.
		if (item.middle || (item.lag ?? 0) > SEARCH_LAG_MS || optional.has(id)) continue;
		if (!baseline.has(id) && !emitted.has(id))
			return fail(`${String(item.n)} (${id}) was never emitted`);
	}
	return undefined;
}
