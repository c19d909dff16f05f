'use strict';
/**
 * Platform Poll Trigger, "New Followers of a User" and "New Members of a List", active in real n8n and
 * polling every 10 seconds (six Poll Times, each at one fixed second of the minute: n8n refuses a
 * single poll time finer than a minute). The sandbox lists followers and members newest first by when
 * they were added, as the service does, so one removed and added again comes back on top:
 *   - a new follower (member) runs the workflow once;
 *   - a remembered one removed and added again while a new one arrives (the read then starts with both,
 *     in either order) runs nothing, and the new one runs once;
 *   - the same while n8n is stopped: after the restart only the new one runs;
 *   - the followers read limited to two requests per window: the polls refused with 429 are skipped, and
 *     the follower who arrived meanwhile runs once from a later poll;
 *   - nothing runs twice across the polls that follow.
 * Every id added sorts below the remembered ones: a sandbox that answered by id would show them last.
 */
const F = require('../lib/fixtures');
const { activate, deactivate } = require('../lib/rest');

const WATCHED = '1500000000000000900';
const FOLLOWERS_WF = 'e2ePollReaddFollw';
const MEMBERS_WF = 'e2ePollReaddMembr';
const FOLLOWERS_SINK = 'poll-readd-followers';
const MEMBERS_SINK = 'poll-readd-members';
const LIST = '1500000000000000950';
/** Remembered at activation: twelve followers (members), more than the ten in a row that end a read. */
const REMEMBERED = Array.from({ length: 12 }, (_, i) => String(1500000000000000910n + BigInt(i)));
/** Newcomers, by step; each id lower than every remembered one. */
const NEW = {
	first: '1500000000000000101',
	beside: '1500000000000000102',
	whileDown: '1500000000000000103',
	limited: '1500000000000000104',
};

function watch(id, name, parameters, sink, ctx) {
	return F.workflow(
		id,
		name,
		[
			F.pollTriggerNode(parameters, { typeVersion: 1 }),
			F.sinkNode('Record Run', ctx.sandboxUrl, sink, [300, 0]),
		],
		F.chain(['Platform Poll Trigger', 'Record Run']),
	);
}

module.exports = [
	{
		name: 'poll trigger: followers and list members removed and added again beside new ones (polls every 10 s): each new one runs once, none twice, across an n8n restart and a rate limit',
		needs: ['platformPostsTrigger'],
		modes: ['regular'],
		workflows: (ctx) => {
			const { sandbox } = ctx;
			sandbox.addUser({ id: WATCHED, username: 'readd_watched' });
			for (const id of [...REMEMBERED, ...Object.values(NEW)])
				sandbox.addUser({ id, username: `readd_${id.slice(-3)}` });
			// Oldest first: the first one added is the last of the list.
			for (const id of REMEMBERED)
				sandbox.setRelation({ kind: 'follow', user_id: id, target_id: WATCHED }, true);
			sandbox.addList({ id: LIST, name: 'Re-add watch', members: REMEMBERED });
			return [
				watch(
					FOLLOWERS_WF,
					'e2e poll followers re-added',
					{ event: 'followers', user: { __rl: true, mode: 'id', value: WATCHED } },
					FOLLOWERS_SINK,
					ctx,
				),
				watch(
					MEMBERS_WF,
					'e2e poll members re-added',
					{ event: 'listMembers', list: { __rl: true, mode: 'id', value: LIST } },
					MEMBERS_SINK,
					ctx,
				),
			];
		},
		timeoutMs: 300000,
		async run(ctx) {
			const { assert, sandbox, inst } = ctx;
			const followersPath = `/2/users/${WATCHED}/followers`;
			const membersPath = `/2/lists/${LIST}/members`;
			const reads = (since, p, status = 200) =>
				ctx.records(since, p).filter((r) => r.method === 'GET' && r.status === status);
			const follow = (who, on = true) =>
				sandbox.setRelation({ kind: 'follow', user_id: who, target_id: WATCHED }, on);
			const member = (who, on = true) =>
				sandbox.setRelation({ kind: 'list_member', user_id: who, target_id: LIST }, on);
			const followerRuns = () => ctx.runCounts(FOLLOWERS_SINK);
			const memberRuns = () => ctx.runCounts(MEMBERS_SINK);
			const followerEvent = (id) => `follow:${id}:${WATCHED}`;
			const memberEvent = (id) => `list_member:${LIST}:${id}`;
			const runsOf = (id) => [followerRuns()[followerEvent(id)], memberRuns()[memberEvent(id)]];
			const bothRan = (id) => runsOf(id).every(Boolean);
			const polledTwice = async (what) => {
				const seq = sandbox.seq;
				await ctx.waitFor(
					what,
					() => reads(seq, followersPath).length >= 2 && reads(seq, membersPath).length >= 2,
					{ timeoutMs: 45000, intervalMs: 500 },
				);
			};
			try {
				for (const id of [FOLLOWERS_WF, MEMBERS_WF]) {
					const activated = await activate(ctx, id);
					assert.ok(activated.ok, `activating ${id}: ${activated.status} ${activated.text}`);
				}
				await ctx.waitFor(
					'the activation polls of both',
					() => reads(0, followersPath).length && reads(0, membersPath).length,
					{ timeoutMs: 60000 },
				);

				// A new follower and a new member.
				follow(NEW.first);
				member(NEW.first);
				await ctx.waitFor('a run for the first newcomer', () => bothRan(NEW.first), {
					timeoutMs: 45000,
					intervalMs: 500,
				});

				// A remembered one removed and added again, beside a new one: the followers read starts
				// [new, re-added], the members read [re-added, new].
				follow(REMEMBERED[2], false);
				follow(REMEMBERED[2]);
				follow(NEW.beside);
				member(NEW.beside);
				member(REMEMBERED[2], false);
				member(REMEMBERED[2]);
				const seqBeside = sandbox.seq;
				await ctx.waitFor(
					'a run for the newcomer beside a re-added one',
					() => bothRan(NEW.beside),
					{
						timeoutMs: 45000,
						intervalMs: 500,
					},
				);
				const [firstRead] = reads(seqBeside, followersPath);
				assert.deepEqual(
					firstRead.response.data.slice(0, 3).map((u) => u.id),
					[NEW.beside, REMEMBERED[2], NEW.first],
					'the followers read the trigger got starts with the newcomer and the re-added follower',
				);
				await polledTwice('two more polls of each');

				// The same while n8n is stopped.
				await inst.stopN8n();
				follow(REMEMBERED[5], false);
				member(REMEMBERED[5], false);
				follow(NEW.whileDown);
				member(NEW.whileDown);
				follow(REMEMBERED[5]);
				member(REMEMBERED[5]);
				await inst.start();
				await ctx.waitFor(
					'a run for the newcomer added while n8n was down',
					() => bothRan(NEW.whileDown),
					{ timeoutMs: 60000, intervalMs: 500 },
				);

				// Two followers reads per 25 s window: the third poll of a window is refused. (A poll that
				// reads two pages, as the one after a newcomer does, needs both: with one read per window it
				// never finishes, since the trigger drops a poll whose second page is refused.)
				const seqLimited = sandbox.seq;
				sandbox.options.rateLimits = [
					{ method: 'GET', path: `^${followersPath}$`, limit: 2, windowS: 25 },
				];
				sandbox.rateWindows.clear();
				// The window used up: two reads answered (a trigger that keeps the window's count then
				// skips its polls without a request), or one refused with 429.
				await ctx.waitFor(
					'the followers window used up',
					() =>
						reads(seqLimited, followersPath).length >= 2 ||
						reads(seqLimited, followersPath, 429).length > 0,
					{ timeoutMs: 45000, intervalMs: 500 },
				);
				follow(REMEMBERED[7], false);
				follow(REMEMBERED[7]);
				follow(NEW.limited);
				member(NEW.limited);
				await ctx.waitFor(
					'a run for the follower who arrived while the reads were refused',
					() => bothRan(NEW.limited),
					{ timeoutMs: 60000, intervalMs: 500 },
				);
				sandbox.options.rateLimits = [];
				await polledTwice('two more polls of each after the last runs');
				await ctx.sleep(2000);

				const expected = (event) =>
					Object.fromEntries(Object.values(NEW).map((id) => [event(id), 1]));
				assert.deepEqual(
					followerRuns(),
					expected(followerEvent),
					'each new follower ran once; no re-added follower ran',
				);
				assert.deepEqual(
					memberRuns(),
					expected(memberEvent),
					'each new member ran once; no re-added member ran',
				);
				const item = ctx.sink(FOLLOWERS_SINK)[0].body;
				assert.equal(item.event_type, 'follow');
				assert.equal(item.payload.source.id, NEW.first);
				assert.equal(item.payload.target.id, WATCHED);
			} finally {
				sandbox.options.rateLimits = [];
				for (const id of [FOLLOWERS_WF, MEMBERS_WF]) await deactivate(ctx, id).catch(() => {});
			}
		},
	},
];
