#!/usr/bin/env node
'use strict';
/**
 * Ads Catalog push inside a real n8n 2.40.7 (regular mode) against the sandbox:
 *
 *   - versus the HTTP Request node: BENCH_COMPARE_PRODUCTS (1,000) products, the sandbox answering every
 *     request after BENCH_DELAY_MS (50 ms), BENCH_COMPARE_ROUNDS (3) rounds in rotating order, medians.
 *     Ads Catalog -> Push version 2 (batches of 25, the pace following the rate-limit headers) and
 *     version 1 (4 batches at once) against an HTTP Request node sending one product per PUT (what a user
 *     without this package builds, with the node's default batching). Requests (the floor: ceil(N/25)
 *     PUTs), 429 answers and wall time of each (targets: >= 25x fewer requests, >= 10x less wall time);
 *   - memory at scale: BENCH_SCALE_PRODUCTS ("10000,100000") products through Ads Catalog -> Push, and
 *     the same workflow with a No Operation node in place of the push (what n8n itself needs to hold the
 *     items), each in a freshly started n8n, the sandbox answering after BENCH_SCALE_DELAY_MS (0 ms).
 *     Peak RSS of n8n's main process (VmHWM) and wall time (targets: the largest run <= 1.1x per product
 *     of the smallest; push peak RSS <= 1.5x No Operation's).
 *
 * Wall time is the duration of the call to the workflow's Webhook, which answers when the last node is
 * done. Exits 1 only when something failed: a product not stored, a run that did not finish.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const http = require('node:http');

const H = require('../e2e/lib/host');
const F = require('../e2e/lib/fixtures');
const { Instance } = require('../e2e/lib/instance');
const { createSandbox } = require('../sandbox/server');
const R = require('./report');

const COMPARE_PRODUCTS = Number(process.env.BENCH_COMPARE_PRODUCTS || 1000);
const COMPARE_ROUNDS = Math.max(1, Number(process.env.BENCH_COMPARE_ROUNDS || 3));
const DELAY_MS = Number(process.env.BENCH_DELAY_MS || 50);
const SCALE = String(process.env.BENCH_SCALE_PRODUCTS || '10000,100000')
	.split(',')
	.map(Number)
	.filter((n) => n > 0);
const SCALE_DELAY_MS = Number(process.env.BENCH_SCALE_DELAY_MS || 0);

/** Calls a benchmark workflow's Webhook; no client timeout (a 100,000-product run takes minutes). */
function call(url, body) {
	return new Promise((resolve) => {
		const text = JSON.stringify(body);
		const started = process.hrtime.bigint();
		const req = http.request(
			url,
			{
				method: 'POST',
				headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
			},
			(res) => {
				let out = '';
				res.on('data', (c) => (out += c));
				res.on('end', () =>
					resolve({
						status: res.statusCode,
						text: out,
						ms: Number(process.hrtime.bigint() - started) / 1e6,
					}),
				);
			},
		);
		req.on('error', (error) =>
			resolve({
				status: 0,
				text: error.message,
				ms: Number(process.hrtime.bigint() - started) / 1e6,
			}),
		);
		req.end(text);
	});
}

/** A field of /proc/<pid>/status in MiB (VmRSS: now, VmHWM: peak since the process started). */
function procMiB(pid, field) {
	const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
		fs.readFileSync(`/proc/${pid}/status`, 'utf8'),
	);
	return m ? Number(m[1]) / 1024 : NaN;
}

async function main() {
	const P = H.phases();
	const bench = H.benchWork('bench-catalog-n8n');
	const work = bench.dir;
	let sandbox;
	let inst;
	const onSignal = () => H.stopAll().finally(() => process.exit(130));
	process.on('SIGINT', onSignal);
	process.on('SIGTERM', onSignal);
	const problems = [];
	try {
		const { tgz } = await P.run('build and pack', () => H.buildAndPack(path.join(work, 'pack')));
		const host = await P.run('prepare n8n host', () => H.prepareHost());
		sandbox = await createSandbox({ quiet: true }).listen(0);
		inst = new Instance({ host, dir: work, tgz, sandbox, label: 'bench-catalog' });
		const KINDS = ['push', 'push1', 'http', 'noop'];
		const workflows = KINDS.map((k) => F.benchCatalogWorkflow(k, sandbox.url));
		// The Code node generating 100,000 products runs in n8n's task runner: give it time on a slow machine.
		await P.run('install, import, publish', () =>
			inst.setup({
				workflows,
				publish: workflows.map((w) => w.id),
				credentials: F.benchCredentials(sandbox.url, sandbox.keys),
				extraEnv: { EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'none', N8N_RUNNERS_TASK_TIMEOUT: '3600' },
			}),
		);

		const ads = sandbox.db.ads;
		/** A fresh catalog per run, so that every run creates every product (no NO_CHANGE shortcut). */
		const newCatalog = () => {
			const c = { id: sandbox.newId(), name: 'Benchmark', owner: sandbox.keys.userId };
			ads.catalogs.set(c.id, c);
			ads.products.set(c.id, new Map());
			return c.id;
		};
		/** Runs one workflow over `count` products; requests counted and products checked in the sandbox. */
		async function measure(kind, count) {
			const catalogId = newCatalog();
			const since = sandbox.seq;
			const r = await call(inst.webhookUrl(`bench-catalog-${kind}`), { count, catalogId });
			const puts = sandbox.records.filter(
				(x) => x.seq > since && x.method === 'PUT' && x.path.endsWith('/products'),
			);
			const stored = ads.products.get(catalogId).size;
			const row = {
				kind,
				count,
				status: r.status,
				ms: r.ms,
				requests: puts.length,
				failedRequests: puts.filter((x) => x.status !== 200).length,
				refused429: puts.filter((x) => x.status === 429).length,
				stored,
			};
			if (r.status !== 200)
				problems.push(
					`${kind} ${count}: the run did not finish (${r.status} ${r.text.slice(0, 300)})`,
				);
			if (kind !== 'noop' && stored !== count)
				problems.push(`${kind} ${count}: ${stored} of ${count} products stored`);
			H.log(
				`${kind} ${count}: ${(r.ms / 1000).toFixed(2)} s, ${puts.length} requests, ${stored} stored`,
			);
			return row;
		}
		async function startFresh() {
			await inst.stopN8n();
			await inst.start();
			// n8n registers the Webhooks in the background after start-up (404 until then). A one-product call
			// also warms each workflow up; a workflow that fails here fails its measured run too, reported there.
			for (const w of KINDS)
				await H.waitFor(
					`bench-catalog-${w} to be registered`,
					async () =>
						![0, 404].includes(
							(
								await call(inst.webhookUrl(`bench-catalog-${w}`), {
									count: 1,
									catalogId: newCatalog(),
								})
							).status,
						),
					{ timeoutMs: 60000 },
				);
		}

		const result = { n8n: H.N8N_VERSION, node: host.nodeVersion, cores: os.cpus().length };
		await P.run('start n8n', () => startFresh());

		const median = (xs) => {
			const v = [...xs].sort((a, b) => a - b);
			return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
		};
		const SIDES = ['push', 'push1', 'http'];
		const runs = { push: [], push1: [], http: [] };
		await P.run(
			`push vs HTTP Request: ${COMPARE_PRODUCTS} products, ${DELAY_MS} ms per request, ${COMPARE_ROUNDS} rounds`,
			async () => {
				sandbox.faults.latencyMs = DELAY_MS;
				for (let round = 0; round < COMPARE_ROUNDS; round++) {
					// Rotating order: no side always runs first (warm-up) or last.
					const order = SIDES.map((_, i) => SIDES[(i + round) % SIDES.length]);
					for (const kind of order) runs[kind].push(await measure(kind, COMPARE_PRODUCTS));
				}
				sandbox.faults.latencyMs = 0;
			},
		);
		const summary = (kind) => {
			const list = runs[kind];
			return {
				ms: median(list.map((x) => x.ms)),
				requests: median(list.map((x) => x.requests)),
				failedRequests: Math.max(...list.map((x) => x.failedRequests)),
				refused429: Math.max(...list.map((x) => x.refused429)),
				stored: Math.min(...list.map((x) => x.stored)),
				runs: list,
			};
		};
		result.compare = { push: summary('push'), push1: summary('push1'), http: summary('http') };
		const c = result.compare;
		const floor = Math.ceil(COMPARE_PRODUCTS / 25);
		const fewer = c.http.requests / Math.max(1, c.push.requests);
		const faster = c.http.ms / c.push.ms;
		const pushRow = (label, x) => [
			label,
			`${x.requests} (floor ${floor}: ${x.requests === floor ? 'at the floor' : 'ABOVE the floor'})`,
			x.refused429,
			x.failedRequests,
			x.stored,
			R.fmt(x.ms / 1000, 2),
			`${R.fmt(c.http.requests / Math.max(1, x.requests))}x requests, ${R.fmt(c.http.ms / x.ms)}x time`,
		];
		R.table(
			`Catalog push vs HTTP Request node (n8n ${result.n8n}, ${result.cores} cores, ${COMPARE_PRODUCTS} products, sandbox answers after ${DELAY_MS} ms, median of ${COMPARE_ROUNDS} rounds in rotating order)`,
			[
				'workflow',
				'PUT requests',
				'429 answers (most in a round)',
				'failed requests',
				'products stored (fewest in a round)',
				'wall time s',
				'HTTP Request ÷ this',
			],
			[
				pushRow('Ads Catalog → Push v2 (batches of 25, pace from the rate-limit headers)', c.push),
				pushRow('Ads Catalog → Push v1 (batches of 25, 4 at once)', c.push1),
				[
					'HTTP Request, one product per PUT (default batching)',
					c.http.requests,
					c.http.refused429,
					c.http.failedRequests,
					c.http.stored,
					R.fmt(c.http.ms / 1000, 2),
					'',
				],
			],
			[
				`Push v2 against HTTP Request: ${R.fmt(fewer)}x fewer requests (target >= 25x: ${fewer >= 25 ? 'met' : 'NOT met'}), ${R.fmt(faster)}x less time (target >= 10x: ${faster >= 10 ? 'met' : 'NOT met'}).`,
				`Wall times per round (s): ${SIDES.map((k) => `${k} ${runs[k].map((x) => R.fmt(x.ms / 1000, 2)).join(' / ')}`).join('; ')}.`,
				'All workflows: Webhook → Code (generates the products) → the node under test; the Webhook answers when the run is done.',
			],
		);

		result.scale = [];
		sandbox.faults.latencyMs = SCALE_DELAY_MS;
		for (const count of SCALE) {
			for (const kind of ['noop', 'push']) {
				await P.run(`memory: ${kind} ${count} products in a fresh n8n`, async () => {
					await startFresh();
					const pid = inst.procs.main.pid;
					// After start-up and the one-product warm-up calls; VmHWM below is the peak since the start.
					const idle = procMiB(pid, 'VmRSS');
					const row = await measure(kind, count);
					Object.assign(row, { idleRssMiB: idle, peakRssMiB: procMiB(pid, 'VmHWM') });
					result.scale.push(row);
				});
			}
		}
		sandbox.faults.latencyMs = 0;
		const row = (kind, count) => result.scale.find((x) => x.kind === kind && x.count === count);
		const smallest = Math.min(...SCALE);
		// BENCH_SCALE_PRODUCTS=0 skips the memory runs.
		if (SCALE.length)
			R.table(
				`Memory and time at scale (regular mode, fresh n8n per row, sandbox answers after ${SCALE_DELAY_MS} ms)`,
				[
					'workflow',
					'products',
					'wall time s',
					`time ÷ ${smallest} run's`,
					'n8n peak RSS MiB',
					'RSS before the run MiB',
					'peak − before MiB',
					'peak RSS ÷ No Operation',
					'requests',
				],
				result.scale.map((x) => {
					const base = row(x.kind, smallest);
					const noop = row('noop', x.count);
					return [
						x.kind === 'push' ? 'Ads Catalog → Push' : 'No Operation (n8n holding the items)',
						x.count,
						R.fmt(x.ms / 1000, 2),
						x.count === smallest
							? ''
							: `${R.fmt(x.ms / base.ms, 2)} (${R.fmt(x.count / smallest, 0)}x products)`,
						R.fmt(x.peakRssMiB, 0),
						R.fmt(x.idleRssMiB, 0),
						R.fmt(x.peakRssMiB - x.idleRssMiB, 0),
						x.kind === 'push' && noop ? R.fmt(x.peakRssMiB / noop.peakRssMiB, 2) : '',
						x.requests,
					];
				}),
				[
					`Targets: the ${Math.max(...SCALE)}-product push <= 1.1x the ${smallest}-product push's time per product; push peak RSS <= 1.5x No Operation's.`,
					"The No Operation rows are n8n's own cost: the Code node's items held by n8n (the Code node itself runs in n8n's task runner, a separate process not counted here).",
				],
			);
		const outDir = path.join(H.ROOT, 'bench', 'results');
		fs.mkdirSync(outDir, { recursive: true });
		const file = path.join(
			outDir,
			`catalog-n8n-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
		);
		fs.writeFileSync(file, JSON.stringify(Object.assign(result, { problems }), null, 2));
		console.log(`raw figures: ${path.relative(H.ROOT, file)}`);
		P.print();
		if (problems.length) {
			console.error(`catalog benchmark in n8n: something failed:\n  ${problems.join('\n  ')}`);
			process.exitCode = 1;
		}
	} catch (error) {
		console.error('catalog benchmark in n8n failed:', error && error.stack ? error.stack : error);
		if (inst) console.error(inst.logTails(60));
		process.exitCode = 1;
	} finally {
		await bench.finish(sandbox);
	}
}

module.exports = { main };
if (require.main === module) main().then(() => process.exit(process.exitCode || 0));
