#!/usr/bin/env node
'use strict';
/**
 * Database bytes per delivery, in a real n8n 2.40.7 on PostgreSQL 17 (the harness's throwaway cluster,
 * e2e/lib/instance.js, regular mode: one n8n process that answers and runs; queue mode writes the same
 * rows from other processes). For each side, a burst of BENCH_WAL_DELIVERIES (100) signed deliveries of
 * distinct events at BENCH_WAL_CONCURRENCY (4) in flight; the burst ends when the sink holds every run
 * and n8n has saved its executions (BENCH_WAL_SETTLE_MS, 2,000 ms, later). Then:
 *
 *   - WAL bytes per delivery: pg_wal_lsn_diff(pg_current_wal_lsn() after, before) ÷ deliveries: every
 *     byte the cluster logged meanwhile (the execution rows, the static data, indexes, TOAST);
 *   - static data bytes written per delivery: the workflow row's updates in the burst
 *     (pg_stat_user_tables.n_tup_upd of workflow_entity) times the size of its "staticData" column
 *     after the burst, as text (octet_length) and as stored (pg_column_size, after PostgreSQL's
 *     compression), ÷ deliveries. n8n rewrites the whole column whenever a run marks it changed.
 *
 * Sides, all ending in the same HTTP Request node to a sandbox sink, all saving their executions as
 * n8n does by default: n8n's Webhook node v1, and the Platform Trigger with 0, 500 and 2,000 event ids
 * already in its duplicate record when the burst starts (the record grows by the burst's ids, up to
 * its bound of 2,000). Every round gives each trigger side a workflow of its own whose static data is
 * seeded before activation (imported with the workflow, in the oldest persisted form: a JSON string of
 * [id, time] pairs, which every version reads), so that each burst starts from exactly that record.
 *
 * Rounds (bench/pairing.js): BENCH_ROUNDS (4, rounded up to even), in each the 2,000-id trigger and
 * Webhook v1 back to back, each first in every other round, the other sides rotating around them; each
 * ratio is the median over rounds of (trigger side's WAL bytes per delivery ÷ Webhook v1's in the same
 * round). The background (n8n and PostgreSQL idle for as long as a burst's settling) is measured once
 * per round and reported, not subtracted. Target (issue #39): WAL bytes per delivery with 2,000 ids
 * within 1.5× of Webhook v1's. Raw figures go to bench/results/wal-<time>.json and the table to
 * bench/results/<date>.md. BENCH_WAL_TGZ=<packed build> measures that build instead of building this
 * working tree (e.g. the build before a change, packed with H.buildAndPack). Exits 1 only when a
 * delivery failed or a run is missing.
 */
const fs = require('node:fs');
const path = require('node:path');

const H = require('../e2e/lib/host');
const F = require('../e2e/lib/fixtures');
const L = require('../e2e/lib/load');
const { Instance } = require('../e2e/lib/instance');
const { createSandbox } = require('../sandbox/server');
const R = require('./report');
const { evenRounds, roundOrder, median, pairedRatio, lazyModes } = require('./pairing');

const ROUND_PLAN = evenRounds(process.env.BENCH_ROUNDS || 4);
const ROUNDS = ROUND_PLAN.rounds;
const DELIVERIES = Number(process.env.BENCH_WAL_DELIVERIES || 100);
const CONCURRENCY = Number(process.env.BENCH_WAL_CONCURRENCY || 4);
const SETTLE_MS = Number(process.env.BENCH_WAL_SETTLE_MS || 2000);
/**
 * BENCH_LAZY=off (default) or on: n8n without or with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true. It
 * matters to the trigger's record: n8n takes an expression isolate before a webhook node sees the
 * request unless lazy acquire is on, and the record's group commit sees only the deliveries that have
 * reached the node. One mode per run.
 */
const LAZY_MODES = lazyModes(process.env.BENCH_LAZY, 'off');
if (LAZY_MODES.length !== 1)
	throw new Error('bench/wal.js measures one mode per run: BENCH_LAZY=off or on');
const [LAZY] = LAZY_MODES;
/**
 * PostgreSQL's backends report their table counters when idle, at the latest 10 s after their last
 * transaction: n_tup_upd is read this long after the burst.
 */
const STATS_SETTLE_MS = 11000;
const WARMUP = Number(process.env.BENCH_WARMUP || 20);
const TARGET = 1.5;
const SIZES = [0, 500, 2000];
const ISOLATE = 'isolate';
const sideKey = (ids) => `trigger${ids}`;
const HEADLINE = [sideKey(2000), ISOLATE];

/** Event ids as the service makes them (19 digits), unique per run of this benchmark. */
let seq = 0;
const base = BigInt(Date.now()) * 1000000n;
const nextId = () => String(base + BigInt(++seq));

function triggerWorkflow(sandbox, description, ids, round) {
	const name = `wal-t${ids}-r${round}`;
	const id = `walTrig${String(ids).padStart(4, '0')}r${String(round).padStart(2, '0')}`.slice(
		0,
		16,
	);
	const wf = F.triggerToSink(id, name, {
		userId: sandbox.keys.userId,
		webhookId: F.uuidFrom(name),
		description,
		sandboxUrl: sandbox.url,
		sink: name,
		typeVersion: F.benchTriggerVersion(description),
	});
	if (ids) {
		// Seen 10 minutes ago, one id per 10 ms: well inside the record's 26 hours.
		const at = Date.now() - 10 * 60000;
		const pairs = Array.from({ length: ids }, (_, i) => [nextId(), at + i * 10]);
		wf.staticData = { 'node:Platform Trigger': { seen: JSON.stringify(pairs) } };
	}
	return { wf, sink: name, webhookId: F.uuidFrom(name) };
}

const lsn = (inst) => inst.pg.walLsn();
const walSince = (inst, from) => inst.pg.walBytesSince(from);
const updates = (inst) => inst.pg.workflowUpdates();
const staticDataSize = (inst, workflowId) => inst.pg.staticDataSize(workflowId);

/** The number of ids the persisted record holds (read by the built node's own reader). */
function recordSize(inst, workflowId) {
	const state = require(
		path.join(inst.installed.pkgDir, 'dist', 'nodes', 'triggers', 'webhook', 'state.js'),
	);
	const data = inst.staticData(workflowId) || {};
	return state.persistedIds(data['node:Platform Trigger'] || {}).length;
}

/** `n` signed deliveries of new events to `url`, then waits for their runs and n8n's saves. */
async function burst(sandbox, url, sink, n) {
	const runs = () => ((sandbox.sinks && sandbox.sinks[sink]) || []).length;
	const before = runs();
	let made = 0;
	const load = await L.closedLoop({
		clients: CONCURRENCY,
		until: () => made >= n,
		make: () => {
			made++;
			const body = L.eventBody(nextId(), sandbox.keys.userId);
			return {
				url,
				method: 'POST',
				body,
				headers: { 'x-platform-webhooks-signature': sandbox.signWebhook(body) },
			};
		},
	});
	const acknowledged = load.statuses[200] || 0;
	await H.waitFor(`${acknowledged} runs in sink ${sink}`, () => runs() - before >= acknowledged, {
		timeoutMs: 120000,
		intervalMs: 100,
	}).catch(() => undefined);
	await new Promise((r) => setTimeout(r, SETTLE_MS));
	return { sent: load.sent, acknowledged, runs: runs() - before };
}

async function main() {
	const P = H.phases();
	const bench = H.benchWork('bench-wal');
	const work = bench.dir;
	let sandbox;
	const onSignal = () => H.stopAll().finally(() => process.exit(130));
	process.on('SIGINT', onSignal);
	process.on('SIGTERM', onSignal);
	try {
		if (ROUND_PLAN.roundedUp)
			H.log(`BENCH_ROUNDS=${ROUND_PLAN.requested} is odd: running ${ROUNDS} rounds`);
		let tgz = process.env.BENCH_WAL_TGZ;
		if (!tgz) {
			const built = await P.run('build and pack', () => H.buildAndPack(path.join(work, 'pack')));
			if (built.missing.some((m) => m.includes('PlatformTriggerPosts')))
				throw new Error('PlatformTrigger is not built: nothing to measure');
			tgz = built.tgz;
		}
		const host = await P.run('prepare n8n host', () => H.prepareHost());
		// One webhook per trigger workflow: more than the service's default limit of 5 per app.
		sandbox = await createSandbox({ quiet: true, webhookLimit: 4 * (ROUNDS + 1) }).listen(0);
		const inst = new Instance({
			host,
			dir: path.join(work, 'regular-pg'),
			tgz,
			sandbox,
			label: 'wal',
			postgres: true,
		});
		inst.installed = H.installPackage(inst.userFolder, tgz);
		const description = F.describeInstalled(inst.installed.pkgDir, 'platformTriggerPosts');
		const triggers = {};
		for (const ids of SIZES)
			triggers[ids] = Array.from({ length: ROUNDS + 1 }, (_, r) =>
				triggerWorkflow(sandbox, description, ids, r),
			);
		const isolate = F.benchIsolateWorkflow(sandbox.url);
		const workflows = [isolate, ...Object.values(triggers).flatMap((t) => t.map((x) => x.wf))];
		await P.run('regular mode on PostgreSQL: install, import, publish, start', async () => {
			await inst.setup({ workflows, publish: workflows.map((w) => w.id), extraEnv: LAZY.env });
			await inst.start();
		});
		const hookUrl = (webhookId) =>
			H.waitFor(
				`the trigger at ${webhookId} to register its webhook`,
				() => {
					const h = [...sandbox.db.webhooks.values()].find(
						(w) => w.valid && w.url.includes(webhookId),
					);
					return h && h.url.replace('//localhost:', '//127.0.0.1:');
				},
				{ timeoutMs: 120000 },
			);
		for (const t of Object.values(triggers).flat()) t.url = await hookUrl(t.webhookId);
		const isolateUrl = inst.webhookUrl(F.BENCH_ISOLATE_PATH);
		await H.waitFor(
			'Webhook v1 to be active',
			async () => (await L.request(isolateUrl, { method: 'POST', body: '{}' })).status === 200,
			{ timeoutMs: 60000 },
		);
		const seeded = SIZES.map((ids) => [ids, recordSize(inst, triggers[ids][0].wf.id)]);
		H.log(`seeded records before any delivery: ${JSON.stringify(seeded)}`);
		for (const [ids, size] of seeded)
			if (size !== ids) throw new Error(`the ${ids}-id record holds ${size} ids after activation`);

		// Warm-up: the last workflow of each trigger size (never measured) and Webhook v1.
		await P.run('warm-up', async () => {
			for (const ids of SIZES) {
				const t = triggers[ids][ROUNDS];
				await burst(sandbox, t.url, t.sink, WARMUP);
			}
			await burst(sandbox, isolateUrl, 'bench-isolate', WARMUP);
		});

		const keys = [ISOLATE, ...SIZES.map(sideKey)];
		const result = {
			n8n: H.N8N_VERSION,
			postgres: inst.pg.version,
			mode: 'regular (one n8n process) on PostgreSQL',
			lazyAcquire: LAZY.lazy,
			triggerVersion: F.benchTriggerVersion(description),
			deliveries: DELIVERIES,
			concurrency: CONCURRENCY,
			rounds: ROUNDS,
			order: [],
			background: [],
			sides: Object.fromEntries(keys.map((k) => [k, { rounds: [] }])),
		};
		let failed = false;
		await P.run(`${ROUNDS} rounds x ${DELIVERIES} deliveries per side`, async () => {
			for (let r = 0; r < ROUNDS; r++) {
				// The background: nothing delivered for as long as a burst settles.
				const idleFrom = lsn(inst);
				await new Promise((res) => setTimeout(res, SETTLE_MS + STATS_SETTLE_MS));
				result.background.push(walSince(inst, idleFrom) / ((SETTLE_MS + STATS_SETTLE_MS) / 1000));
				const order = roundOrder(keys, r, HEADLINE);
				result.order.push(order);
				for (const key of order) {
					const t = key === ISOLATE ? undefined : triggers[Number(key.slice(7))][r];
					const url = t ? t.url : isolateUrl;
					const sink = t ? t.sink : 'bench-isolate';
					const updBefore = updates(inst);
					const from = lsn(inst);
					const b = await burst(sandbox, url, sink, DELIVERIES);
					const wal = walSince(inst, from);
					await new Promise((res) => setTimeout(res, STATS_SETTLE_MS));
					const rowUpdates = updates(inst) - updBefore;
					const size = t ? staticDataSize(inst, t.wf.id) : { text: 0, stored: 0 };
					const row = {
						round: r,
						...b,
						walBytes: wal,
						walPerDelivery: wal / b.acknowledged,
						workflowRowUpdates: rowUpdates,
						staticDataText: size.text,
						staticDataStored: size.stored,
						staticTextPerDelivery: (rowUpdates * size.text) / b.acknowledged,
						staticStoredPerDelivery: (rowUpdates * size.stored) / b.acknowledged,
						recordAfter: t ? recordSize(inst, t.wf.id) : undefined,
					};
					if (b.acknowledged !== DELIVERIES || b.runs !== b.acknowledged) failed = true;
					result.sides[key].rounds.push(row);
					H.log(
						`round ${r + 1} ${key}: ${R.fmt(row.walPerDelivery, 0)} WAL bytes/delivery, ${rowUpdates} workflow row updates, staticData ${size.text} bytes (${size.stored} stored), record ${row.recordAfter ?? '-'} ids after; ${b.acknowledged}/${b.sent} acknowledged, ${b.runs} runs`,
					);
				}
			}
		});
		const of = (key, k) => median(result.sides[key].rounds.map((x) => x[k]));
		const perRound = (key) => result.sides[key].rounds.map((x) => x.walPerDelivery);
		result.ratios = Object.fromEntries(
			SIZES.map((ids) => [sideKey(ids), pairedRatio(perRound(sideKey(ids)), perRound(ISOLATE))]),
		);
		const headline = result.ratios[sideKey(2000)];
		result.target = { ratio: TARGET, met: headline.median <= TARGET };
		const outDir = path.join(H.ROOT, 'bench', 'results');
		fs.mkdirSync(outDir, { recursive: true });
		const file = path.join(outDir, `wal-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
		fs.writeFileSync(file, JSON.stringify(result, null, 2));
		const label = (key) =>
			key === ISOLATE
				? "n8n's Webhook node v1"
				: `Platform Trigger, ${key.slice(7)} ids in its record at the start`;
		R.table(
			`Database bytes per delivery (n8n ${result.n8n}, ${result.mode} ${result.postgres}, ${LAZY.lazy ? 'with' : 'without'} lazy acquire, Platform Trigger version ${result.triggerVersion}, ${DELIVERIES} deliveries x ${ROUNDS} rounds per side, ${CONCURRENCY} in flight; background ${result.background.map((x) => R.fmt(x / 1024, 1)).join(' / ')} KiB/s idle)`,
			[
				'side',
				'WAL bytes per delivery: median (each round)',
				'÷ Webhook v1: median of the rounds (each round)',
				'static data bytes written per delivery, text (stored)',
				'staticData column after the burst, text (stored)',
				'ids in the record after',
			],
			keys.map((key) => {
				const q = result.ratios[key];
				return [
					label(key),
					`${R.fmt(of(key, 'walPerDelivery'), 0)} (${perRound(key)
						.map((x) => R.fmt(x, 0))
						.join(' / ')})`,
					q ? `${R.fmt(q.median, 2)} (${q.perRound.map((x) => R.fmt(x, 2)).join(' / ')})` : '',
					`${R.fmt(of(key, 'staticTextPerDelivery'), 0)} (${R.fmt(of(key, 'staticStoredPerDelivery'), 0)})`,
					key === ISOLATE
						? ''
						: `${R.fmt(of(key, 'staticDataText'), 0)} (${R.fmt(of(key, 'staticDataStored'), 0)})`,
					key === ISOLATE ? '' : R.fmt(of(key, 'recordAfter'), 0),
				];
			}),
			[
				`Target: WAL bytes per delivery with 2,000 ids within ${TARGET}x of Webhook v1's: ${R.fmt(headline.median, 2)}, ${result.target.met ? 'met' : 'NOT met'}.`,
				`Order of the rounds: ${result.order.map((o) => o.join(', ')).join(' | ')}.`,
				'The harness runs PostgreSQL with fsync, synchronous_commit and full_page_writes off: WAL holds no full-page images here, so a production cluster logs more for every side.',
			],
		);
		console.log(`raw figures: ${path.relative(H.ROOT, file)}`);
		if (failed) {
			console.error('wal benchmark: a delivery was refused or a run is missing');
			process.exitCode = 1;
		}
		P.print();
	} catch (error) {
		console.error('wal benchmark failed:', error && error.stack ? error.stack : error);
		process.exitCode = 1;
	} finally {
		await bench.finish(sandbox);
	}
}

main().then(() => process.exit(process.exitCode || 0));
