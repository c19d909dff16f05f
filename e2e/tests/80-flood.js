/**
 * A flood of forged calls against the trigger's webhook, with and without the repository's nginx recipe
 * (deploy/nginx/platform-webhooks.conf and .js) in front of n8n (regular mode, its own n8n instance
 * whose WEBHOOK_URL is the proxy, so that the trigger registers itself through it). The recipe has no
 * allow-list: the service publishes no addresses, and the service's calls come from 127.0.0.1 like any
 * other caller's would from the internet.
 *
 *   - the recipe as shipped, with the app's consumer secret: 64 clients from 16 loopback addresses
 *     (127.0.0.2-17) send forged deliveries and 16 more send well-formed forged CRC checks for
 *     E2E_FLOOD_SECONDS (30), while the service (the sandbox) sends a CRC check every 2 s and a signed
 *     delivery every second. Asserted: every CRC check answered correctly within 1 s, every signed
 *     delivery acknowledged within 10 s and run exactly once, the flood ran no workflow (n8n's
 *     executions of the workflow are exactly the signed deliveries), and no forged delivery reached n8n
 *     (nginx's log of the calls it passed on holds none from the flood's addresses);
 *   - the recipe's fallback, without the secret (format checks and limits only), and the same flood
 *     straight at n8n, no proxy: reported (CRC and delivery latencies, failures), not asserted. n8n
 *     spends about 60 ms of CPU per webhook call before the node runs, so the service's calls queue
 *     behind the flood's.
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
const COMPARE = process.env.E2E_FLOOD_COMPARE === '1';
const CLIENTS = 64;
const CRC_CLIENTS = 16;
const ADDRESSES = 16;
/**
 * A CRC answer within 1 s behind the recipe (the service's own deadline is 3 s: reported for the
 * fallback and without a proxy), a delivery acknowledged within 10 s.
 */
const CRC_DEADLINE_MS = 1000;
const SERVICE_CRC_DEADLINE_MS = 3000;
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

/**
 * Well-formed forged CRC checks (a valid crc_token each: only the service's secret tells a real check
 * from these) from `clients` clients over the flood's addresses, in a child process (this file run on
 * its own) so that the sandbox's measurements do not wait on the clients' work. Resolves the closed
 * loop's counts.
 */
function crcFlood({ url, clients, seconds }) {
	return L.runLowPriority(__filename, { url, clients, seconds }, 'the CRC flood process');
}

if (require.main === module) {
	const { url, clients, seconds } = JSON.parse(process.argv[2]);
	const end = Date.now() + seconds * 1000;
	L.closedLoop({
		clients,
		until: () => Date.now() >= end,
		make: () => {
			const u = new URL(url);
			u.searchParams.set('crc_token', require('node:crypto').randomBytes(24).toString('base64url'));
			return { url: u.toString() };
		},
		localAddress: (c) => `127.0.0.${2 + (c % ADDRESSES)}`,
	}).then((r) => process.send(r, () => process.exit(0)));
}

/** Both floods at once for `seconds`: forged deliveries and forged CRC checks. */
async function floods(url, seconds, userId) {
	const [deliveries, crcs] = await Promise.all([
		L.flood({ url, clients: CLIENTS, addresses: ADDRESSES, seconds, userId }),
		crcFlood({ url, clients: CRC_CLIENTS, seconds }),
	]);
	return { deliveries, crcs };
}

function summary({ crcs, deliveries }, crcDeadlineMs = CRC_DEADLINE_MS) {
	const crcLate = crcs.filter((c) => !c.ok || c.ms > crcDeadlineMs);
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
			`${crcLate.length} failed or over ${crcDeadlineMs / 1000} s${why(crcLate)}; deliveries ${deliveries.length}: p50 ${del.p50} ms, ` +
			`p99 ${del.p99} ms, max ${del.max} ms, ${deliveryLate.length} failed or over 10 s${why(deliveryLate)}`,
	};
}

const countText = (what, r) =>
	`${r.sent} ${what} in ${r.seconds.toFixed(1)} s (${r.perSecond.toFixed(0)}/s): ` +
	Object.entries(r.statuses)
		.map(([k, v]) => `${v}x ${k}`)
		.concat(Object.entries(r.errors).map(([k, v]) => `${v}x ${k}`))
		.join(', ');
const statusText = (f) =>
	`${countText('forged deliveries', f.deliveries)}; ${countText('forged CRC checks', f.crcs)}`;

/** The calls nginx passed on to n8n (the harness logs only those), from the flood's addresses. */
function forwardedFromFlood(accessLog) {
	const lines = require('node:fs').readFileSync(accessLog, 'utf8').split('\n');
	return lines.filter((l) => /^127\.0\.0\.(\d+) /.test(l) && l.split(' ')[0] !== '127.0.0.1');
}

module.exports = [
	{
		name: `flood: behind the nginx recipe (no allow-list) the trigger answers every CRC within 1 s and every signed delivery within 10 s while ${CLIENTS + CRC_CLIENTS} clients send forged deliveries and CRC checks${COMPARE ? '; the fallback without the secret and no proxy at all, reported' : ''}`,
		needs: ['platformTriggerPosts'],
		modes: ['regular'],
		timeoutMs: 300000 + 3 * SECONDS * 1000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			const userId = ctx.keys.userId;
			const dir = path.join(path.dirname(ctx.inst.dir), 'flood');
			const n8nPort = await H.freePort();
			const proxyPort = await H.freePort();
			const upstreams = [`127.0.0.1:${n8nPort}`];
			const proxy = await startNginx({
				dir: path.join(dir, 'nginx'),
				port: proxyPort,
				upstreams,
				secret: sandbox.keys.consumerSecret,
			});
			let fallback;
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
				const at = (base) => ({ id: hook.id, url: hook.url.replace(proxy.url, base) });
				const direct = at(`http://127.0.0.1:${n8nPort}`);
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
					`flood test: ${CLIENTS} + ${CRC_CLIENTS} clients from ${ADDRESSES} addresses for ${SECONDS} s at ${proxy.url} (nginx, the recipe with the secret) -> n8n :${n8nPort}`,
				);
				const [proxied, flood] = await Promise.all([
					serviceTraffic(sandbox, hook, { seconds: SECONDS - 2, userId, label: 'proxy' }),
					floods(hook.url, SECONDS, userId),
				]);
				const p = summary(proxied);
				H.log(`flood test, BEHIND THE RECIPE: ${p.text}`);
				H.log(`flood test, behind the recipe, the flood: ${statusText(flood)}`);

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
				const leaked = forwardedFromFlood(proxy.accessLog);
				const leakedDeliveries = leaked.filter((l) => l.includes('"POST '));
				H.log(
					`flood test, behind the recipe, calls from the flood's addresses that reached n8n: ${leakedDeliveries.length} deliveries, ${leaked.length - leakedDeliveries.length} CRC checks (the CRC budget); the rest was answered by nginx`,
				);

				// The fallback (no secret in the proxy) and no proxy at all, for comparison: reported, never
				// asserted, so only when asked (E2E_FLOOD_COMPARE=1; a minute more).
				if (COMPARE) {
					fallback = await startNginx({
						dir: path.join(dir, 'nginx-fallback'),
						port: await H.freePort(),
						upstreams,
					});
					H.log(`flood test: the same flood at the recipe's fallback (no secret) for ${SECONDS} s`);
					const [fb, fbFlood] = await Promise.all([
						serviceTraffic(sandbox, at(fallback.url), {
							seconds: SECONDS - 2,
							userId,
							label: 'fallback',
						}),
						floods(at(fallback.url).url, SECONDS, userId),
					]);
					const f = summary(fb, SERVICE_CRC_DEADLINE_MS);
					H.log(`flood test, THE FALLBACK WITHOUT THE SECRET: ${f.text}`);
					H.log(`flood test, the fallback, the flood: ${statusText(fbFlood)}`);

					// Without the proxy, for comparison (reported, not asserted).
					H.log(`flood test: the same flood straight at n8n (no proxy) for ${SECONDS} s`);
					const [bare, bareFlood] = await Promise.all([
						serviceTraffic(sandbox, direct, { seconds: SECONDS - 2, userId, label: 'bare' }),
						floods(direct.url, SECONDS, userId),
					]);
					const b = summary(bare, SERVICE_CRC_DEADLINE_MS);
					H.log(`flood test, WITHOUT THE PROXY: ${b.text}`);
					H.log(`flood test, without the proxy, the flood: ${statusText(bareFlood)}`);
				}

				assert.deepEqual(
					p.crcFailed.map((c) => `${c.ms} ms ${c.why || ''}`),
					[],
					`behind the recipe, every CRC check answered correctly within 1 s (${p.text})`,
				);
				assert.deepEqual(
					p.deliveryFailed.map((d) => `${d.ms} ms ${d.status || d.error}`),
					[],
					`behind the recipe, every signed delivery acknowledged within 10 s (${p.text})`,
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
				// nginx answered every forged delivery itself (401), and no forged delivery reached n8n.
				assert.equal(
					flood.deliveries.statuses[401],
					flood.deliveries.sent - Object.values(flood.deliveries.errors).reduce((a, v) => a + v, 0),
					`nginx refused every forged delivery with 401: ${statusText(flood)}`,
				);
				assert.deepEqual(leakedDeliveries, [], 'no forged delivery reached n8n');
				assert.ok(
					flood.crcs.statuses[200] > 0,
					`the forged CRC checks were answered: ${statusText(flood)}`,
				);
			} finally {
				if (api) await api.toggle(FLOOD.id, 'deactivate').catch(() => undefined);
				await inst.stop();
				await proxy.stop();
				if (fallback) await fallback.stop();
			}
		},
	},
];
