/**
 * The explorer of the Poll Trigger's position: fast-check draws schedules from the model's menu
 * (explorer/model.ts; with sources in DEVELOPING.md, "The Poll Trigger's position, explored") and runs
 * each against the fake service and n8n of explorer/model.ts with the real poll().
 * The invariants (docs/nodes/platform-poll-trigger.md, "What holds, and where it ends"):
 * - none twice: no item is emitted twice, and none that was there when the position was recorded;
 * - none lost: after polls that are not cut short, every item that arrived since is emitted;
 * - oldest first within a poll, where the service orders (Spaces: in the order they were created).
 * Max Items per Poll stays above what a schedule adds, and fewer than 10 items come back to the top of
 * a list in one schedule (a run of 10 remembered ids ends a read: the documented bound); the model
 * excuses the other documented limits it names.
 *
 * `EXPLORER_RUNS=100000 npx jest test/postsTrigger/explorer.test.ts -t 'holds its invariants'` is the
 * long sweep; `EXPLORER_SEED=<seed>` replays one failure (fast-check prints the seed and the shrunk
 * schedule).
 */
import fc from 'fast-check';

import { explore, explorerRuns } from '../helpers/explore';

import type { Change, ExploredMode, PollStep, Schedule } from './explorer/model';
import { EXPLORED, readdable, violation } from './explorer/model';

// The transport's backoff before it repeats a 503: no real waiting in a sweep.
jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: async () => await Promise.resolve(),
}));

const RUNS = explorerRuns(1_500);

const MODES = Object.keys(EXPLORED) as ExploredMode[];

const change = (mode: ExploredMode): fc.Arbitrary<Change> =>
	fc.oneof(
		{
			weight: 5,
			arbitrary: fc.record(
				{
					kind: fc.constant('add' as const),
					count: fc.integer({ min: 1, max: 4 }),
					// Recent search's indexing lag: at once, seconds, minutes, past the overlap.
					lag: fc.constantFrom(0, 5_000, 40_000, 90_000, 240_000, 600_000),
				},
				{ requiredKeys: mode === 'search' ? ['kind', 'count', 'lag'] : ['kind', 'count'] },
			),
		},
		{
			// Spaces by creator answers a user's live and scheduled Spaces: a handful (assumed), never
			// a list longer than the trigger remembers.
			weight: mode === 'userSpaces' ? 0 : 1,
			arbitrary: fc.record({
				kind: fc.constant('bulk' as const),
				count: fc.integer({ min: 20, max: 80 }),
			}),
		},
		{
			weight: 1,
			arbitrary: fc.record({
				kind: fc.constant('dropNewest' as const),
				count: fc.integer({ min: 5, max: 80 }),
			}),
		},
		{
			// Every 2nd to every 40th of the newest 200 kept (the model excuses what follows where fewer
			// than 10 of the ids the trigger remembers stay: the documented limit).
			weight: 1,
			arbitrary: fc.record({
				kind: fc.constant('thin' as const),
				keep: fc.integer({ min: 2, max: 40 }),
			}),
		},
		{
			weight: mode === 'userSpaces' ? 0 : 1,
			arbitrary: fc.record({ kind: fc.constant('middle' as const), pick: fc.nat(300) }),
		},
		{ weight: 1, arbitrary: fc.constant({ kind: 'reconnect' as const }) },
		{ weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat(40) }) },
		{
			weight: readdable(mode) ? 3 : 0,
			arbitrary: fc.record({ kind: fc.constant('readd' as const), pick: fc.nat(40) }),
		},
		{
			// The newest items (or those below the newest) back on top in the order they were listed.
			weight: readdable(mode) ? 2 : 0,
			arbitrary: fc.record({
				kind: fc.constant('readdTop' as const),
				from: fc.integer({ min: 0, max: 2 }),
				count: fc.integer({ min: 1, max: 3 }),
				reverse: fc.boolean(),
			}),
		},
		{
			weight: mode === 'userSpaces' ? 3 : 0,
			arbitrary: fc.record({ kind: fc.constant('advance' as const), pick: fc.nat(40) }),
		},
		{ weight: 1, arbitrary: fc.constant({ kind: 'switchAccount' as const }) },
		{ weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
	);

const step = (mode: ExploredMode): fc.Arbitrary<PollStep> =>
	fc.record(
		{
			changes: fc.array(change(mode), { maxLength: 4 }),
			// Small pages, or the largest (lists longer than the trigger remembers are read in few).
			pageLimit: fc.oneof(
				{ weight: 4, arbitrary: fc.integer({ min: 1, max: 5 }) },
				{ weight: 1, arbitrary: fc.constant(100) },
			),
			budgetPages: fc.integer({ min: 1, max: 3 }),
			failure: fc.record({
				at: fc.nat(4),
				status: fc.constantFrom(429 as const, 503 as const),
				times: fc.integer({ min: 1, max: 4 }),
			}),
			shuffle: fc.nat(50),
			// A page of the read answered empty with a next_token (its items deleted or withheld).
			emptied: fc.integer({ min: 1, max: 3 }),
			// Items removed, added again, added between the first and second page.
			between: fc.array(
				fc.oneof(
					fc.record({ kind: fc.constant('remove' as const), pick: fc.nat(40) }),
					fc.record({
						kind: fc.constant(readdable(mode) ? ('readd' as const) : ('remove' as const)),
						pick: fc.nat(40),
					}),
					fc.record({ kind: fc.constant('add' as const), count: fc.integer({ min: 1, max: 3 }) }),
				),
				{ maxLength: 2 },
			),
			saveFails: fc.boolean(),
			// Durable: ticks of the node started with this one on its position (missed Poll Times fired
			// at once after a restart).
			siblings: fc.integer({ min: 1, max: 4 }),
			// Minutes between polls: n8n's shortest interval, a longer one, or past a window's reset.
			wait: fc.constantFrom(60_000, 5 * 60_000, 16 * 60_000),
		},
		{ requiredKeys: ['changes', 'pageLimit', 'shuffle'] },
	);

const long = (s: Schedule) =>
	s.initial > 100 ||
	s.steps.some((st) => st.changes.some((c) => c.kind === 'bulk' || c.kind === 'dropNewest'));

const readds = (s: Schedule) =>
	s.steps.reduce(
		(sum, st) =>
			sum +
			st.changes.reduce(
				(n, c) => n + (c.kind === 'readd' ? 1 : c.kind === 'readdTop' ? c.count : 0),
				0,
			),
		0,
	);

const schedule: fc.Arbitrary<Schedule> = fc
	.constantFrom(...MODES)
	.chain((mode) =>
		fc.record({
			mode: fc.constant(mode),
			typeVersion: fc.constantFrom(1, 1.1, 1.2),
			// The service's window: a few requests per 15 minutes (a read cut short by it, polls
			// skipped until its reset), or no rate-limit headers at all.
			rateLimit: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
			savedOnFailure: fc.boolean(),
			host: fc.constantFrom('durable' as const, 'legacy' as const),
			// A short list, or one longer than the 200 ids the trigger remembers.
			initial: fc.oneof(
				{ weight: 4, arbitrary: fc.nat(15) },
				{ weight: mode === 'userSpaces' ? 0 : 1, arbitrary: fc.constantFrom(230, 260) },
			),
			steps: fc.array(step(mode), { minLength: 1, maxLength: 10 }),
		}),
	)
	.filter((s) => readds(s) < 10)
	// A backlog longer than a window's requests can read (a page per request, each poll reading from
	// the top) is the documented limit: long lists and bulk changes only with windows of 5 or more.
	.filter((s) => s.rateLimit === undefined || s.rateLimit >= 5 || !long(s));

/** Schedules the explorer found that broke an invariant before the fix; each stays a regression. */
const FOUND: Array<{ name: string; schedule: Schedule }> = [
	{
		// The poll read the posts a cut short poll had left unread, then a 429 on its next request
		// skipped it: the gap was already forgotten, and those posts were never emitted.
		name: 'mentions: a 429 after the gap was read keeps the gap',
		schedule: {
			mode: 'mentions',
			savedOnFailure: false,
			initial: 0,
			steps: [
				{ changes: [], pageLimit: 1, shuffle: 0 },
				{
					changes: [
						{ kind: 'add', count: 1 },
						{ kind: 'add', count: 3 },
					],
					pageLimit: 1,
					budgetPages: 1,
					shuffle: 0,
				},
				{ changes: [], pageLimit: 2, failure: { at: 2, status: 429, times: 1 }, shuffle: 0 },
			],
		},
	},
	{
		// A poll cut short by the poll time stopped after follower 12; 12 unfollowed and followed again
		// came back on top, so the next poll took the place as passed at once, and a run of remembered
		// followers ended the read before 11, which was never emitted.
		name: 'listFollowers: the place a cut short poll stopped at comes back on top',
		schedule: {
			mode: 'listFollowers',
			savedOnFailure: false,
			initial: 8,
			steps: [
				{ changes: [{ kind: 'add', count: 2 }], pageLimit: 1, shuffle: 0 },
				{
					changes: [
						{ kind: 'add', count: 4 },
						{ kind: 'add', count: 1 },
						{ kind: 'add', count: 2 },
					],
					pageLimit: 1,
					failure: { at: 0, status: 429, times: 1 },
					shuffle: 0,
				},
				{
					changes: [
						{ kind: 'readd', pick: 0 },
						{ kind: 'add', count: 3 },
					],
					pageLimit: 5,
					budgetPages: 2,
					shuffle: 0,
				},
				{ changes: [{ kind: 'readd', pick: 10 }], pageLimit: 1, shuffle: 0 },
			],
		},
	},
	{
		// A switch to another account whose first poll was refused (429), then back: the position still
		// belongs to the first account, and the mention that arrived meanwhile is new (the model had
		// taken it as a fresh start).
		name: 'mentions: switched to another account and back before any poll succeeded',
		schedule: {
			mode: 'mentions',
			savedOnFailure: false,
			initial: 0,
			steps: [
				{ changes: [], pageLimit: 1, shuffle: 0 },
				{
					changes: [{ kind: 'switchAccount' }],
					pageLimit: 1,
					failure: { at: 0, status: 429, times: 1 },
					shuffle: 0,
				},
				{
					changes: [{ kind: 'switchAccount' }, { kind: 'add', count: 1 }],
					pageLimit: 1,
					shuffle: 0,
				},
			],
		},
	},
	{
		// The only id a cut short poll had read (12) stayed its resume place while later cut short polls
		// read further new bookmarks; 12 removed and added again then came back on top, the read took the
		// place as passed at once and a run of remembered bookmarks ended it before 14 to 20.
		name: 'bookmarks: polls cut short again and again, and the place they stopped at comes back on top',
		schedule: {
			mode: 'bookmarks',
			savedOnFailure: false,
			initial: 11,
			steps: [
				{
					changes: [
						{ kind: 'add', count: 1 },
						{ kind: 'remove', pick: 0 },
						{ kind: 'remove', pick: 0 },
					],
					pageLimit: 1,
					shuffle: 0,
				},
				{ changes: [], pageLimit: 1, budgetPages: 1, shuffle: 0 },
				{
					changes: [
						{ kind: 'add', count: 4 },
						{ kind: 'remove', pick: 0 },
						{ kind: 'add', count: 1 },
					],
					pageLimit: 1,
					failure: { at: 0, status: 429, times: 1 },
					shuffle: 0,
				},
				{
					changes: [
						{ kind: 'add', count: 4 },
						{ kind: 'add', count: 2 },
						{ kind: 'add', count: 1 },
					],
					pageLimit: 1,
					budgetPages: 1,
					shuffle: 0,
				},
				{
					changes: [
						{ kind: 'switchAccount' },
						{ kind: 'switchAccount' },
						{ kind: 'remove', pick: 9 },
					],
					pageLimit: 2,
					budgetPages: 2,
					shuffle: 0,
				},
				{
					changes: [
						{ kind: 'readd', pick: 0 },
						{ kind: 'add', count: 1 },
						{ kind: 'add', count: 3 },
					],
					pageLimit: 1,
					budgetPages: 1,
					shuffle: 0,
				},
				{ changes: [{ kind: 'add', count: 1 }], pageLimit: 2, budgetPages: 2, shuffle: 0 },
				{
					changes: [
						{ kind: 'readd', pick: 32 },
						{ kind: 'remove', pick: 19 },
					],
					pageLimit: 1,
					shuffle: 0,
				},
			],
		},
	},
	{
		// A window of one request per 15 minutes: each poll read the short first page of ids it had
		// already emitted, the window ended the read there, and DM 1 below them was never reached.
		name: 'directMessages: a window of one request, and a short first page read again every poll',
		schedule: {
			mode: 'directMessages',
			typeVersion: 1,
			rateLimit: 1,
			savedOnFailure: false,
			initial: 0,
			steps: [
				{ changes: [], pageLimit: 1, shuffle: 0 },
				{ changes: [{ kind: 'switchAccount' }], pageLimit: 1, shuffle: 0 },
				{
					changes: [{ kind: 'switchAccount' }, { kind: 'add', count: 1 }],
					pageLimit: 1,
					shuffle: 0,
				},
				{
					changes: [
						{ kind: 'add', count: 3 },
						{ kind: 'add', count: 4 },
					],
					pageLimit: 1,
					shuffle: 0,
				},
				{ changes: [{ kind: 'add', count: 3 }], pageLimit: 1, shuffle: 0 },
			],
		},
	},
	{
		// Found in a first version of the fix for the schedule above: a first poll the window ended after
		// a few followers recorded them as the whole list; one of them unfollowed, and the next read went
		// past the rest into follower 1, there before activation.
		name: 'followers: a first poll the rate-limit window ended, then a remembered follower leaves',
		schedule: {
			mode: 'followers',
			typeVersion: 1,
			rateLimit: 2,
			savedOnFailure: false,
			initial: 0,
			steps: [
				{ changes: [{ kind: 'add', count: 3 }], pageLimit: 1, shuffle: 0 },
				{ changes: [{ kind: 'remove', pick: 4 }], pageLimit: 1, shuffle: 0 },
				{ changes: [], pageLimit: 1, shuffle: 0 },
			],
		},
	},
	{
		// Found in the first version of recent search's overlap: a poll read the posts a cut short poll
		// left unread, and its overlap read them again in the same poll.
		name: 'search: the gap and the overlap behind the newest id in one poll',
		schedule: {
			mode: 'search',
			rateLimit: 2,
			savedOnFailure: false,
			initial: 0,
			steps: [
				{ changes: [], pageLimit: 1, shuffle: 0 },
				{ changes: [{ kind: 'add', count: 2 }], pageLimit: 1, shuffle: 0 },
				{ changes: [], pageLimit: 1, shuffle: 0 },
			],
		},
	},
	{
		// The overlap moved above a post it had emitted while a gap below still reached it: the gap's
		// read emitted it again.
		name: 'search: a gap reaching below the overlap keeps what it emitted there remembered',
		schedule: {
			mode: 'search',
			savedOnFailure: false,
			host: 'durable',
			initial: 0,
			steps: [
				{ changes: [{ kind: 'add', count: 1, lag: 90_000 }], pageLimit: 1, shuffle: 0 },
				{ changes: [], pageLimit: 1, shuffle: 0, wait: 300_000 },
				{ changes: [{ kind: 'bulk', count: 20 }], pageLimit: 1, budgetPages: 1, shuffle: 0 },
			],
		},
	},
	{
		// Found by the long sweep: a follower followed again while a poll read past the top (behind the
		// read) was put at the bottom of the window rebuilt from what was read, let go of at once, and
		// emitted as new at the next poll.
		name: 'listFollowers: followed again behind the read, while the window lets ids go',
		schedule: {
			mode: 'listFollowers',
			typeVersion: 1,
			savedOnFailure: false,
			host: 'durable',
			initial: 230,
			steps: [
				{ changes: [], pageLimit: 4, shuffle: 0 },
				{
					changes: [
						{ kind: 'bulk', count: 20 },
						{ kind: 'add', count: 1 },
					],
					pageLimit: 100,
					shuffle: 0,
					between: [{ kind: 'readd', pick: 30 }],
				},
				{ changes: [], pageLimit: 1, shuffle: 0 },
			],
		},
	},
	{
		// The same with n8n's poll time too short to read the window again: the window let the id go
		// all the same. It now keeps what it would let go of until a poll can read it again.
		name: 'listFollowers: followed again behind the read, and no time left to read the window again',
		schedule: {
			mode: 'listFollowers',
			typeVersion: 1,
			savedOnFailure: false,
			host: 'durable',
			initial: 230,
			steps: [
				{ changes: [], pageLimit: 4, shuffle: 0 },
				{
					changes: [
						{ kind: 'bulk', count: 20 },
						{ kind: 'add', count: 1 },
					],
					pageLimit: 100,
					budgetPages: 2,
					shuffle: 0,
					between: [{ kind: 'readd', pick: 30 }],
				},
				{ changes: [], pageLimit: 1, shuffle: 0 },
			],
		},
	},
	{
		// Found against a first page of one item (version 1.2's idle read, put back to 1 to see the
		// explorer fail): members 2 and 3 added, then member 1 (the newest remembered) removed and added
		// again above them; the first page answered 1, the newest remembered, and 2 was never emitted.
		name: 'listMembers: the newest remembered added again above new members',
		schedule: {
			mode: 'listMembers',
			typeVersion: 1.2,
			savedOnFailure: false,
			host: 'durable',
			initial: 0,
			steps: [
				{ changes: [{ kind: 'add', count: 1 }], pageLimit: 1, shuffle: 0 },
				{
					changes: [
						{ kind: 'add', count: 1 },
						{ kind: 'add', count: 1 },
						{ kind: 'readdTop', from: 2, count: 1 },
					],
					pageLimit: 1,
					shuffle: 0,
				},
				{ changes: [], pageLimit: 1, shuffle: 0 },
			],
		},
	},
	{
		// Written against a first page taken as unchanged when its ids are the newest remembered in any
		// order: the two newest remembered come back on top in the reverse order above a new follower,
		// who is emitted only because the order differs.
		name: 'followers: the two newest remembered back on top in the reverse order above a new one',
		schedule: {
			mode: 'followers',
			typeVersion: 1.2,
			savedOnFailure: false,
			host: 'durable',
			initial: 5,
			steps: [
				{ changes: [], pageLimit: 1, shuffle: 0 },
				{
					changes: [
						{ kind: 'add', count: 1 },
						{ kind: 'readdTop', from: 1, count: 2, reverse: true },
					],
					pageLimit: 100,
					shuffle: 0,
				},
				{ changes: [], pageLimit: 100, shuffle: 0 },
			],
		},
	},
	{
		// Found once the model ran n8n's poll at publishing as n8n does (it commits nothing when it
		// returns nothing): the like made between publishing and the first scheduled poll was never
		// emitted (issue 52: 4 of 4 lost in real n8n).
		name: 'likedPosts: a like made between publishing and the first scheduled poll (durable)',
		schedule: {
			mode: 'likedPosts',
			typeVersion: 1,
			savedOnFailure: false,
			host: 'durable',
			initial: 0,
			steps: [
				{ changes: [], pageLimit: 1, shuffle: 0 },
				{ changes: [{ kind: 'add', count: 1 }], pageLimit: 1, shuffle: 0 },
				{ changes: [], pageLimit: 1, shuffle: 0 },
			],
		},
	},
	{
		// Found in the first version of that fix: the position recorded at publishing was taken again
		// after the credential had been reconnected to another account and back, and emitted mentions
		// made while it watched the other account.
		name: 'mentions: reconnected to another account and back after publishing (durable)',
		schedule: {
			mode: 'mentions',
			typeVersion: 1,
			savedOnFailure: false,
			host: 'durable',
			initial: 0,
			steps: [
				{ changes: [], pageLimit: 1, shuffle: 0 },
				{ changes: [{ kind: 'reconnect' }], pageLimit: 1, shuffle: 0 },
				{
					changes: [{ kind: 'switchAccount' }],
					pageLimit: 1,
					failure: { at: 0, status: 429, times: 1 },
					shuffle: 0,
				},
				{ changes: [{ kind: 'add', count: 1 }], pageLimit: 1, shuffle: 0 },
			],
		},
	},
	{
		// Durable: a tick started with poll 1 on the same position (missed Poll Times fired at once after
		// a restart) ran after it and emitted the new follower again (issue 52, measured in real n8n).
		name: 'followers: a tick started with another on its position runs after it (durable)',
		schedule: {
			mode: 'followers',
			typeVersion: 1,
			savedOnFailure: false,
			host: 'durable',
			initial: 230,
			steps: [
				{ changes: [], pageLimit: 100, shuffle: 0 },
				{ changes: [{ kind: 'add', count: 1 }], pageLimit: 1, shuffle: 0, siblings: 1 },
			],
		},
	},
	{
		// Durable: poll 1 read on from the position recorded at publishing and committed it; a tick
		// started with it on the older position (none) only counted the rate-limit window, and its
		// commit put that older position back: the next poll recorded the position anew, past post 21.
		// Found against a fix that passed over the position of a poll that emitted nothing.
		name: 'userPosts: a tick on the older position commits it over a newer empty poll (durable)',
		schedule: {
			mode: 'userPosts',
			typeVersion: 1,
			rateLimit: 5,
			savedOnFailure: false,
			host: 'durable',
			initial: 0,
			steps: [
				{ changes: [{ kind: 'bulk', count: 20 }], pageLimit: 1, budgetPages: 1, shuffle: 0 },
				{ changes: [], pageLimit: 2, shuffle: 0, siblings: 1 },
				{ changes: [{ kind: 'add', count: 1 }], pageLimit: 100, shuffle: 0 },
				{ changes: [], pageLimit: 1, shuffle: 0 },
			],
		},
	},
	{
		// Found by the long sweep (seed 2026, after 67,675 schedules): followers 4 and 5 came while poll
		// 1 read its second page, behind its read; then 1 and 2 (the newest remembered) were removed and
		// added again in their order, above 4 and 5. Each later first page of 2 answered the newest
		// remembered in their order, the idle read stopped there, and 4 and 5 were never emitted (the
		// poll cut short after its first page had its commit fail, so it taught nothing).
		name: 'listFollowers: new followers behind a read of two pages, then the newest remembered back on top (1.2)',
		schedule: {
			mode: 'listFollowers',
			typeVersion: 1.2,
			savedOnFailure: false,
			host: 'durable',
			initial: 0,
			steps: [
				{ changes: [{ kind: 'add', count: 2 }], pageLimit: 100, shuffle: 0 },
				{
					changes: [],
					pageLimit: 1,
					shuffle: 0,
					between: [
						{ kind: 'add', count: 3 },
						{ kind: 'remove', pick: 7 },
					],
				},
				{
					changes: [{ kind: 'readdTop', from: 2, count: 2, reverse: false }],
					pageLimit: 1,
					budgetPages: 1,
					shuffle: 0,
					saveFails: true,
				},
			],
		},
	},
	{
		// Written beside it: the same, with the commit of the poll that read two pages failing (an empty
		// poll whose position changed: n8n repeats its window). The next tick is refused as reading an
		// older position; the one after reads from the position before it.
		name: 'bookmarks: new bookmarks behind a read of two pages whose commit fails, then the newest remembered back on top (1.2)',
		schedule: {
			mode: 'bookmarks',
			typeVersion: 1.2,
			savedOnFailure: false,
			host: 'durable',
			initial: 0,
			steps: [
				{ changes: [{ kind: 'add', count: 2 }], pageLimit: 100, shuffle: 0 },
				{
					changes: [],
					pageLimit: 1,
					shuffle: 0,
					saveFails: true,
					between: [{ kind: 'add', count: 2 }],
				},
				{
					changes: [{ kind: 'readdTop', from: 2, count: 2, reverse: false }],
					pageLimit: 2,
					shuffle: 0,
				},
			],
		},
	},
];

describe('the Poll Trigger position, explored', () => {
	it(
		`holds its invariants on ${RUNS} random schedules over the 13 modes`,
		async () => {
			await explore(schedule, violation, RUNS);
		},
		Math.max(120_000, RUNS * 50),
	);

	it.each(FOUND.map((f) => [f.name, f.schedule] as const))('%s', async (_name, s) => {
		expect(await violation(s)).toBeUndefined();
		// And at version 1.2, whose idle read starts with a shorter page.
		expect(await violation({ ...s, typeVersion: 1.2 })).toBeUndefined();
	});
});
