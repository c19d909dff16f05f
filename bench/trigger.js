#!/usr/bin/env node
'use strict';
/**
 * Trigger benchmark, in a real n8n 2.40.7 with the package installed:
 *
 *   - deliveries per second through an active Platform Trigger workflow versus n8n's plain Webhook node,
 *     with the same signed payloads, in the same run, alternating rounds (goal: ratio >= 0.9). A round
 *     ends when every run has finished (both workflows end in the same sink node), so the figure is
 *     runs finished per second and a backlog of one side never slows the other;
 *   - CRC answer latency of the Platform Trigger (p50 / p99), every answer checked.
 *
 * Bounded: BENCH_ROUNDS rounds (default 3) of BENCH_REQUESTS deliveries (default 300) per side at
 * BENCH_CONCURRENCY (default 8) in flight, BENCH_CRC requests (default 300). Results are printed and
 * written to bench/results/trigger-<time>.json. Exit code 0 unless the harness itself fails; the ratio
 * goal is reported, not enforced.
 */
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const http = require('node:http');

const H = require('../e2e/lib/host');
const F = require('../e2e/lib/fixtures');
const { Instance } = require('../e2e/lib/instance');
const { createSandbox } = require('../sandbox/server');

const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const REQUESTS = Number(process.env.BENCH_REQUESTS || 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 8);
const CRC_REQUESTS = Number(process.env.BENCH_CRC || 300);
const WARMUP = 30;
/** Extra n8n environment for both sides, e.g. BENCH_N8N_ENV='{"N8N_EXPRESSION_ENGINE_POOL_SIZE":"4"}'. */
const EXTRA_ENV = JSON.parse(process.env.BENCH_N8N_ENV || '{}');

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function post(url, body, headers) {
	return new Promise((resolve) => {
		const started = process.hrtime.bigint();
		const req = http.request(url, { method: 'POST', agent, headers: Object.assign({ 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }, headers), timeout: 30000 }, (res) => {
			res.resume();
			res.on('end', () => resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
		});
		req.on('timeout', () => req.destroy(new Error('timeout')));
		req.on('error', (error) => resolve({ status: 0, error: error.message, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
		req.end(body);
	});
}

function get(url) {
	return new Promise((resolve) => {
		const started = process.hrtime.bigint();
		http.get(url, { agent, timeout: 30000 }, (res) => {
			let text = '';
			res.on('data', (c) => (text += c));
			res.on('end', () => resolve({ status: res.statusCode, text, type: res.headers['content-type'], ms: Number(process.hrtime.bigint() - started) / 1e6 }));
		}).on('error', (error) => resolve({ status: 0, error: error.message, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
	});
}

/**
 * Sends the bodies with `concurrency` in flight, then waits until the workflow has finished a run for
 * each (its sink holds them all). Returns accepted deliveries/second (answers), processed
 * deliveries/second (finished runs) and failures. Waiting for the runs keeps a backlog of one side
 * from slowing the other side down.
 */
async function blast(url, bodies, sign, sink) {
	let next = 0;
	let failures = 0;
	const before = sink ? sink().length : 0;
	const started = Date.now();
	async function worker() {
		while (next < bodies.length) {
			const body = bodies[next++];
			const r = await post(url, body, { 'x-platform-webhooks-signature': sign(body) });
			if (r.status !== 200) failures++;
		}
	}
	await Promise.all(Array.from({ length: CONCURRENCY }, worker));
	const accepted = (Date.now() - started) / 1000;
	if (!sink) return { perSecond: bodies.length / accepted, acceptedPerSecond: bodies.length / accepted, seconds: accepted, failures };
	const expected = before + bodies.length - failures;
	const deadline = Date.now() + 300000;
	while (sink().length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
	const runs = sink().length - before;
	const seconds = (Date.now() - started) / 1000;
	return { perSecond: runs / seconds, acceptedPerSecond: bodies.length / accepted, seconds, runs, failures: failures + (bodies.length - failures - runs) };
}

function percentile(sorted, p) {
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

let bodySeq = 0;
function eventBodies(n, userId) {
	return Array.from({ length: n }, () => {
		bodySeq++;
		const id = String(1800000000000000000n + BigInt(bodySeq));
		return JSON.stringify({ data: { event_uuid: `${Date.now()}${String(bodySeq).padStart(6, '0')}`, event_type: 'post.create', filter: { user_id: userId }, payload: { id, text: `Benchmark post ${bodySeq} with some text to make the payload realistic #n8n`, author_id: userId, created_at: new Date().toISOString(), edit_history_tweet_ids: [id], lang: 'en' } } });
	});
}

async function main() {
	const P = H.phases();
	const work = path.join(require('node:os').tmpdir(), 'n8n-nodes-platform-bench-trigger');
	fs.rmSync(work, { recursive: true, force: true });
	let sandbox;
	let inst;
	const onSignal = () => H.stopAll().finally(() => process.exit(130));
	process.on('SIGINT', onSignal);
	process.on('SIGTERM', onSignal);
	try {
		const { tgz, missing } = await P.run('build and pack', () => H.buildAndPack(path.join(work, 'pack')));
		const plainOnly = missing.some((m) => m.includes('PlatformTrigger'));
		if (plainOnly && !process.env.BENCH_PLAIN_ONLY) throw new Error('PlatformTrigger is not built yet: nothing to benchmark (BENCH_PLAIN_ONLY=1 measures the plain Webhook side alone)');
		const host = await P.run('prepare n8n host', () => H.prepareHost());
		sandbox = await createSandbox({ quiet: true }).listen(0);
		inst = new Instance({ host, dir: work, tgz, sandbox, label: 'bench' });
		const userId = sandbox.keys.userId;
		inst.installed = H.installPackage(inst.userFolder, tgz);
		const workflows = plainOnly ? [F.benchPlainWorkflow(sandbox.url)] : [F.benchTriggerWorkflow(F.describeInstalled(inst.installed.pkgDir, 'platformTriggerPosts'), sandbox.url), F.benchPlainWorkflow(sandbox.url)];
		await P.run('install, import, publish', () => inst.setup({ workflows, publish: workflows.map((w) => w.id), extraEnv: Object.assign({ EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'none', EXECUTIONS_DATA_SAVE_ON_ERROR: 'none' }, EXTRA_ENV) }));
		await P.run('start n8n', () => inst.start());
		const plainUrl = inst.webhookUrl(F.BENCH_PLAIN_PATH);
		const hook = plainOnly ? { url: inst.webhookUrl(F.BENCH_PLAIN_PATH) } : await H.waitFor('the Platform Trigger to register its webhook', () => [...sandbox.db.webhooks.values()].find((w) => w.valid), { timeoutMs: 60000 });
		const triggerUrl = hook.url.replace('//localhost:', '//127.0.0.1:');
		if (plainOnly) H.log('BENCH_PLAIN_ONLY: the "trigger" side is the plain Webhook too (harness check only)');
		// Plain webhooks are registered in the background after start-up: wait until one answers.
		await H.waitFor('the plain Webhook workflow to be active', async () => (await post(plainUrl, '{}', {})).status === 200, { timeoutMs: 60000 });
		const sign = (body) => sandbox.signWebhook(body);
		const sinkOf = (side) => () => (sandbox.sinks && sandbox.sinks[plainOnly || side === 'plain' ? 'bench-plain' : 'bench-trigger']) || [];

		const result = { env: EXTRA_ENV, n8n: H.N8N_VERSION, node: host.nodeVersion, requests: REQUESTS, rounds: ROUNDS, concurrency: CONCURRENCY, trigger: [], plain: [] };
		await P.run('deliveries: warm-up', async () => {
			await blast(triggerUrl, eventBodies(WARMUP, userId), sign, sinkOf('trigger'));
			await blast(plainUrl, eventBodies(WARMUP, userId), sign, sinkOf('plain'));
		});
		await P.run(`deliveries: ${ROUNDS} rounds x ${REQUESTS} per side`, async () => {
			for (let r = 0; r < ROUNDS; r++) {
				// The same signed bodies go to both sides; alternating the order evens out drift.
				const bodies = eventBodies(REQUESTS, userId);
				const order = r % 2 === 0 ? ['trigger', 'plain'] : ['plain', 'trigger'];
				for (const side of order) {
					const m = await blast(side === 'trigger' ? triggerUrl : plainUrl, bodies, sign, sinkOf(side));
					result[side].push(m);
					H.log(`round ${r + 1} ${side}: ${m.perSecond.toFixed(1)} processed/s (${m.acceptedPerSecond.toFixed(1)} accepted/s), ${m.failures} failures`);
				}
			}
		});
		await P.run(`CRC latency: ${CRC_REQUESTS} requests`, async () => {
			const times = [];
			let wrong = 0;
			for (let i = 0; i < CRC_REQUESTS; i++) {
				const token = crypto.randomBytes(24).toString('base64url');
				const r = await get(`${triggerUrl}?crc_token=${token}`);
				times.push(r.ms);
				let ok = false;
				try {
					ok = r.status === 200 && JSON.parse(r.text).response_token === sign(token) && /json/.test(r.type || '');
				} catch {
					ok = false;
				}
				if (!ok) wrong++;
			}
			times.sort((a, b) => a - b);
			result.crc = { requests: CRC_REQUESTS, wrong, p50_ms: percentile(times, 50), p99_ms: percentile(times, 99), max_ms: times[times.length - 1] };
		});
		const mean = (rows) => rows.reduce((a, r) => a + r.perSecond, 0) / rows.length;
		result.trigger_per_second = mean(result.trigger);
		result.plain_per_second = mean(result.plain);
		result.trigger_accepted_per_second = result.trigger.reduce((a, r) => a + r.acceptedPerSecond, 0) / result.trigger.length;
		result.plain_accepted_per_second = result.plain.reduce((a, r) => a + r.acceptedPerSecond, 0) / result.plain.length;
		result.ratio = result.trigger_per_second / result.plain_per_second;
		result.failures = [...result.trigger, ...result.plain].reduce((a, r) => a + r.failures, 0);
		result.goal_met = result.ratio >= 0.9 && result.failures === 0 && result.crc.wrong === 0;
		const outDir = path.join(H.ROOT, 'bench', 'results');
		fs.mkdirSync(outDir, { recursive: true });
		const file = path.join(outDir, `trigger-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
		fs.writeFileSync(file, JSON.stringify(result, null, 2));
		console.log(`
Trigger benchmark (n8n ${result.n8n}, ${REQUESTS} deliveries x ${ROUNDS} rounds per side, ${CONCURRENCY} in flight)
  Platform Trigger   ${result.trigger_per_second.toFixed(1).padStart(8)} deliveries/s processed (runs finished; ${result.trigger_accepted_per_second.toFixed(1)}/s accepted)
  plain Webhook      ${result.plain_per_second.toFixed(1).padStart(8)} deliveries/s processed (runs finished; ${result.plain_accepted_per_second.toFixed(1)}/s accepted)
  ratio              ${result.ratio.toFixed(3).padStart(8)}   (goal >= 0.9: ${result.ratio >= 0.9 ? 'met' : 'NOT met'})
  failed deliveries  ${String(result.failures).padStart(8)}
  CRC latency        p50 ${result.crc.p50_ms.toFixed(1)} ms, p99 ${result.crc.p99_ms.toFixed(1)} ms, max ${result.crc.max_ms.toFixed(1)} ms (${result.crc.wrong} wrong answers of ${result.crc.requests})
  written to ${path.relative(H.ROOT, file)}`);
		P.print();
		return result;
	} catch (error) {
		console.error('trigger benchmark failed:', error && error.stack ? error.stack : error);
		if (inst) console.error(inst.logTails(60));
		process.exitCode = 1;
	} finally {
		agent.destroy();
		await H.stopAll();
		if (sandbox) await sandbox.close();
	}
}

module.exports = { main };
if (require.main === module) main().then(() => process.exit(process.exitCode || 0));
