'use strict';
/**
 * The nginx recipe's rules (deploy/nginx/platform-webhooks.conf and .js, run as shipped by
 * e2e/lib/nginx.js) one by one, each with the call that breaks it, in front of three stand-in webhook
 * processes that record what reached them: what must never reach n8n (wrong method, malformed CRC
 * token or signature header, oversized body, forged signature), the CRC budget and nginx's own answers
 * over it, the consistent-hash routing of the copies of one delivery to one process, the move of a dead
 * process's deliveries to the next one, and the fallback without the secret. The flood test
 * (80-flood.js) runs the same recipe in front of a real n8n.
 */
const fs = require('node:fs');
const crypto = require('node:crypto');
const http = require('node:http');
const path = require('node:path');

const H = require('../lib/host');
const L = require('../lib/load');
const { startNginx } = require('../lib/nginx');
const { standIn } = require('../lib/standin');

const SECRET = 'e2e-proxy-consumer-secret';
const HOOK = '/webhook/0f4c2b1e-proxy-recipe/webhook';
const sign = (secret, text) =>
	'sha256=' + crypto.createHmac('sha256', secret).update(text).digest('base64');

function post(base, text, signature, from) {
	return L.request(`${base}${HOOK}`, {
		method: 'POST',
		body: text,
		headers: signature === undefined ? {} : { 'x-platform-webhooks-signature': signature },
		agent: from ? new http.Agent({ localAddress: from }) : undefined,
	});
}

function crcUrl(base, token) {
	const u = new URL(`${base}${HOOK}`);
	if (token !== undefined) u.searchParams.set('crc_token', token);
	return u.toString();
}

const event = (id, extra = {}) =>
	JSON.stringify({ data: Object.assign({ event_uuid: id }, extra) });
const by = (r) => (r.status === 200 ? JSON.parse(r.text).by : undefined);

module.exports = [
	{
		name: 'proxy recipe: refuses what cannot be the service, verifies signatures, answers CRC checks over its budget, routes every copy of a delivery to one process and a dead process’s deliveries to the next; the fallback passes well-formed calls up to its limits',
		modes: ['regular'],
		timeoutMs: 120000,
		async run(ctx) {
			const { assert } = ctx;
			const dir = path.join(path.dirname(ctx.inst.dir), 'proxy-recipe');
			const procs = [await standIn('a'), await standIn('b'), await standIn('c')];
			const reached = () => procs.reduce((n, p) => n + p.calls.length, 0);
			const proxy = await startNginx({
				dir: path.join(dir, 'nginx'),
				port: await H.freePort(),
				upstreams: procs.map((p) => p.address),
				secret: SECRET,
			});
			let fallback;
			try {
				const base = proxy.url;
				const body = event('proxy-e1', { payload: { text: 'hello' } });

				// Refused by nginx, never passed on.
				const refusals = [
					['PUT', await L.request(`${base}${HOOK}`, { method: 'PUT', body: '{}' }), 405],
					['GET without crc_token', await L.request(crcUrl(base)), 400],
					['GET with a short crc_token', await L.request(crcUrl(base, 'short')), 400],
					[
						'GET with a crc_token of 129 characters',
						await L.request(crcUrl(base, 'a'.repeat(129))),
						400,
					],
					['POST without signature', await post(base, body), 400],
					['POST with a malformed signature', await post(base, body, 'sha256=abc'), 400],
					['POST with a signature and no body', await post(base, '', sign(SECRET, '')), 400],
					[
						'POST with a forged signature',
						await post(base, body, sign('not-the-secret', body)),
						401,
					],
					[
						'POST over 4 MiB',
						await post(base, 'x'.repeat(4 * 1024 * 1024 + 1), sign(SECRET, 'x')),
						413,
					],
					['the editor', await L.request(`${base}/rest/login`), 404],
				];
				for (const [what, r, status] of refusals)
					assert.equal(r.status, status, `${what}: ${r.status} ${r.error || ''}`);
				assert.equal(reached(), 0, 'no refused call reached a webhook process');
				// A caller's fault is answered, not logged as nginx's own error.
				const errors = fs
					.readFileSync(proxy.errorLog, 'utf8')
					.split('\n')
					.filter((line) => / \[error\] /.test(line) && /platform-webhooks/.test(line));
				assert.deepEqual(errors, [], 'no error-level line from the njs check');

				// A signed delivery reaches one process; its copies and a replay of the same event in another
				// envelope reach the same one.
				const first = await post(base, body, sign(SECRET, body));
				assert.equal(first.status, 200, `a signed delivery is passed on: ${first.status}`);
				const owner = by(first);
				const replay = event('proxy-e1', { replayed: true });
				const copies = await Promise.all([
					post(base, body, sign(SECRET, body)),
					post(base, body, sign(SECRET, body)),
					post(base, replay, sign(SECRET, replay)),
				]);
				assert.deepEqual(
					copies.map(by),
					[owner, owner, owner],
					'the copies and the replay went to the process that got the first',
				);
				// Account Activity bodies route by their account: one post alone, the same post in a batch with
				// another, and a replay batch reach the one process of that account.
				const aa = (account, ids) =>
					JSON.stringify({
						for_user_id: account,
						tweet_create_events: ids.map((id) => ({ id_str: id, text: `post ${id}` })),
					});
				const envelopes = [aa('42', ['1']), aa('42', ['1', '2']), aa('42', ['3', '1', '4'])];
				const routed = await Promise.all(envelopes.map((b) => post(base, b, sign(SECRET, b))));
				assert.equal(
					new Set(routed.map(by)).size,
					1,
					`one account's bodies went to ${routed.map(by).join(', ')}`,
				);
				const accounts = new Set();
				for (let i = 0; i < 30; i++) {
					const b = aa(`7${i}`, ['1']);
					accounts.add(by(await post(base, b, sign(SECRET, b))));
				}
				assert.ok(accounts.size >= 2, `30 accounts went to ${[...accounts].join(', ')}`);
				// A filtered-stream post routes by the post; any other body by its signature.
				const streamed = (extra) => JSON.stringify({ data: { id: '99', text: 'hi' }, ...extra });
				const posts = await Promise.all(
					[streamed({}), streamed({ matching_rules: [{ id: 'r1' }] })].map((b) =>
						post(base, b, sign(SECRET, b)),
					),
				);
				assert.equal(new Set(posts.map(by)).size, 1, 'one post in two bodies went to one process');
				const status = JSON.stringify({
					replay_job_status: { job_id: 'j1', job_state: 'Complete' },
				});
				const jobStatuses = await Promise.all(
					[1, 2, 3].map(() => post(base, status, sign(SECRET, status))),
				);
				assert.equal(new Set(jobStatuses.map(by)).size, 1, 'copies of a body went to one process');
				// Different events spread over the processes.
				const spread = new Set();
				for (let i = 0; i < 30; i++) {
					const b = event(`proxy-spread-${i}`);
					spread.add(by(await post(base, b, sign(SECRET, b))));
				}
				assert.ok(spread.size >= 2, `30 events went to ${[...spread].join(', ')}`);

				// CRC: within the budget n8n answers; over it (one address sending 20 at once) nginx answers
				// with the same token n8n would.
				const tokens = Array.from({ length: 20 }, () => crypto.randomBytes(24).toString('base64'));
				const crcs = await Promise.all(tokens.map((t) => L.request(crcUrl(base, t))));
				const fromNginx = crcs.filter((r) => !by(r));
				assert.ok(
					crcs.every((r) => r.status === 200),
					'every CRC check answered 200',
				);
				assert.ok(
					crcs.some((r) => by(r)),
					'checks within the budget reached a process',
				);
				assert.ok(fromNginx.length > 0, 'checks over the budget were answered by nginx');
				for (const [i, r] of crcs.entries())
					if (!by(r))
						assert.equal(
							JSON.parse(r.text).response_token,
							sign(SECRET, tokens[i]),
							'nginx answers with HMAC-SHA256(secret, crc_token)',
						);

				// A dead process: its deliveries go to the next process on the ring.
				const dead = procs.find((p) => p.name === owner);
				await dead.close();
				const moved = await post(base, body, sign(SECRET, body));
				assert.equal(moved.status, 200, `a delivery for a dead process: ${moved.status}`);
				assert.notEqual(by(moved), owner, 'it went to another process');

				// The fallback (no secret): well-formed calls are passed on, forged or not, up to the limits.
				fallback = await startNginx({
					dir: path.join(dir, 'nginx-fallback'),
					port: await H.freePort(),
					upstreams: procs.filter((p) => p !== dead).map((p) => p.address),
				});
				const forged = await post(fallback.url, body, sign('not-the-secret', body));
				assert.equal(
					forged.status,
					200,
					'the fallback passes a forged but well-formed delivery on',
				);
				const burst = await Promise.all(
					Array.from({ length: 20 }, (_, i) => {
						const b = event(`proxy-fallback-${i}`);
						return post(fallback.url, b, sign('x', b), '127.0.0.9');
					}),
				);
				const statuses = burst.map((r) => r.status);
				assert.ok(statuses.includes(429), `the fallback limits deliveries: ${statuses}`);
				const crcBurst = await Promise.all(tokens.map((t) => L.request(crcUrl(fallback.url, t))));
				assert.ok(
					crcBurst.some((r) => r.status === 429) &&
						crcBurst.every((r) => r.status === 429 || by(r)),
					`the fallback cannot answer CRC checks itself: over the budget 429 (${crcBurst.map((r) => r.status)})`,
				);
				assert.equal(
					(await L.request(`${fallback.url}${HOOK}`, { method: 'DELETE' })).status,
					405,
					'the fallback keeps the format checks',
				);
			} finally {
				await proxy.stop();
				if (fallback) await fallback.stop();
				await Promise.all(procs.map((p) => p.close().catch(() => undefined)));
			}
		},
	},
];
