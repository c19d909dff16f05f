#!/usr/bin/env node
'use strict';
/**
 * Capacity of the Platform Trigger in a real n8n 2.40.7, the figures behind "Running in production":
 * how many events per second one deployment acknowledges and runs, and how long the service's CRC
 * checks take at that load, for
 *
 *   - regular mode (one n8n process answers and runs; SQLite);
 *   - the production topology (queue mode on PostgreSQL: Redis, n8n main, two webhook processes behind
 *     the nginx recipe, workers; e2e/lib/instance.js): one webhook process with 1, 2 and 4 workers (the
 *     deliveries go to that process directly: its own capacity), then both webhook processes through
 *     the proxy with 4 workers;
 *   - exactly once under load: BENCH_CAPACITY_COUNT (2,000) signed deliveries of distinct events
 *     through the proxy, each of which must run once (0 lost, 0 twice, no database errors in the logs).
 *
 * Each timed row: BENCH_CAPACITY_CONCURRENCY (16) clients send signed deliveries (unique events, a
 * workflow of trigger -> HTTP Request sink) back to back for BENCH_CAPACITY_SECONDS (60; BENCH_QUICK=1:
 * 10), while CRC checks are sent one after the other and every answer is checked. Acknowledged/s is
 * what the webhook side absorbs; runs/s is finished runs over the time until the last run finished. One
 * table goes to bench/results/<date>.md (bench/report.js). BENCH_CAPACITY_SKIP_REGULAR=1 leaves out
 * regular mode. BENCH_LAZY=off (default) | on | both: every n8n process without / with
 * N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true, or every deployment in both (twice the time; each mode in
 * its own freshly started deployments). Off by default so that the rows stay comparable with the
 * earlier runs of this benchmark and its time stays as it was; bench/trigger.js measures both modes by
 * default. Exits 1 only when something failed: a delivery refused or lost or run twice, a wrong
 * CRC answer, a database error.
 */
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const http = require('node:http');

const H = require('../e2e/lib/host');
const F = require('../e2e/lib/fixtures');
const L = require('../e2e/lib/load');
const { Instance } = require('../e2e/lib/instance');
const { createSandbox } = require('../sandbox/server');
const R = require('./report');
const { lazyModes } = require('./pairing');

const QUICK = /^(1|true|yes)$/i.test(process.env.BENCH_QUICK || '');
const SECONDS = Number(process.env.BENCH_CAPACITY_SECONDS || (QUICK ? 10 : 60));
const CONCURRENCY = Number(process.env.BENCH_CAPACITY_CONCURRENCY || 16);
const WARMUP = Number(process.env.BENCH_WARMUP || 30);
const COUNT = Number(process.env.BENCH_CAPACITY_COUNT || 2000);
/** The service's retries in the fixed-count run (its real schedule is not published). */
const RETRY_DELAY_MS = 3000;
const RETRIES = 5;
/** BENCH_CAPACITY_ONLY=<text>: only the queue-mode cases whose label contains the text. */
const ONLY = process.env.BENCH_CAPACITY_ONLY || '';
const SKIP_REGULAR = /^(1|true|yes)$/i.test(process.env.BENCH_CAPACITY_SKIP_REGULAR || '');
const MODES = lazyModes(process.env.BENCH_LAZY, 'off');
/** Database errors in n8n's logs: SQLite's busy / locked, PostgreSQL's serialization and deadlocks. */
const DB_ERRORS =
	/SQLITE_BUSY|SQLITE_LOCKED|database is locked|deadlock detected|could not serialize|QueryFailedError/g;
/** The service gives a webhook 3 s to answer a CRC check. */
const CRC_DEADLINE_MS = 3000;
const WF_ID = 'benchCapacity001';
const SINK = 'bench-capacity';

function workflow(sandbox, typeVersion) {
	const trigger = F.node(
		'Platform Trigger',
		F.T.trigger,
		typeVersion,
		{ mode: 'activity', events: ['post.create'], user: sandbox.keys.userId, options: {} },
		[0, 0],
		{ webhookId: F.uuidFrom('bench-capacity'), credentials: F.credRef(F.CRED.bearer) },
	);
	return F.workflow(
		WF_ID,
		'bench capacity',
		[trigger, F.sinkNode('Record Run', sandbox.url, SINK, [300, 0])],
		F.chain(['Platform Trigger', 'Record Run']),
	);
}

/** CRC checks one after the other until `until()`; every answer checked. */
/**
 * Waits until the sink holds `acknowledged` runs. Runs finish after their answers; a run that has not
 * come 30 s after the previous one never will. Returns when the sink last grew.
 */
async function drainRuns(sink, acknowledged) {
	let seen = sink().length;
	let progress = Date.now();
	while (sink().length < acknowledged && Date.now() - progress < 30000) {
		await new Promise((r) => setTimeout(r, 100));
		if (sink().length !== seen) {
			seen = sink().length;
			progress = Date.now();
		}
	}
	return progress;
}

async function crcLoop(urls, sign, until) {
	const ms = [];
	let wrong = 0;
	const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
	for (let i = 0; !until(); i++) {
		const token = crypto.randomBytes(24).toString('base64url');
		const r = await L.request(`${urls[i % urls.length]}?crc_token=${token}`, { agent });
		ms.push(r.ms);
		let ok = false;
		try {
			ok = r.status === 200 && JSON.parse(r.text).response_token === sign(token);
		} catch {
			ok = false;
		}
		if (!ok) wrong++;
	}
	agent.destroy();
	return Object.assign(L.latencies(ms), {
		wrong,
		late: ms.filter((x) => x > CRC_DEADLINE_MS).length,
	});
}

/**
 * Signed deliveries at CONCURRENCY for `seconds` with CRC checks beside them; waits for every run. With
 * `pg` (a PostgreSQL deployment), also the write-ahead log the whole cluster wrote from the first
 * delivery until the last run finished, per acknowledged delivery (execution rows, the trigger's static
 * data, queue bookkeeping: every database byte a delivery costs, CRC checks included).
 */
async function measure(sandbox, urls, seconds, label, count, pg) {
	const sign = (b) => sandbox.signWebhook(b);
	// Only this measurement's events count: a webhook process started since the last delivery asks the
	// service to replay the gap on its first call, and those replayed events run too.
	const prefix = `capacity-${label}-${process.pid}-`;
	const sink = () =>
		((sandbox.sinks && sandbox.sinks[SINK]) || []).filter((s) =>
			String(F.eventIdOf(s.body)).startsWith(prefix),
		);
	const walFrom = pg ? pg.walLsn() : undefined;
	const end = Date.now() + seconds * 1000;
	let made = 0;
	// A fixed number of deliveries (`count`), or as many as `seconds` allow.
	const until = () => (count ? made >= count : Date.now() >= end);
	const started = Date.now();
	const [load, crc] = await Promise.all([
		L.closedLoop({
			clients: CONCURRENCY,
			until,
			make: (i) => {
				made++;
				const body = L.eventBody(`${prefix}${i}`, sandbox.keys.userId);
				return {
					url: urls[i % urls.length],
					method: 'POST',
					body,
					headers: { 'x-platform-webhooks-signature': sign(body) },
				};
			},
		}),
		crcLoop(urls, sign, until),
	]);
	const acknowledged = load.statuses[200] || 0;
	const progress = await drainRuns(sink, acknowledged);
	const ids = sink().map((x) => F.eventIdOf(x.body));
	const runs = new Set(ids).size;
	const drained = (progress - started) / 1000;
	const walBytes = pg ? pg.walBytesSince(walFrom) : undefined;
	return {
		walBytesPerDelivery: walBytes === undefined ? undefined : walBytes / Math.max(1, acknowledged),
		sent: load.sent,
		acknowledged,
		acknowledgedPerSecond: acknowledged / load.seconds,
		runs,
		runsPerSecond: runs / drained,
		drainSeconds: drained - load.seconds,
		refused: load.sent - acknowledged,
		lost: acknowledged - runs,
		twice: ids.length - runs,
		statuses: load.statuses,
		errors: load.errors,
		crc,
	};
}

/**
 * `count` signed deliveries of distinct events through `url` from CONCURRENCY clients, with the
 * service's retries: a delivery not acknowledged with 200 is sent again (the same bytes, the same
 * signature) after RETRY_DELAY_MS, at most RETRIES times. Returns what was sent, retried and
 * acknowledged, and the runs (each event must run once).
 */
async function deliverAll(sandbox, url, count, label) {
	const prefix = `capacity-${label}-${process.pid}-`;
	const sink = () =>
		((sandbox.sinks && sandbox.sinks[SINK]) || []).filter((s) =>
			String(F.eventIdOf(s.body)).startsWith(prefix),
		);
	const queue = Array.from({ length: count }, (_, i) => {
		const body = L.eventBody(`${prefix}${i}`, sandbox.keys.userId);
		return { body, signature: sandbox.signWebhook(body), attempt: 0 };
	});
	let inFlight = 0;
	let sent = 0;
	let acknowledged = 0;
	let unacknowledged = 0;
	const retried = new Set();
	const statuses = {};
	const started = Date.now();
	async function client() {
		const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
		for (;;) {
			const d = queue.shift();
			if (!d) {
				if (!inFlight) break;
				await new Promise((r) => setTimeout(r, 200));
				continue;
			}
			inFlight++;
			sent++;
			const r = await L.request(url, {
				method: 'POST',
				body: d.body,
				headers: { 'x-platform-webhooks-signature': d.signature },
				agent,
			});
			const key = r.status || r.error;
			statuses[key] = (statuses[key] || 0) + 1;
			if (r.status === 200) acknowledged++;
			else if (d.attempt < RETRIES) {
				d.attempt++;
				retried.add(d.body);
				setTimeout(() => {
					queue.push(d);
					inFlight--;
				}, RETRY_DELAY_MS);
				continue;
			} else unacknowledged++;
			inFlight--;
		}
		agent.destroy();
	}
	await Promise.all(Array.from({ length: CONCURRENCY }, client));
	const seconds = (Date.now() - started) / 1000;
	await drainRuns(sink, acknowledged);
	const ids = sink().map((x) => F.eventIdOf(x.body));
	const runs = new Set(ids).size;
	return {
		events: count,
		sent,
		retried: retried.size,
		acknowledged,
		unacknowledged,
		statuses,
		seconds,
		runs,
		lost: acknowledged - runs,
		twice: ids.length - runs,
	};
}

async function main() {
	const P = H.phases();
	const bench = H.benchWork('bench-capacity');
	const work = bench.dir;
	let sandbox;
	const rows = [];
	/** The exactly-once run of each mode. */
	const onces = [];
	const onSignal = () => H.stopAll().finally(() => process.exit(130));
	process.on('SIGINT', onSignal);
	process.on('SIGTERM', onSignal);
	try {
		const { tgz, missing } = await P.run('build and pack', () =>
			H.buildAndPack(path.join(work, 'pack')),
		);
		if (missing.some((m) => m.includes('PlatformTriggerPosts')))
			throw new Error('PlatformTrigger is not built: nothing to measure');
		const triggerVersion = F.benchTriggerVersion(
			F.describeInstalled(H.ROOT, 'platformTriggerPosts'),
		);
		H.log(`Platform Trigger saved at version ${triggerVersion}`);
		const host = await P.run('prepare n8n host', () => H.prepareHost());
		sandbox = await createSandbox({ quiet: true }).listen(0);

		for (const [mode, queue] of MODES.flatMap((m) =>
			(SKIP_REGULAR ? [true] : [false, true]).map((q) => [m, q]),
		)) {
			const lazy = mode.lazy ? '-lazy' : '';
			const inst = new Instance({
				host,
				dir: path.join(work, `${queue ? 'queue' : 'regular'}${lazy}`),
				tgz,
				sandbox,
				label: `${queue ? 'capacity-queue' : 'capacity-regular'}${lazy}`,
				queue,
				webhooks: 2,
				workers: 1,
			});
			const modeLabel = mode.lazy ? ', N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true' : '';
			await P.run(
				`${queue ? 'production topology (PostgreSQL, 2 webhook processes, nginx)' : 'regular mode'}${modeLabel}: install, import, publish, start`,
				async () => {
					await inst.setup({
						workflows: [workflow(sandbox, triggerVersion)],
						publish: [WF_ID],
						extraEnv: mode.env,
					});
					await inst.start();
				},
			);
			const hook = await H.waitFor(
				'the trigger to register its webhook',
				() =>
					[...sandbox.db.webhooks.values()].find(
						(w) => w.valid && w.url.includes(`:${inst.webhookPort}/`),
					),
				{ timeoutMs: 90000 },
			);
			const url = hook.url.replace('//localhost:', '//127.0.0.1:');
			const cases = queue
				? [
						{
							label: 'queue, PostgreSQL: 1 webhook process, 1 worker',
							urls: [inst.directUrl(0, url)],
							workers: 1,
						},
						{
							label: 'queue, PostgreSQL: 1 webhook process, 2 workers',
							urls: [inst.directUrl(0, url)],
							workers: 2,
						},
						{
							label: 'queue, PostgreSQL: 1 webhook process, 4 workers',
							urls: [inst.directUrl(0, url)],
							workers: 4,
						},
						{
							label: 'queue, PostgreSQL: 2 webhook processes behind nginx, 4 workers',
							urls: [url],
							workers: 4,
						},
					]
				: [{ label: 'regular mode (1 process, SQLite)', urls: [url] }];
			for (const c of cases) c.label += modeLabel;
			for (const c of cases.filter((x) => !queue || x.label.includes(ONLY))) {
				for (let i = inst.workerCount; i < (c.workers || 0); i++) await inst.startWorker(i);
				const what = c.count ? `${c.count} deliveries` : `warm-up and ${SECONDS} s of deliveries`;
				await P.run(`${c.label}: ${what}`, async () => {
					if (!c.count)
						await measure(
							sandbox,
							c.urls,
							Math.max(2, WARMUP / 10),
							`warm-${c.label.replace(/\W+/g, '-')}`,
						);
					const m = await measure(
						sandbox,
						c.urls,
						SECONDS,
						c.label.replace(/\W+/g, '-'),
						c.count,
						queue ? inst.pg : undefined,
					);
					rows.push(Object.assign({ label: c.label }, m));
					H.log(
						`${c.label}: ${m.sent} sent, ${m.acknowledgedPerSecond.toFixed(1)} acknowledged/s, ${m.runsPerSecond.toFixed(1)} runs/s, CRC p50 ${m.crc.p50.toFixed(0)} ms p99 ${m.crc.p99.toFixed(0)} ms (${m.crc.n}), ${m.refused} refused, ${m.lost} lost, ${m.twice} ran twice`,
					);
				});
			}
			if (queue) {
				for (let i = inst.workerCount; i < 4; i++) await inst.startWorker(i);
				const once = await P.run(
					`${COUNT} deliveries through nginx with the service's retries${modeLabel}`,
					() => deliverAll(sandbox, url, COUNT, `once${lazy}`),
				);
				onces.push(Object.assign(once, { mode: modeLabel }));
				H.log(
					`exactly once: ${once.events} events, ${once.sent} deliveries sent (${once.retried} events retried), ${once.acknowledged} acknowledged, ${once.unacknowledged} never acknowledged, ${once.runs} runs, ${once.lost} lost, ${once.twice} ran twice in ${once.seconds.toFixed(0)} s; answers ${JSON.stringify(once.statuses)}`,
				);
			}
			// Database errors of any n8n process of this deployment (the SQLite rows of earlier versions lost runs to them).
			const dbErrors = require('node:fs')
				.readdirSync(inst.logDir)
				.filter((f) => f.startsWith('n8n-'))
				.reduce(
					(n, f) =>
						n +
						(
							require('node:fs').readFileSync(path.join(inst.logDir, f), 'utf8').match(DB_ERRORS) ||
							[]
						).length,
					0,
				);
			for (const r of rows.filter((r) => r.dbErrors === undefined)) r.dbErrors = dbErrors;
			for (const o of onces.filter((o) => o.dbErrors === undefined)) o.dbErrors = dbErrors;
			H.log(`${queue ? 'queue' : 'regular'} mode: ${dbErrors} database errors in n8n's logs`);
			await P.run(`${queue ? 'queue' : 'regular'} mode: stop`, () => inst.stop());
		}

		R.table(
			`Capacity of the Platform Trigger (n8n ${H.N8N_VERSION}, ${os.cpus().length} cores, ${CONCURRENCY} clients sending signed deliveries for ${SECONDS} s, CRC checks one after the other beside them; load average ${os
				.loadavg()
				.map((l) => l.toFixed(1))
				.join(' ')} at the end)`,
			[
				'deployment',
				'events acknowledged/s',
				'runs finished/s',
				'CRC p50 ms',
				'CRC p99 ms',
				'CRC checks (wrong, over 3 s)',
				'sent / refused / lost / ran twice',
				'database errors in the logs',
				'PostgreSQL WAL bytes per delivery',
			],
			rows.map((r) => [
				r.label,
				R.fmt(r.acknowledgedPerSecond),
				`${R.fmt(r.runsPerSecond)}${r.drainSeconds > 1 ? ` (last run ${R.fmt(r.drainSeconds, 0)} s after the load)` : ''}`,
				R.fmt(r.crc.p50, 0),
				R.fmt(r.crc.p99, 0),
				`${r.crc.n} (${r.crc.wrong}, ${r.crc.late})`,
				`${r.sent} / ${r.refused} / ${r.lost} / ${r.twice}`,
				String(r.dbErrors),
				r.walBytesPerDelivery === undefined ? '(SQLite)' : R.fmt(r.walBytesPerDelivery, 0),
			]),
			[
				'Every process of a row shares the same cores: n8n main, workers, webhook processes, PostgreSQL, Redis, nginx, the sandbox and the clients. Two cores show what one webhook process costs and what a worker adds while a core is free; they cannot show how the figures scale, because every extra process takes its CPU from the others. To scale, run the webhook processes and the workers on more cores or machines.',
				'The "1 webhook process" rows send to that process directly (its own capacity); the "behind nginx" rows go through the recipe, which routes every copy of one delivery to the same webhook process.',
				"The workflow is the trigger and one HTTP Request node; the runs column is what a light workflow allows, a heavier one lowers it (in queue mode only the workers' share).",
				"PostgreSQL WAL bytes per delivery: everything the cluster logged from the row's first delivery until its last run finished (execution rows, the trigger's static data, CRC checks and n8n's own bookkeeping included), divided by the deliveries acknowledged.",
				"The CRC p99 is at full load: a deployment that runs near its acknowledged/s leaves the service's CRC checks that long; keep it well under 3 s.",
			],
		);
		if (onces.length) {
			R.table(
				`Exactly once under load (production topology on PostgreSQL: 2 webhook processes behind nginx, 4 workers; ${CONCURRENCY} clients; a delivery not acknowledged is sent again after ${RETRY_DELAY_MS / 1000} s, at most ${RETRIES} times, as the service re-sends it)`,
				[
					'n8n setting',
					'events',
					'deliveries sent',
					'events retried',
					'acknowledged',
					'runs',
					'lost',
					'ran twice',
					'answers',
					'seconds',
					'database errors in the logs',
				],
				onces.map((once) => [
					once.mode ? once.mode.slice(2) : 'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE unset',
					once.events,
					once.sent,
					once.retried,
					once.acknowledged,
					once.runs,
					once.lost,
					once.twice,
					JSON.stringify(once.statuses),
					R.fmt(once.seconds, 0),
					String(once.dbErrors),
				]),
			);
		}
		const failed =
			rows.some((r) => r.refused || r.lost || r.twice || r.crc.wrong || r.dbErrors) ||
			onces.some(
				(once) =>
					once.lost ||
					once.twice ||
					once.unacknowledged ||
					once.dbErrors ||
					once.runs !== once.events,
			);
		if (failed) {
			console.error(
				'capacity benchmark: a delivery was refused, lost or run twice, or a CRC answer was wrong',
			);
			process.exitCode = 1;
		}
		P.print();
	} catch (error) {
		console.error('capacity benchmark failed:', error && error.stack ? error.stack : error);
		process.exitCode = 1;
	} finally {
		await bench.finish(sandbox);
	}
}

main().then(() => process.exit(process.exitCode || 0));
