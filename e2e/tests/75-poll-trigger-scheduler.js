'use strict';
/**
 * Platform Poll Trigger under n8n's durable poll scheduler (issue 52), in a real n8n 2.40.7 of its own
 * (regular mode, on PostgreSQL 17; E2E_SCHEDULER_DB=sqlite: n8n's default SQLite) started with the four settings on:
 * N8N_SCHEDULER_ENABLED, N8N_SCHEDULER_POLL_TRIGGERS_ENABLED, N8N_POLLER_DURABLE_CURSORS_ENABLED and
 * N8N_USE_WORKFLOW_PUBLICATION_SERVICE. Polls every minute (the scheduler's own ticks).
 *   - Posts published between publishing the workflow and its first scheduled poll each run once, and
 *     the post published before publishing never runs (search and a user's posts).
 *   - n8n killed (SIGKILL) while a poll waits for the service's answer, posts published meanwhile, n8n
 *     started again: each new post runs once, none is lost, none runs twice.
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

module.exports = [
	{
		name: "poll trigger under n8n's durable poll scheduler: posts published before the first scheduled poll run once, nothing old; a kill -9 mid-poll loses nothing; engine 2.0 module on: each trigger in a workflow set to Engine 2.0 refused",
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

				// kill -9 while the search poll waits for the service's answer.
				for (const wf of [WF_SEARCH, WF_USER]) fresh[wf].push(watched[wf].post('before the kill'));
				const hold = { status: 0, delayMs: 20000, remaining: 1, path: `^${SEARCH}$`, skip: 0 };
				sandbox.faults.rules.push(hold);
				await ctx.waitFor('a search poll in flight', () => hold.remaining === 0, {
					timeoutMs: 90000,
					intervalMs: 100,
				});
				await inst.stopN8n({ hard: true });
				sandbox.faults.rules = sandbox.faults.rules.filter((x) => x !== hold);
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
