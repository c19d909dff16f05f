'use strict';
/**
 * Platform Poll Trigger under n8n's durable poll scheduler (issue 52), in a real n8n 2.40.7 of its own
 * (regular mode, on PostgreSQL 17; E2E_SCHEDULER_DB=sqlite: n8n's default SQLite) started with the four settings on:
 * N8N_SCHEDULER_ENABLED, N8N_SCHEDULER_POLL_TRIGGERS_ENABLED, N8N_POLLER_DURABLE_CURSORS_ENABLED and
 * N8N_USE_WORKFLOW_PUBLICATION_SERVICE. Polls every minute (the scheduler's own ticks).
 *   - Posts published between publishing the workflow and its first scheduled poll each run once, and
 *     the post published before publishing never runs (search and a user's posts).
 *   - n8n killed (SIGKILL) with the search poll waiting for the service's answer and the user-posts
 *     poll past its read, inside n8n's commit transaction (held there by a lock on its poller_state row;
 *     on PostgreSQL), posts published meanwhile, n8n started again: the killed commit left the cursor
 *     as it was, each new post runs once, none is lost, none runs twice.
 * The same n8n also runs n8n's Engine 2.0 module (it needs PostgreSQL for its data plane; one n8n of
 * its own for both saves CI a start): each of the three triggers in a workflow set to Engine 2.0 is
 * refused at publishing (e2e/lib/engineV2.js; with the module off: 74-engine-v2.js).
 */
const path = require('node:path');

const F = require('../lib/fixtures');
const { Instance } = require('../lib/instance');
const { session } = require('../lib/rest');
const E = require('../lib/engineV2');

const SINK = 'poll-scheduler';
const QUERY = 'schedwatch e2e';
const SEARCH = '/2/tweets/search/recent';
const WATCHED = '1500000000000000730';
const TIMELINE = `/2/users/${WATCHED}/tweets`;
const WF_SEARCH = 'e2ePollSchedSearch';
const WF_USER = 'e2ePollSchedUserPs';
const EVERY_MINUTE = { item: [{ mode: 'everyMinute' }] };
const SCHEDULER_ENV = F.SCHEDULER_ENV;

function workflows(ctx) {
	const sink = (wf) => F.sinkNode('Record Run', ctx.sandboxUrl, `${SINK}-${wf}`, [300, 0]);
	return [
		F.workflow(
			WF_SEARCH,
			'e2e poll scheduler search',
			[
				F.pollTriggerNode({ event: 'search', query: QUERY, pollTimes: EVERY_MINUTE }),
				sink(WF_SEARCH),
			],
			F.chain(['Platform Poll Trigger', 'Record Run']),
		),
		F.workflow(
			WF_USER,
			'e2e poll scheduler user posts',
			[
				F.pollTriggerNode({
					event: 'userPosts',
					user: { __rl: true, mode: 'id', value: WATCHED },
					pollTimes: EVERY_MINUTE,
				}),
				sink(WF_USER),
			],
			F.chain(['Platform Poll Trigger', 'Record Run']),
		),
	];
}

/** The Poll Trigger's cursor in n8n's poller_state row (the workflow has one poll node), as text. */
function cursorOf(pg, workflowId) {
	return pg.psql(
		`select "cursor"::text from poller_state where "workflowId" = '${workflowId.replace(/'/g, "''")}'`,
	);
}

/**
 * Locks the workflow's poller_state row (SELECT ... FOR UPDATE in a transaction left open): n8n's
 * commit of a poll (its UPDATE of the row) then waits until release(). commitWaiting() is true while
 * an n8n connection waits for this lock with that UPDATE (pg_stat_activity).
 */
async function holdPollerState(pg, workflowId) {
	const c = await pg.connect();
	await c.query('begin');
	const r = await c.query(
		'select "cursor"::text as cursor from poller_state where "workflowId" = $1 for update',
		[workflowId],
	);
	if (r.rows.length !== 1) throw new Error(`no poller_state row for ${workflowId}`);
	return {
		cursor: r.rows[0].cursor,
		async commitWaiting() {
			const w = await c.query(
				`select count(*)::int as n from pg_stat_activity
				 where pid <> pg_backend_pid() and wait_event_type = 'Lock'
				 and query ilike 'update%poller_state%'`,
			);
			return w.rows[0].n > 0;
		},
		async release() {
			await c.query('rollback').catch(() => {});
			await c.end().catch(() => {});
		},
	};
}

module.exports = [
	{
		name: "poll trigger under n8n's durable poll scheduler: posts published before the first scheduled poll run once, nothing old; a kill -9 during a poll's read and one between a poll's read and its commit lose nothing, repeat nothing; engine 2.0 module on: each trigger in a workflow set to Engine 2.0 refused",
		needs: ['platformPostsTrigger', 'platformTriggerPosts', 'platformPostTriggers'],
		modes: ['regular'],
		timeoutMs: 720000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			sandbox.addUser({ id: WATCHED, username: 'sched_watched' });
			E.addUser(ctx);
			const engineModule = process.env.E2E_SCHEDULER_DB !== 'sqlite';
			const dir = path.join(path.dirname(ctx.inst.dir), 'scheduler');
			// PostgreSQL (the production database, the e2e suite's own cluster) unless E2E_SCHEDULER_DB=sqlite.
			const inst = new Instance({
				host: ctx.inst.host,
				dir,
				tgz: ctx.inst.tgz,
				sandbox,
				label: 'scheduler',
				postgres: process.env.E2E_SCHEDULER_DB !== 'sqlite',
			});
			const watched = {
				[WF_SEARCH]: {
					path: SEARCH,
					post: (text) => sandbox.publishPost({ text: `${QUERY} ${text}` }).id,
				},
				[WF_USER]: {
					path: TIMELINE,
					post: (text) => sandbox.publishPost({ text, author_id: WATCHED }).id,
				},
			};
			const reads = (wf, since = 0) =>
				ctx
					.records(since, watched[wf].path)
					.filter(
						(r) => r.path === watched[wf].path && (wf !== WF_SEARCH || r.query.query === QUERY),
					);
			const counts = (wf) => ctx.runCounts(`${SINK}-${wf}`);
			try {
				await inst.setup({
					workflows: [
						...workflows({ ...ctx, sandboxUrl: ctx.sandboxUrl }),
						...(engineModule ? E.workflows(ctx) : []),
					],
					extraEnv: SCHEDULER_ENV,
				});
				if (engineModule) await E.enableModule(inst, ctx.H);
				await inst.start();
				if (engineModule)
					await ctx.H.waitForLog(inst.procs.main, /Engine 2\.0 listening on/, 60000);
				ctx.H.log(
					`scheduler n8n on ${inst.pg ? `PostgreSQL ${inst.pg.version}` : 'SQLite'} with ${Object.keys(SCHEDULER_ENV).join(', ')} on`,
				);
				const api = await session(inst.port);
				const before = {};
				const fresh = { [WF_SEARCH]: [], [WF_USER]: [] };
				for (const wf of [WF_SEARCH, WF_USER]) {
					before[wf] = watched[wf].post('published before publishing');
					const seq = sandbox.seq;
					const r = await api.toggle(wf, 'activate');
					assert.ok(r.ok, `publishing ${wf}: ${r.status} ${r.text.slice(0, 300)}`);
					// The poll n8n runs when the workflow is published records the position (and commits nothing).
					await ctx.waitFor(
						`${wf}: the publishing poll`,
						() => reads(wf, seq).some((x) => x.status === 200),
						{
							timeoutMs: 60000,
							intervalMs: 200,
						},
					);
					const published = sandbox.seq;
					for (let i = 0; i < 2; i++)
						fresh[wf].push(watched[wf].post(`before the first tick ${i}`));
					// These came before the first scheduled poll: its read is the next one.
					await ctx.waitFor(
						`${wf}: the first scheduled poll`,
						() => reads(wf, published).some((x) => x.status === 200),
						{
							timeoutMs: 90000,
							intervalMs: 500,
						},
					);
					const [tick] = reads(wf, seq)
						.filter((x) => x.status === 200)
						.slice(1);
					assert.ok(
						tick && tick.seq > published,
						`${wf}: the posts came before the first scheduled poll`,
					);
				}
				for (const wf of [WF_SEARCH, WF_USER])
					await ctx.waitFor(
						`${wf}: runs of the posts published before the first scheduled poll`,
						() => fresh[wf].every((id) => counts(wf)[id]),
						{ timeoutMs: 90000, intervalMs: 1000 },
					);
				ctx.H.log(
					`publish window: ${JSON.stringify({ search: counts(WF_SEARCH), user: counts(WF_USER) })}`,
				);

				// kill -9 with two polls in flight: the search poll waiting for the service's answer (its
				// read held 30 s), and the user-posts poll after its read ended, in n8n's commit
				// transaction (the cursor's UPDATE and the execution's INSERT, poll-cursor.service.js
				// commitWithExecution), held there by a row lock this test takes on its poller_state row
				// (PostgreSQL only: SQLite has no row lock).
				const lock = inst.pg ? await holdPollerState(inst.pg, WF_USER) : undefined;
				const killed = sandbox.seq;
				for (const wf of [WF_SEARCH, WF_USER]) fresh[wf].push(watched[wf].post('before the kill'));
				// Each workflow ticks at a second of its own in the minute (n8n draws it for "every
				// minute"): every search read is held 30 s from now on, and n8n is killed at the first
				// moment when a held search read is unanswered and the user-posts poll waits in its commit
				// (it stays there once it does).
				const holdSeq = sandbox.seq;
				const hold = { status: 0, delayMs: 30000, remaining: 1000, path: `^${SEARCH}$`, skip: 0 };
				sandbox.faults.rules.push(hold);
				// When each held search read was first seen; one is in flight while it is unanswered, and
				// counted so for 25 s only (5 s before its answer comes).
				const heldSince = [];
				const unanswered = () =>
					heldSince.length - reads(WF_SEARCH, holdSeq).filter((x) => x.status === 200).length;
				const searchInFlight = () => {
					while (heldSince.length < 1000 - hold.remaining) heldSince.push(Date.now());
					return unanswered() > 0 && Date.now() - heldSince[heldSince.length - 1] < 25000;
				};
				try {
					await ctx.waitFor(
						lock
							? 'a search read unanswered while a user-posts poll past its read waits in its commit'
							: 'a search read unanswered',
						async () =>
							searchInFlight() &&
							(!lock ||
								(reads(WF_USER, killed).some((x) => x.status === 200) &&
									(await lock.commitWaiting()))),
						{ timeoutMs: 150000, intervalMs: 200 },
					);
					const heldAt = Date.now();
					await inst.stopN8n({ hard: true });
					assert.ok(unanswered() > 0, 'the held search read was unanswered when n8n died');
					ctx.H.log(
						`killed ${((Date.now() - heldAt) / 1000).toFixed(1)} s after both polls were seen in flight`,
					);
				} finally {
					sandbox.faults.rules = sandbox.faults.rules.filter((x) => x !== hold);
					if (lock) await lock.release();
				}
				if (lock) {
					// n8n's transaction died with it: the cursor is the one from before the held poll.
					assert.equal(
						cursorOf(inst.pg, WF_USER),
						lock.cursor,
						`${WF_USER}: the killed commit left the cursor as it was`,
					);
					ctx.H.log(`${WF_USER}: killed in its commit; the cursor did not move`);
				}
				for (const wf of [WF_SEARCH, WF_USER])
					fresh[wf].push(watched[wf].post('while n8n was down'));
				await inst.start();
				for (const wf of [WF_SEARCH, WF_USER])
					await ctx.waitFor(
						`${wf}: runs of every new post after the restart`,
						() => fresh[wf].every((id) => counts(wf)[id]),
						{ timeoutMs: 240000, intervalMs: 1000 },
					);
				// One more scheduled poll of each: nothing new, nothing repeated.
				const seq = sandbox.seq;
				for (const wf of [WF_SEARCH, WF_USER])
					await ctx.waitFor(
						`${wf}: one more poll`,
						() => reads(wf, seq).some((x) => x.status === 200),
						{
							timeoutMs: 90000,
							intervalMs: 1000,
						},
					);
				await ctx.sleep(3000);
				for (const wf of [WF_SEARCH, WF_USER]) {
					const c = counts(wf);
					ctx.H.log(`${wf}: runs ${JSON.stringify(c)}`);
					for (const id of fresh[wf])
						assert.equal(
							c[id],
							1,
							`${wf}: post ${id} ran ${c[id] || 0} times (${JSON.stringify(c)})`,
						);
					assert.equal(
						c[before[wf]],
						undefined,
						`${wf}: the post published before publishing did not run`,
					);
					assert.equal(
						Object.keys(c).length,
						fresh[wf].length,
						`${wf}: only the new posts ran: ${JSON.stringify(c)}`,
					);
				}
				// Engine 2.0 on (its module loaded in this n8n): each trigger refused at publishing.
				if (engineModule) await E.assertRefused(ctx, inst.port, 'module on');
			} finally {
				await inst.stop().catch(() => {});
			}
		},
	},
];
