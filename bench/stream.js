#!/usr/bin/env node
'use strict';
/**
 * `npm run bench:stream`: the Activity Stream Trigger beside the Platform Trigger (webhook) in one real
 * n8n 2.40.7 on PostgreSQL 17 (the harness's throwaway cluster, regular mode, as bench/wal.js), each
 * workflow ending in the same sink node (an HTTP Request to the sandbox), both saving their executions
 * as n8n does by default.
 *
 *   - stream side: the sandbox's activity stream (sandbox/routes/activityStream.js) carries
 *     BENCH_STREAM_EVENTS (200) post.create events per round, pushed at BENCH_PUSH_RATE (60) events/s
 *     (above what one n8n on 2 cores runs, so the figure is the trigger's throughput, not the rate), to
 *     a user only the stream workflow subscribes to;
 *   - webhook side: the same number of signed deliveries of new events to the Platform Trigger's
 *     webhook, BENCH_CONCURRENCY (8) in flight (as bench/trigger.js).
 *
 * Per side and round: events run per second (from the first event sent to the last run in the sink),
 * n8n's process CPU per event (every thread), database WAL bytes per event (pg_wal_lsn_diff around the
 * burst, BENCH_SETTLE_MS (2,000) after the last run so that n8n has saved its executions), the static
 * data bytes written per event (the workflow row's updates in the burst × the "staticData" column's
 * size after it, as text and as stored, ÷ events; n8n rewrites the whole column whenever a run marks
 * it changed) and the ids in the trigger's record after the burst.
 *
 * n8n runs with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true (BENCH_LAZY=on, the default) or without
 * (BENCH_LAZY=off), one mode per run; BENCH_N8N_ENV adds n8n environment (JSON).
 *
 * Paired rounds (bench/pairing.js): BENCH_ROUNDS (4, rounded up to even), the two sides back to back,
 * each first in every other round. stream ÷ webhook is the median of the per-round ratios (runs/s,
 * and WAL per event), never a ratio of medians.
 *
 * Then the soak (BENCH_SOAK_EVENTS, default 2,000; 0 skips it): events pushed at BENCH_SOAK_RATE
 * (default 60% of the stream side's median runs/s in the rounds: the rounds measure bursts, and at 90%
 * of that n8n on a shared 2-core machine ran out of database connections within minutes, its runs not
 * started and asked for again; the soak counts those runs from n8n's log), n8n's resident memory (VmRSS of its main process, where the trigger runs)
 * and the trigger's record (ids, bytes, read from the database) sampled every BENCH_SOAK_SAMPLE_S (5)
 * seconds; at the end every event sent must have run once: none missing, none twice, none not sent.
 * Memory is judged after warm-up (the first fifth of the samples): the least-squares slope of RSS over
 * events, in MiB per 10,000 events, and the first and last quarter's medians.
 *
 * Results: the tables, printed and appended to bench/results/<date>.md (bench/report.js); the raw
 * figures in bench/results/stream-<time>.json. Exits 1 only when a run is missing or ran twice (a
 * delivery refused, an event lost or doubled); ratios are reported, never enforced.
 */
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');

const H = require('../e2e/lib/host');
const F = require('../e2e/lib/fixtures');
const L = require('../e2e/lib/load');
const { Instance } = require('../e2e/lib/instance');
const { createSandbox } = require('../sandbox/server');
const R = require('./report');
const { evenRounds, roundOrder, median, pairedRatio, lazyModes } = require('./pairing');
const { onceCheck, slope } = require('./soak');

const ROUND_PLAN = evenRounds(process.env.BENCH_ROUNDS || 4);
const ROUNDS = ROUND_PLAN.rounds;
const EVENTS = Number(process.env.BENCH_STREAM_EVENTS || 200);
const PUSH_RATE = Number(process.env.BENCH_PUSH_RATE || 60);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 8);
const WARMUP = Number(process.env.BENCH_WARMUP || 20);
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS || 2000);
const SOAK_EVENTS = Number(process.env.BENCH_SOAK_EVENTS ?? 2000);
const SOAK_RATE = Number(process.env.BENCH_SOAK_RATE || 0);
const SOAK_SAMPLE_MS = Number(process.env.BENCH_SOAK_SAMPLE_S || 5) * 1000;
/** A run counts as lost only when the sink has not grown for this long. */
const STALL_MS = 30000;
/**
 * PostgreSQL's backends report their table counters when idle, at the latest 10 s after their last
 * transaction: n_tup_upd is read this long after the burst (as bench/wal.js).
 */
const STATS_SETTLE_MS = 11000;
const EXTRA_ENV = JSON.parse(process.env.BENCH_N8N_ENV || '{}');
/**
 * BENCH_LAZY=on (default) or off: n8n with or without N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true, one
 * mode per run. On by default: it is the production advice (docs/production.md), and without it n8n
 * takes an expression isolate for every webhook call (bench/trigger.js), which the stream trigger's
 * runs never pay, so the webhook side would be the slower for a reason that is n8n's, not the trigger's.
 */
const LAZY_MODES = lazyModes(process.env.BENCH_LAZY, 'on');
if (LAZY_MODES.length !== 1)
	throw new Error('bench/stream.js measures one mode per run: BENCH_LAZY=on or off');
const [LAZY] = LAZY_MODES;

/** A user only the stream workflow subscribes to: the webhook trigger's subscription never matches. */
const STREAM_USER = '1000000053';
const STREAM_WF = 'benchStreamFlow1';
const STREAM_NODE = 'Activity Stream';
const STREAM_SINK = 'bench-stream';
const WEBHOOK_SINK = 'bench-trigger';

function streamWorkflow(sandboxUrl) {
	return F.workflow(
		STREAM_WF,
		'bench activity stream trigger',
		[
			F.node(
				STREAM_NODE,
				`${F.PKG}.platformPostTriggers`,
				1,
				{ events: ['post.create'], user: STREAM_USER, options: {} },
				[0, 0],
				{ credentials: F.credRef(F.CRED.bearer) },
			),
			F.sinkNode('Done', sandboxUrl, STREAM_SINK, [300, 0]),
		],
		F.chain([STREAM_NODE, 'Done']),
	);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Resident memory of a process now, in MiB (VmRSS); NaN when it is gone. */
function rssMiB(pid) {
	try {
		const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
		return m ? Number(m[1]) / 1024 : NaN;
	} catch {
		return NaN;
	}
}

/** n8n's V8 heap now, in MiB, from its /metrics endpoint (prom-client's default metrics). */
async function heapMiB(port) {
	const r = await L.request(`http://127.0.0.1:${port}/metrics`, { timeoutMs: 5000 });
	const text = String(r.body || r.text || '');
	const value = (name) => {
		const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(text);
		return m ? Number(m[1]) / 2 ** 20 : NaN;
	};
	return {
		used: value('n8n_nodejs_heap_size_used_bytes'),
		total: value('n8n_nodejs_heap_size_total_bytes'),
	};
}

/**
 * Counts the runs a sink received per event id, as they come, and empties the sink as it goes (a soak
 * of 200,000 runs would otherwise hold every body in this process).
 */
function sinkCounter(sandbox, sink) {
	const counts = new Map();
	let total = 0;
	return {
		counts,
		get total() {
			this.take();
			return total;
		},
		take() {
			const items = (sandbox.sinks && sandbox.sinks[sink]) || [];
			for (const item of items.splice(0, items.length)) {
				const id = String(F.eventIdOf(item.body || {}));
				counts.set(id, (counts.get(id) || 0) + 1);
				total++;
			}
		},
	};
}

/**
 * Pushes `n` events over the activity stream at `rate` per second (sent in ticks of 20 ms, each the
 * events due by then). Returns their ids and the rate actually reached.
 */
async function pushEvents(sandbox, n, rate, text, onTick = () => undefined) {
	const ids = [];
	const started = Date.now();
	let leaked = 0;
	while (ids.length < n) {
		const due = Math.min(n, Math.floor(((Date.now() - started) / 1000) * rate) + 1);
		if (due > ids.length) {
			const sent = await sandbox.emit({
				event_type: 'post.create',
				user_id: STREAM_USER,
				text,
				count: due - ids.length,
			});
			for (const e of sent) {
				ids.push(e.event_uuid);
				// Delivered to a webhook too: the stream user is not the bench's alone.
				leaked += (e.deliveries || []).length;
			}
		}
		onTick(ids.length);
		await sleep(20);
	}
	if (leaked) throw new Error(`${leaked} stream events were delivered to a webhook as well`);
	return { ids, pushSeconds: (Date.now() - started) / 1000 };
}

/** Waits until the counter holds `expected` runs more than `before`, or stalls. */
async function drain(counter, before, expected, onTick = () => undefined) {
	let last = counter.total;
	let lastChange = Date.now();
	while (counter.total - before < expected) {
		if (Date.now() - lastChange > STALL_MS) return false;
		await sleep(50);
		onTick();
		if (counter.total !== last) {
			last = counter.total;
			lastChange = Date.now();
		}
	}
	return true;
}

async function main() {
	const P = H.phases();
	const bench = H.benchWork('bench-stream');
	const work = bench.dir;
	let sandbox;
	const onSignal = () => H.stopAll().finally(() => process.exit(130));
	process.on('SIGINT', onSignal);
	process.on('SIGTERM', onSignal);
	try {
		if (ROUND_PLAN.roundedUp)
			H.log(`BENCH_ROUNDS=${ROUND_PLAN.requested} is odd: running ${ROUNDS} rounds`);
		const { tgz, missing } = await P.run('build and pack', () =>
			H.buildAndPack(path.join(work, 'pack')),
		);
		if (
			missing.some((m) => m.includes('PlatformTriggerPosts') || m.includes('PlatformPostTriggers'))
		)
			throw new Error('a trigger is not built: nothing to measure');
		const host = await P.run('prepare n8n host', () => H.prepareHost());
		sandbox = await createSandbox({ quiet: true }).listen(0);
		const inst = new Instance({
			host,
			dir: path.join(work, 'regular-pg'),
			tgz,
			sandbox,
			label: 'stream',
			postgres: true,
		});
		inst.installed = H.installPackage(inst.userFolder, tgz);
		const description = F.describeInstalled(inst.installed.pkgDir, 'platformTriggerPosts');
		const webhookWf = F.benchTriggerWorkflow(description, sandbox.url);
		const workflows = [streamWorkflow(sandbox.url), webhookWf];
		await P.run('regular mode on PostgreSQL: install, import, publish, start', async () => {
			await inst.setup({
				workflows,
				publish: workflows.map((w) => w.id),
				// n8n's /metrics endpoint: its V8 heap beside the resident memory in the soak.
				extraEnv: Object.assign({ N8N_METRICS: 'true' }, EXTRA_ENV, LAZY.env),
			});
			await inst.start();
		});
		// Subscribed too: the service sends every event to a webhook without a subscription, so the
		// stream's events would reach the webhook trigger as well until it has subscribed.
		const hook = await H.waitFor(
			'the Platform Trigger to register its webhook and subscribe it',
			() =>
				[...sandbox.db.webhooks.values()].find(
					(w) =>
						w.valid && [...sandbox.db.subscriptions.values()].some((s) => s.webhook_id === w.id),
				),
			{ timeoutMs: 120000 },
		);
		const webhookUrl = hook.url.replace('//localhost:', '//127.0.0.1:');
		await H.waitFor(
			'the Activity Stream Trigger to subscribe and open the stream',
			() =>
				[...sandbox.db.subscriptions.values()].some((s) =>
					String(s.tag || '').startsWith(`n8n:${STREAM_WF}:`),
				) && sandbox.activityStream.connections.size >= 1,
			{ timeoutMs: 120000 },
		);
		const pid = inst.procs.main.pid;
		const cpuMs = () => H.processCpuMs(pid);
		const streamRuns = sinkCounter(sandbox, STREAM_SINK);
		const webhookRuns = sinkCounter(sandbox, WEBHOOK_SINK);
		const userId = sandbox.keys.userId;
		let seq = 0;
		const base = BigInt(Date.now()) * 1000000n;
		const nextId = () => String(base + BigInt(++seq));
		const allStreamIds = [];
		const allWebhookIds = [];

		const updates = () => inst.pg.workflowUpdates();
		const staticSize = (workflowId) => inst.pg.staticDataSize(workflowId);
		const state = require(
			path.join(inst.installed.pkgDir, 'dist', 'nodes', 'triggers', 'webhook', 'state.js'),
		);
		const recordIds = (key) => {
			const data = inst.staticData(key === 'stream' ? STREAM_WF : webhookWf.id) || {};
			if (key === 'stream') {
				const s = data[`node:${STREAM_NODE}`] || {};
				return Array.isArray(s.handled) ? s.handled.length : 0;
			}
			return state.persistedIds(data['node:Platform Trigger'] || {}).length;
		};

		/** One side's burst of `n` events; the figures of wal.js plus runs/s and CPU. */
		async function burst(key, n, { measure = true } = {}) {
			const counter = key === 'stream' ? streamRuns : webhookRuns;
			const before = counter.total;
			const updBefore = measure ? updates() : 0;
			const from = measure ? inst.pg.walLsn() : undefined;
			const cpuBefore = cpuMs();
			const started = Date.now();
			let sent;
			let refused = 0;
			if (key === 'stream') {
				const pushed = await pushEvents(sandbox, n, PUSH_RATE, `bench stream ${key}`);
				sent = pushed.ids;
				allStreamIds.push(...sent);
			} else {
				sent = [];
				const load = await L.closedLoop({
					clients: CONCURRENCY,
					until: () => sent.length >= n,
					make: () => {
						const id = nextId();
						sent.push(id);
						const body = L.eventBody(id, userId);
						return {
							url: webhookUrl,
							method: 'POST',
							body,
							headers: { 'x-platform-webhooks-signature': sandbox.signWebhook(body) },
						};
					},
				});
				refused = sent.length - (load.statuses[200] || 0);
				allWebhookIds.push(...sent);
			}
			const complete = await drain(counter, before, sent.length - refused);
			const seconds = (Date.now() - started) / 1000;
			const runs = counter.total - before;
			const cpu = cpuMs() - cpuBefore;
			if (!measure) return { runs, sent: sent.length };
			await sleep(SETTLE_MS);
			const wal = inst.pg.walBytesSince(from);
			await sleep(STATS_SETTLE_MS);
			const rowUpdates = updates() - updBefore;
			const size = staticSize(key === 'stream' ? STREAM_WF : webhookWf.id);
			return {
				sent: sent.length,
				refused,
				runs,
				complete,
				perSecond: runs / seconds,
				seconds,
				cpuMsPerEvent: cpu / runs,
				walBytes: wal,
				walPerEvent: wal / runs,
				workflowRowUpdates: rowUpdates,
				staticDataText: size.text,
				staticDataStored: size.stored,
				staticTextPerEvent: (rowUpdates * size.text) / runs,
				staticStoredPerEvent: (rowUpdates * size.stored) / runs,
				recordIds: recordIds(key),
			};
		}

		await P.run('warm-up', async () => {
			await burst('stream', WARMUP, { measure: false });
			await burst('webhook', WARMUP, { measure: false });
		});
		const keys = ['stream', 'webhook'];
		const result = {
			n8n: H.N8N_VERSION,
			postgres: inst.pg.version,
			node: host.nodeVersion,
			cores: os.cpus().length,
			loadAverageAtStart: os.loadavg(),
			mode: 'regular (one n8n process) on PostgreSQL',
			env: EXTRA_ENV,
			lazyAcquire: LAZY.lazy,
			webhookTriggerVersion: webhookWf.nodes[0].typeVersion,
			events: EVENTS,
			pushRate: PUSH_RATE,
			concurrency: CONCURRENCY,
			rounds: ROUNDS,
			order: [],
			sides: Object.fromEntries(keys.map((k) => [k, { rounds: [] }])),
		};
		let failed = false;
		await P.run(`${ROUNDS} rounds x ${EVENTS} events per side`, async () => {
			for (let r = 0; r < ROUNDS; r++) {
				const order = roundOrder(keys, r, keys);
				result.order.push(order);
				for (const key of order) {
					const row = Object.assign({ round: r }, await burst(key, EVENTS));
					if (!row.complete || row.refused) failed = true;
					result.sides[key].rounds.push(row);
					H.log(
						`round ${r + 1} ${key}: ${R.fmt(row.perSecond)} runs/s, CPU ${R.fmt(row.cpuMsPerEvent)} ms/event, ${R.fmt(row.walPerEvent, 0)} WAL bytes/event, static data ${R.fmt(row.staticTextPerEvent, 0)} bytes/event (${row.workflowRowUpdates} row updates x ${row.staticDataText} bytes), record ${row.recordIds} ids; ${row.runs}/${row.sent} ran${row.refused ? `, ${row.refused} refused` : ''}`,
					);
				}
			}
		});
		const of = (key, k) => median(result.sides[key].rounds.map((x) => x[k]));
		const perRound = (key, k) => result.sides[key].rounds.map((x) => x[k]);
		for (const key of keys)
			for (const k of [
				'perSecond',
				'cpuMsPerEvent',
				'walPerEvent',
				'staticTextPerEvent',
				'staticStoredPerEvent',
				'recordIds',
			])
				result.sides[key][k] = of(key, k);
		result.ratios = {
			runsPerSecond: pairedRatio(perRound('stream', 'perSecond'), perRound('webhook', 'perSecond')),
			walPerEvent: pairedRatio(
				perRound('stream', 'walPerEvent'),
				perRound('webhook', 'walPerEvent'),
			),
			cpuPerEvent: pairedRatio(
				perRound('stream', 'cpuMsPerEvent'),
				perRound('webhook', 'cpuMsPerEvent'),
			),
		};

		// The soak: the stream side alone, at the highest rate the rounds showed it holds.
		if (SOAK_EVENTS > 0)
			await P.run(`soak: ${SOAK_EVENTS} events`, async () => {
				const rate = SOAK_RATE || Math.max(1, Math.floor(0.6 * result.sides.stream.perSecond));
				// Runs n8n could not start (the trigger logs each and asks the stream for it again): a rate
				// above what n8n holds shows here first (its database pool runs out).
				// n8n's log lines counted: runs n8n could not start (the trigger logs each and asks the
				// stream for it again), its database pool running out, and copies n8n skipped because their
				// deduplication key already had a run.
				const logCount = (pattern) => {
					try {
						const log = fs.readFileSync(path.join(inst.logDir, 'n8n-main.log'), 'utf8');
						return (log.match(pattern) || []).length;
					} catch {
						return NaN;
					}
				};
				const notStarted = () => logCount(/n8n did not start the run of activity event/g);
				const poolTimeouts = () => logCount(/timeout exceeded when trying to connect/g);
				const duplicates = () => logCount(/duplicate deduplication key/g);
				const notStartedBefore = notStarted();
				const poolTimeoutsBefore = poolTimeouts();
				const duplicatesBefore = duplicates();
				const samples = [];
				let pushed = 0;
				let lastSample = 0;
				const soakStart = Date.now();
				const sample = (force = false) => {
					if (!force && Date.now() - lastSample < SOAK_SAMPLE_MS) return;
					lastSample = Date.now();
					const row = {
						s: (lastSample - soakStart) / 1000,
						pushed,
						ran: streamRuns.total - before,
						rssMiB: rssMiB(pid),
						staticDataBytes: staticSize(STREAM_WF).text,
					};
					samples.push(row);
					heapMiB(inst.port).then(
						(h) => Object.assign(row, { heapUsedMiB: h.used, heapTotalMiB: h.total }),
						() => undefined,
					);
				};
				const before = streamRuns.total;
				const counterBefore = new Map(streamRuns.counts);
				const cpuBefore = cpuMs();
				const from = inst.pg.walLsn();
				const { ids, pushSeconds } = await pushEvents(
					sandbox,
					SOAK_EVENTS,
					rate,
					'bench soak',
					(n) => {
						pushed = n;
						sample();
					},
				);
				allStreamIds.push(...ids);
				const complete = await drain(streamRuns, before, ids.length, () => sample());
				const seconds = (Date.now() - soakStart) / 1000;
				sample(true);
				await sleep(SETTLE_MS + 5000);
				const wal = inst.pg.walBytesSince(from);
				// Each event once: counted on this soak's ids alone.
				const soakCounts = new Map(
					ids.map((id) => [id, (streamRuns.counts.get(id) || 0) - (counterBefore.get(id) || 0)]),
				);
				const once = onceCheck(soakCounts, ids);
				const after = samples.slice(Math.floor(samples.length / 5));
				const q = Math.max(1, Math.floor(after.length / 4));
				const soak = {
					events: ids.length,
					rate,
					pushSeconds,
					seconds,
					runs: streamRuns.total - before,
					perSecond: (streamRuns.total - before) / seconds,
					cpuMsPerEvent: (cpuMs() - cpuBefore) / ids.length,
					walPerEvent: wal / ids.length,
					complete,
					runsNotStarted: notStarted() - notStartedBefore,
					poolTimeouts: poolTimeouts() - poolTimeoutsBefore,
					duplicateKeySkips: duplicates() - duplicatesBefore,
					...once,
					rssFirstQuarterMiB: median(after.slice(0, q).map((x) => x.rssMiB)),
					rssLastQuarterMiB: median(after.slice(-q).map((x) => x.rssMiB)),
					rssMaxMiB: Math.max(...samples.map((x) => x.rssMiB)),
					heapUsedFirstQuarterMiB: median(
						after
							.slice(0, q)
							.map((x) => x.heapUsedMiB)
							.filter(Number.isFinite),
					),
					heapUsedLastQuarterMiB: median(
						after
							.slice(-q)
							.map((x) => x.heapUsedMiB)
							.filter(Number.isFinite),
					),
					heapUsedSlopeMiBPer10k:
						slope(
							after.filter((x) => Number.isFinite(x.heapUsedMiB)).map((x) => x.ran),
							after.filter((x) => Number.isFinite(x.heapUsedMiB)).map((x) => x.heapUsedMiB),
						) * 10000,
					rssSlopeMiBPer10k:
						slope(
							after.map((x) => x.ran),
							after.map((x) => x.rssMiB),
						) * 10000,
					record: { ids: recordIds('stream'), ...staticSize(STREAM_WF) },
					samples,
				};
				result.soak = soak;
				if (!complete || once.missing || once.twice || once.foreign) failed = true;
				H.log(
					`soak: ${soak.runs} runs of ${soak.events} events at ${rate}/s, ${once.missing} missing, ${once.twice} twice, ${once.foreign} not sent, ${soak.runsNotStarted} runs not started, ${soak.poolTimeouts} pool timeouts; RSS ${R.fmt(soak.rssFirstQuarterMiB)} -> ${R.fmt(soak.rssLastQuarterMiB)} MiB (slope ${R.fmt(soak.rssSlopeMiBPer10k, 2)} MiB per 10k events)`,
				);
			});

		// Every event of the whole run, rounds and soak: once each.
		result.once = {
			stream: onceCheck(streamRuns.counts, allStreamIds),
			webhook: onceCheck(webhookRuns.counts, allWebhookIds),
		};
		if (Object.values(result.once).some((o) => o.missing || o.twice)) failed = true;
		result.failed = failed;

		const outDir = path.join(H.ROOT, 'bench', 'results');
		fs.mkdirSync(outDir, { recursive: true });
		const file = path.join(outDir, `stream-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
		fs.writeFileSync(file, JSON.stringify(result, null, 2));
		const each = (key, k, d) =>
			perRound(key, k)
				.map((x) => R.fmt(x, d))
				.join(' / ');
		const ratio = (q) =>
			`${R.fmt(q.median, 2)} (${q.perRound.map((x) => R.fmt(x, 2)).join(' / ')})`;
		R.table(
			`Activity Stream Trigger beside the Platform Trigger (webhook) (n8n ${result.n8n}, ${result.mode} ${result.postgres}, ${LAZY.lazy ? 'with' : 'without'} lazy acquire, ${result.cores} cores, load average ${result.loadAverageAtStart.map((x) => x.toFixed(1)).join(' ')} at start; ${EVENTS} events x ${ROUNDS} rounds per side: the stream pushed at ${PUSH_RATE}/s, the webhook ${CONCURRENCY} in flight; back to back, each first in every other round)`,
			[
				'side',
				'runs/s: median (each round)',
				'n8n CPU ms/event',
				'WAL bytes/event',
				'static data bytes written/event, text (stored)',
				'ids in the record after',
			],
			keys.map((key) => [
				key === 'stream'
					? 'Activity Stream Trigger'
					: `Platform Trigger (webhook, version ${result.webhookTriggerVersion})`,
				`${R.fmt(of(key, 'perSecond'))} (${each(key, 'perSecond')})`,
				`${R.fmt(of(key, 'cpuMsPerEvent'))} (${each(key, 'cpuMsPerEvent')})`,
				`${R.fmt(of(key, 'walPerEvent'), 0)} (${each(key, 'walPerEvent', 0)})`,
				`${R.fmt(of(key, 'staticTextPerEvent'), 0)} (${R.fmt(of(key, 'staticStoredPerEvent'), 0)})`,
				R.fmt(of(key, 'recordIds'), 0),
			]),
			[
				`stream ÷ webhook, median of the per-round ratios (each round): runs/s ${ratio(result.ratios.runsPerSecond)}; WAL bytes/event ${ratio(result.ratios.walPerEvent)}; n8n CPU/event ${ratio(result.ratios.cpuPerEvent)}. The issue's goals: runs/s ≥ 1.0, WAL/event ≤ 1.0.`,
				`Order of the rounds: ${result.order.map((o) => o.join(', ')).join(' | ')}.`,
				`Each event once: stream ${JSON.stringify(result.once.stream)}, webhook ${JSON.stringify(result.once.webhook)} (missing, run twice, runs of events not sent).`,
				'The harness runs PostgreSQL with fsync, synchronous_commit and full_page_writes off: WAL holds no full-page images here.',
			],
		);
		if (result.soak) {
			const s = result.soak;
			R.table(
				`Activity Stream Trigger soak (${s.events} events pushed at ${s.rate}/s; n8n's resident memory sampled every ${SOAK_SAMPLE_MS / 1000} s)`,
				[
					'events',
					'runs',
					'missing / twice / not sent',
					'runs n8n did not start (asked for again)',
					"n8n's database pool timeouts / copies skipped for a duplicate key",
					'runs/s',
					'n8n CPU ms/event',
					'WAL bytes/event',
					'RSS after warm-up: first quarter -> last quarter (max), MiB',
					'RSS slope after warm-up, MiB per 10,000 events',
					'V8 heap used after warm-up: first quarter -> last quarter, MiB (slope per 10,000 events)',
					'record at the end: ids, bytes',
				],
				[
					[
						s.events,
						s.runs,
						`${s.missing} / ${s.twice} / ${s.foreign}`,
						s.runsNotStarted,
						`${s.poolTimeouts} / ${s.duplicateKeySkips}`,
						R.fmt(s.perSecond),
						R.fmt(s.cpuMsPerEvent),
						R.fmt(s.walPerEvent, 0),
						`${R.fmt(s.rssFirstQuarterMiB)} -> ${R.fmt(s.rssLastQuarterMiB)} (${R.fmt(s.rssMaxMiB)})`,
						R.fmt(s.rssSlopeMiBPer10k, 2),
						`${R.fmt(s.heapUsedFirstQuarterMiB)} -> ${R.fmt(s.heapUsedLastQuarterMiB)} (${R.fmt(s.heapUsedSlopeMiBPer10k, 2)})`,
						`${s.record.ids}, ${s.record.text} (${s.record.stored} stored)`,
					],
				],
				[
					"Warm-up: the first fifth of the samples. The trigger runs in n8n's main process: its memory is in this RSS; its record is read from the database.",
				],
			);
		}
		console.log(`raw figures: ${path.relative(H.ROOT, file)}`);
		if (failed) {
			console.error('stream benchmark: an event was lost, run twice, or a delivery refused');
			process.exitCode = 1;
		}
		P.print();
	} catch (error) {
		console.error('stream benchmark failed:', error && error.stack ? error.stack : error);
		process.exitCode = 1;
	} finally {
		await bench.finish(sandbox);
	}
}

module.exports = { main };
if (require.main === module) main().then(() => process.exit(process.exitCode || 0));
