'use strict';
/**
 * A flood of forged deliveries against the trigger's webhook, with and without the repository's nginx
 * recipe (deploy/nginx/platform-webhooks.conf) in front of n8n (regular mode, its own n8n instance whose
 * WEBHOOK_URL is the proxy, so that the trigger registers itself through it):
 *
 *   - behind the proxy: 64 clients, from 16 loopback addresses other than the service's, send forged
 *     deliveries for E2E_FLOOD_SECONDS (30) while the service (the sandbox, from 127.0.0.1, the
 *     allow-listed address) sends a CRC check every 2 s and a signed delivery every second.
 *     Asserted: every CRC check answered correctly within 3 s, every signed delivery acknowledged
 *     within 10 s and run exactly once, and the flood ran no workflow (n8n's executions of the
 *     workflow are exactly the signed deliveries);
 *   - the same flood straight at n8n, no proxy: reported (CRC and delivery latencies, failures), not
 *     asserted. n8n spends about 60 ms of CPU per webhook call before the node runs, so the service's
 *     calls queue behind the flood's.
 */
const path = require('node:path');

const F = require('../lib/fixtures');
const H = require('../lib/host');
const L = require('../lib/load');
const { Instance } = require('../lib/instance');
const { startNginx } = require('../lib/nginx');
const rest = require('../lib/rest');

const FLOOD = {
	id: 'e2eTriggerFlood1',
	sink: 'trigger-flood',
	hook: F.uuidFrom('e2e-trigger-flood'),
};
const SECONDS = Number(process.env.E2E_FLOOD_SECONDS || 30);
const CLIENTS = 64;
const ADDRESSES = 16;
/** The service's deadlines: a CRC answer within 3 s, a delivery acknowledged within 10 s. */
const CRC_DEADLINE_MS = 3000;
const DELIVERY_DEADLINE_MS = 10000;

function triggerWorkflow(sandboxUrl, userId) {
	const trigger = F.node(
		'Platform Trigger',
		F.T.trigger,
		1,
		{ mode: 'activity', events: ['post.create'], user: userId, options: {} },
		[0, 0],
		{ webhookId: FLOOD.hook, credentials: F.credRef(F.CRED.bearer) },
	);
	return F.workflow(
		FLOOD.id,
		'e2e trigger flood',
		[trigger, F.sinkNode('Record Run', sandboxUrl, FLOOD.sink, [300, 0])],
		F.chain(['Platform Trigger', 'Record Run']),
	);
}

/**
 * The service's side while the flood runs: a CRC check every 2 s and a signed delivery every second to `webhook` ({id, url}), each on its own (a slow answer does not hold the next one back).
 */
async function serviceTraffic(sandbox, webhook, { seconds, userId, label }) {
	const crcs = [];
	const deliveries = [];
	const pending = [];
	const end = Date.now() + seconds * 1000;
	for (let tick = 0; Date.now() < end; tick++) {
		if (tick % 2 === 0)
			pending.push(sandbox.crc(webhook, { reason: 'flood-test' }).then((c) => crcs.push(c)));
		const id = `flood-${label}-${Date.now()}-${tick}`;
		pending.push(
			sandbox
				.deliver(webhook, L.eventBody(id, userId), { event_uuid: id })
				.then((d) => deliveries.push(Object.assign({ id }, d))),
		);
		await new Promise((r) => setTimeout(r, 1000));
	}
	await Promise.all(pending);
	return { crcs, deliveries };
}

function summary({ crcs, deliveries }) {
	const crcLate = crcs.filter((c) => !c.ok || c.ms > CRC_DEADLINE_MS);
	const deliveryLate = deliveries.filter((d) => !d.ok || d.ms > DELIVERY_DEADLINE_MS);
	const crc = L.latencies(crcs.map((c) => c.ms));
	const del = L.latencies(deliveries.map((d) => d.ms));
	const why = (rows) => {
		const counts = {};
		for (const r of rows) {
			const k = r.ok ? 'late' : r.error || (r.status ? `status ${r.status}` : r.why);
			counts[k] = (counts[k] || 0) + 1;
		}
		const text = Object.entries(counts)
			.map(([k, v]) => `${v}x ${k}`)
			.join(', ');
		return text ? ` (${text})` : '';
	};
	return {
		crc,
		delivery: del,
		crcFailed: crcLate,
		deliveryFailed: deliveryLate,
		text:
			`CRC ${crcs.length}: p50 ${crc.p50} ms, p99 ${crc.p99} ms, max ${crc.max} ms, ` +
			`${crcLate.length} failed or over 3 s${why(crcLate)}; deliveries ${deliveries.length}: p50 ${del.p50} ms, ` +
			`p99 ${del.p99} ms, max ${del.max} ms, ${deliveryLate.length} failed or over 10 s${why(deliveryLate)}`,
	};
}

const statusText = (r) =>
	`${r.sent} forged deliveries in ${r.seconds.toFixed(1)} s (${r.perSecond.toFixed(0)}/s): ` +
	Object.entries(r.statuses)
		.map(([k, v]) => `${v}x ${k}`)
		.concat(Object.entries(r.errors).map(([k, v]) => `${v}x ${k}`))
		.join(', ');

module.exports = [
	{
		name: `flood: behind the nginx recipe the trigger answers every CRC within 3 s and every signed delivery within 10 s while ${CLIENTS} clients send forged deliveries; without it, reported`,
		needs: ['platformTriggerPosts'],
		modes: ['regular'],
		timeoutMs: 300000 + 2 * SECONDS * 1000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			const userId = ctx.keys.userId;
			const dir = path.join(path.dirname(ctx.inst.dir), 'flood');
			const n8nPort = await H.freePort();
			const proxyPort = await H.freePort();
			const proxy = await startNginx({
				dir: path.join(dir, 'nginx'),
				port: proxyPort,
				upstreams: [`127.0.0.1:${n8nPort}`],
				serviceRanges: ['127.0.0.1/32'],
			});
			const inst = new Instance({
				host: ctx.inst.host,
				dir: path.join(dir, 'n8n'),
				tgz: ctx.inst.tgz,
				sandbox,
				label: 'flood',
			});
			let api;
			try {
				await inst.setup({
					workflows: [triggerWorkflow(ctx.sandboxUrl, userId)],
					publish: [FLOOD.id],
					port: n8nPort,
					extraEnv: {
						N8N_WEBHOOK_URL: `${proxy.url}/`,
						N8N_PROXY_HOPS: '1',
					},
				});
				await inst.start();
				const hook = await ctx.waitFor(
					'the trigger to register its webhook through the proxy',
					() =>
						[...sandbox.db.webhooks.values()].find(
							(w) => w.valid && w.url === `${proxy.url}/webhook/${FLOOD.hook}/webhook`,
						),
					{ timeoutMs: 90000 },
				);
				const direct = {
					id: hook.id,
					url: hook.url.replace(proxy.url, `http://127.0.0.1:${n8nPort}`),
				};
				api = await rest.session(n8nPort);
				// Idle, through the proxy: the reference for this machine at this moment (and the warm-up: the
				// first calls of a process pay for more than the steady state).
				const idle = await serviceTraffic(sandbox, hook, { seconds: 10, userId, label: 'idle' });
				H.log(`flood test, IDLE (no flood, through the proxy): ${summary(idle).text}`);
				await ctx.waitFor(
					'the idle runs',
					() => idle.deliveries.every((d) => ctx.runCounts(FLOOD.sink)[d.id] >= 1),
					{ timeoutMs: 60000 },
				);
				const executionsBefore = await api.executionCount(FLOOD.id);

				H.log(
					`flood test: ${CLIENTS} clients from ${ADDRESSES} addresses for ${SECONDS} s at ${proxy.url} (nginx) -> n8n :${n8nPort}`,
				);
				const [proxied, flood] = await Promise.all([
					serviceTraffic(sandbox, hook, { seconds: SECONDS - 2, userId, label: 'proxy' }),
					L.flood({
						url: hook.url,
						clients: CLIENTS,
						addresses: ADDRESSES,
						seconds: SECONDS,
						userId,
					}),
				]);
				const p = summary(proxied);
				H.log(`flood test, BEHIND THE PROXY: ${p.text}`);
				H.log(`flood test, behind the proxy, the flood: ${statusText(flood)}`);

				// Every signed delivery runs once; nothing else runs.
				const ids = proxied.deliveries.map((d) => d.id);
				await ctx.waitFor(
					'a run of every signed delivery',
					() => ids.every((id) => ctx.runCounts(FLOOD.sink)[id] >= 1),
					{ timeoutMs: 120000 },
				);
				await ctx.sleep(3000); // a second run of an event would arrive within this window
				const counts = ctx.runCounts(FLOOD.sink);
				const executions = (await api.executionCount(FLOOD.id)) - executionsBefore;

				// Without the proxy, for comparison (reported, not asserted).
				H.log(`flood test: the same flood straight at n8n (no proxy) for ${SECONDS} s`);
				const [bare, bareFlood] = await Promise.all([
					serviceTraffic(sandbox, direct, { seconds: SECONDS - 2, userId, label: 'bare' }),
					L.flood({
						url: direct.url,
						clients: CLIENTS,
						addresses: ADDRESSES,
						seconds: SECONDS,
						userId,
					}),
				]);
				const b = summary(bare);
				H.log(`flood test, WITHOUT THE PROXY: ${b.text}`);
				H.log(`flood test, without the proxy, the flood: ${statusText(bareFlood)}`);

				assert.deepEqual(
					p.crcFailed.map((c) => `${c.ms} ms ${c.why || ''}`),
					[],
					`behind the proxy, every CRC check answered correctly within 3 s (${p.text})`,
				);
				assert.deepEqual(
					p.deliveryFailed.map((d) => `${d.ms} ms ${d.status || d.error}`),
					[],
					`behind the proxy, every signed delivery acknowledged within 10 s (${p.text})`,
				);
				assert.ok(hook.valid, 'the webhook is still valid');
				for (const id of ids) assert.equal(counts[id], 1, `event ${id} ran ${counts[id]} times`);
				assert.equal(
					executions,
					ids.length,
					`n8n ran the workflow once per signed delivery and never for a forged one (${executions} executions for ${ids.length} signed deliveries)`,
				);
				assert.ok(
					Object.keys(counts).every((id) => !id.startsWith('forged-')),
					'no forged delivery reached the sink',
				);
				// The flood was one: nginx refused most of it, and what it let through reached n8n (401).
				assert.ok(flood.statuses[429] > 0, `nginx refused part of the flood: ${statusText(flood)}`);
				assert.ok(flood.statuses[401] > 0, `n8n refused the rest: ${statusText(flood)}`);
			} finally {
				if (api) await api.toggle(FLOOD.id, 'deactivate').catch(() => undefined);
				await inst.stop();
				await proxy.stop();
			}
		},
	},
];
