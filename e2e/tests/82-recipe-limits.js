'use strict';
/**
 * The nginx recipe (deploy/nginx/platform-webhooks.conf and .js, run as shipped by e2e/lib/nginx.js)
 * against callers that try to exhaust it, in front of a stand-in webhook process (no n8n is needed:
 * nothing here reaches the trigger):
 *   - slow senders: clients that send most of a body at once and then one byte every 4 s (nginx's
 *     client_body_timeout limits only the gap between reads) hold a connection each for as long as they
 *     like. The recipe lets one address hold at most 64 POST connections, answers the excess 429 at once
 *     without reading its body, and keeps at most 64 KiB of each body in memory (the rest goes to a
 *     temporary file that the njs check reads), so nginx's memory stays bounded; meanwhile the service's
 *     CRC checks are answered in time, and 64 deliveries at once from one address, each waiting 2 s for
 *     n8n, all pass. A body that took longer than the service waits (10 s) is refused (408), not passed
 *     on. Bodies larger than the memory buffer are verified and routed like small ones;
 *   - empty and bodiless calls: a POST with a well-formed signature and no body (Content-Length: 0, or
 *     an empty chunked body) gets 400 as the trigger answers it, a CRC check carrying a body gets 400
 *     before its body is read, and none of them leaves a line in nginx's error log.
 */
const fs = require('node:fs');
const crypto = require('node:crypto');
const http = require('node:http');
const net = require('node:net');
const path = require('node:path');

const H = require('../lib/host');
const L = require('../lib/load');
const { startNginx } = require('../lib/nginx');

const SECRET = 'e2e-recipe-limits-secret';
const HOOK = '/webhook/6a1d0c3e-recipe-limits/webhook';
const MIB = 1024 * 1024;
const sign = (secret, data) =>
	'sha256=' + crypto.createHmac('sha256', secret).update(data).digest('base64');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * A stand-in webhook process: answers 200 after `delayMs` (a delivery waiting for n8n), records each
 * call's method, URL and the SHA-256 of its body.
 */
async function standIn() {
	const port = await H.freePort();
	const calls = [];
	const state = { delayMs: 0 };
	const server = http.createServer((req, res) => {
		const hash = crypto.createHash('sha256');
		let bytes = 0;
		req.on('data', (c) => {
			hash.update(c);
			bytes += c.length;
		});
		req.on('end', async () => {
			calls.push({ method: req.method, url: req.url, bytes, sha: hash.digest('hex') });
			if (state.delayMs) await sleep(state.delayMs);
			res.setHeader('content-type', 'application/json');
			res.end('{"ok":true}');
		});
	});
	await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
	return {
		address: `127.0.0.1:${port}`,
		calls,
		state,
		close: () =>
			new Promise((resolve) => {
				server.close(resolve);
				server.closeAllConnections();
			}),
	};
}

/**
 * A slow sender from `from`: a POST with a well-formed signature header announcing `length` bytes,
 * `prefill` of them at once, then one byte every `everyMs` (under client_body_timeout) until nginx
 * answers or the test stops it. `status` is set when nginx answers, `answeredMs` how long that took.
 */
function slowSender({ port, from, length, prefill, everyMs }) {
	const s = net.connect({ port, host: '127.0.0.1', localAddress: from });
	const sender = {
		status: undefined,
		answeredMs: undefined,
		closed: false,
		stop: () => s.destroy(),
	};
	const started = Date.now();
	let head = '';
	s.on('connect', () => {
		s.write(
			`POST ${HOOK} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
				`Content-Length: ${length}\r\n` +
				`x-platform-webhooks-signature: ${sign('not-the-secret', String(Math.random()))}\r\n\r\n`,
		);
		s.write(Buffer.alloc(prefill, 0x20));
	});
	const timer = setInterval(() => {
		if (!s.destroyed && sender.status === undefined) s.write(' ');
	}, everyMs);
	s.on('data', (d) => {
		head += d.toString('latin1');
		const m = /^HTTP\/1\.1 (\d{3})/.exec(head);
		if (m && sender.status === undefined) {
			sender.status = Number(m[1]);
			sender.answeredMs = Date.now() - started;
		}
	});
	s.on('error', () => undefined);
	s.on('close', () => {
		sender.closed = true;
		clearInterval(timer);
	});
	return sender;
}

/** The resident memory of nginx's worker processes (the children of the master `pid`), in bytes. */
function workersRss(pid) {
	let total = 0;
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		let stat;
		try {
			stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
			// The fields after the command name (which may hold spaces): state, ppid, ...
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			if (ppid !== pid) continue;
			const status = fs.readFileSync(`/proc/${entry}/status`, 'utf8');
			total += Number(/VmRSS:\s+(\d+)/.exec(status)[1]) * 1024;
		} catch {
			// a process that ended meanwhile
		}
	}
	return total;
}

/** One raw HTTP/1.1 exchange (for what Node's client will not send, such as an empty chunked body). */
function raw(port, text) {
	return new Promise((resolve) => {
		const s = net.connect(port, '127.0.0.1', () => s.end(text));
		let out = '';
		s.on('data', (d) => (out += d.toString('latin1')));
		s.on('close', () => {
			const m = /^HTTP\/1\.1 (\d{3})/.exec(out);
			resolve({ status: m ? Number(m[1]) : 0, text: out.slice(out.indexOf('\r\n\r\n') + 4) });
		});
		s.on('error', () => resolve({ status: 0, text: out }));
	});
}

function errorLines(file) {
	return fs
		.readFileSync(file, 'utf8')
		.split('\n')
		.filter((line) => /\[(error|crit|alert|emerg)\]/.test(line));
}

const dirOf = (ctx, name) => path.join(path.dirname(ctx.inst.dir), 'recipe-limits', name);

module.exports = [
	{
		name: 'recipe limits: slow senders hold at most 64 POST connections per address and 64 KiB of nginx memory each; the service’s CRC checks and 64 concurrent deliveries from one address pass meanwhile; a body slower than 10 s gets 408; large bodies are verified from the temporary file',
		modes: ['regular'],
		timeoutMs: 90000,
		async run(ctx) {
			const { assert } = ctx;
			const proc = await standIn();
			const proxy = await startNginx({
				dir: dirOf(ctx, 'slow'),
				port: await H.freePort(),
				upstreams: [proc.address],
				secret: SECRET,
			});
			const senders = [];
			try {
				const base = proxy.url;
				const before = workersRss(proxy.child.pid);
				// 2 addresses, 72 slow senders each: 1 MiB of a 4 MiB body at once, then a byte every 4 s.
				const ADDRESSES = ['127.0.0.21', '127.0.0.22'];
				const PER_ADDRESS = 72;
				const PREFILL = MIB;
				for (const from of ADDRESSES)
					for (let i = 0; i < PER_ADDRESS; i++)
						senders.push(
							slowSender({
								port: proxy.port,
								from,
								length: 4 * MIB,
								prefill: PREFILL,
								everyMs: 4000,
							}),
						);

				// A delivery whose body takes 11 s (a piece every 3.7 s, each gap under client_body_timeout).
				const slowBody = JSON.stringify({ data: { event_uuid: 'limits-too-slow' } });
				const tooSlow = new Promise((resolve) => {
					// From an address of its own: the 64 deliveries below are all that 127.0.0.1 may hold.
					const s = net.connect(
						{ port: proxy.port, host: '127.0.0.1', localAddress: '127.0.0.23' },
						async () => {
							s.write(
								`POST ${HOOK} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
									`Content-Length: ${slowBody.length}\r\nx-platform-webhooks-signature: ${sign(SECRET, slowBody)}\r\n\r\n`,
							);
							const pieces = [0, 10, 20, 30, slowBody.length];
							for (let i = 0; i + 1 < pieces.length; i++) {
								if (i) await sleep(3700);
								s.write(slowBody.slice(pieces[i], pieces[i + 1]));
							}
						},
					);
					let out = '';
					s.on('data', (d) => {
						out += d;
						const m = /^HTTP\/1\.1 (\d{3})/.exec(out);
						if (m) {
							s.destroy();
							resolve(Number(m[1]));
						}
					});
					s.on('error', () => resolve(0));
				});

				await sleep(3000);
				// The excess of each address was answered at once, without its body being read.
				const refused = senders.filter((s) => s.status !== undefined);
				assert.equal(
					refused.length,
					senders.length - 64 * ADDRESSES.length,
					`slow senders answered within 3 s: ${refused.length} of ${senders.length}`,
				);
				assert.ok(
					refused.every((s) => s.status === 429 && s.answeredMs < 2000),
					`the excess got 429 at once: ${refused.map((s) => `${s.status}/${s.answeredMs}ms`)}`,
				);

				// While they hold their connections: the service's CRC checks and 64 deliveries at once from
				// its one address, each waiting 2 s for n8n.
				const crcs = [];
				for (let i = 0; i < 3; i++) {
					const token = crypto.randomBytes(24).toString('base64url');
					crcs.push(await L.request(`${base}${HOOK}?crc_token=${token}`));
				}
				assert.ok(
					crcs.every((r) => r.status === 200 && r.ms < 1000),
					`CRC checks answered within 1 s: ${crcs.map((r) => `${r.status}/${Math.round(r.ms)}ms`)}`,
				);
				proc.state.delayMs = 2000;
				const deliveries = await Promise.all(
					Array.from({ length: 64 }, (_, i) => {
						const b = JSON.stringify({ data: { event_uuid: `limits-burst-${i}` } });
						return L.request(`${base}${HOOK}`, {
							method: 'POST',
							body: b,
							headers: { 'x-platform-webhooks-signature': sign(SECRET, b) },
						});
					}),
				);
				proc.state.delayMs = 0;
				assert.deepEqual(
					deliveries.map((r) => r.status),
					Array(64).fill(200),
					'64 deliveries at once from one address, each waiting 2 s for n8n: none refused',
				);

				// Large bodies go to the temporary file and are still verified, and routed by their content.
				const big = (id, bytes) => {
					const head = JSON.stringify({ data: { event_uuid: id, text: '' } });
					return head.replace('"text":""', `"text":"${'x'.repeat(bytes - head.length)}"`);
				};
				const large = big('limits-large-4m', 4 * MIB);
				const largeAnswer = await L.request(`${base}${HOOK}`, {
					method: 'POST',
					body: large,
					headers: { 'x-platform-webhooks-signature': sign(SECRET, large) },
				});
				assert.equal(largeAnswer.status, 200, `a signed 4 MiB delivery: ${largeAnswer.status}`);
				const sha = crypto.createHash('sha256').update(large).digest('hex');
				assert.ok(
					proc.calls.some((c) => c.sha === sha && c.bytes === 4 * MIB),
					'the 4 MiB body reached the webhook process unchanged',
				);
				const forgedLarge = big('limits-large-forged', MIB);
				assert.equal(
					(
						await L.request(`${base}${HOOK}`, {
							method: 'POST',
							body: forgedLarge,
							headers: { 'x-platform-webhooks-signature': sign('not-the-secret', forgedLarge) },
						})
					).status,
					401,
					'a forged 1 MiB delivery is refused by the check of the temporary file',
				);

				assert.equal(await tooSlow, 408, 'a body that took 11 s is refused');
				assert.ok(
					!proc.calls.some(
						(c) => c.sha === crypto.createHash('sha256').update(slowBody).digest('hex'),
					),
					'the slow body never reached the webhook process',
				);

				// After 10 s the slow senders still hold their connections (nginx has no whole-body
				// deadline), but no more than 64 per address, and little of nginx's memory.
				const held = senders.filter((s) => !s.closed && s.status === undefined).length;
				assert.equal(held, 64 * ADDRESSES.length, `slow senders holding a connection: ${held}`);
				const grown = workersRss(proxy.child.pid) - before;
				H.log(
					`recipe limits: ${held} slow senders held (${PER_ADDRESS} tried from each of ${ADDRESSES.length} addresses, ${PREFILL / MIB} MiB sent by each); nginx workers' memory grew ${(grown / MIB).toFixed(1)} MiB`,
				);
				// Kept in memory, their bodies would take held x 1 MiB; the recipe keeps 64 KiB of each.
				assert.ok(
					grown < (held * PREFILL) / 4,
					`nginx's memory grew ${(grown / MIB).toFixed(1)} MiB with ${held} slow senders holding ${PREFILL / MIB} MiB each`,
				);
				assert.deepEqual(errorLines(proxy.errorLog), [], 'no error-level line in nginx’s log');
			} finally {
				for (const s of senders) s.stop();
				await proxy.stop();
				await proc.close();
			}
		},
	},
	{
		name: 'recipe limits: a POST with a well-formed signature and no body (Content-Length 0 or an empty chunked body) gets 400 like the trigger answers it, a CRC check with a body gets 400, no error-level log line',
		modes: ['regular'],
		timeoutMs: 30000,
		async run(ctx) {
			const { assert } = ctx;
			const proc = await standIn();
			const proxy = await startNginx({
				dir: dirOf(ctx, 'empty'),
				port: await H.freePort(),
				upstreams: [proc.address],
				secret: SECRET,
			});
			try {
				const signature = sign(SECRET, '');
				const head = (lines) =>
					[`POST ${HOOK} HTTP/1.1`, 'Host: localhost', ...lines, 'Connection: close', '', ''].join(
						'\r\n',
					);
				const cases = [
					[
						'Content-Length: 0',
						head([`x-platform-webhooks-signature: ${signature}`, 'Content-Length: 0']),
					],
					['no Content-Length', head([`x-platform-webhooks-signature: ${signature}`])],
					[
						'an empty chunked body',
						head([`x-platform-webhooks-signature: ${signature}`, 'Transfer-Encoding: chunked']) +
							'0\r\n\r\n',
					],
				];
				for (const [what, text] of cases) {
					const r = await raw(proxy.port, text);
					assert.equal(r.status, 400, `${what}: ${r.status}`);
					assert.deepEqual(
						JSON.parse(r.text),
						{ error: 'no body' },
						`${what}: the trigger's answer`,
					);
				}
				const token = crypto.randomBytes(24).toString('base64url');
				const crcWithBody = await raw(
					proxy.port,
					[
						`GET ${HOOK}?crc_token=${token} HTTP/1.1`,
						'Host: localhost',
						'Content-Length: 5',
						'Connection: close',
						'',
						'hello',
					].join('\r\n'),
				);
				assert.equal(crcWithBody.status, 400, `a CRC check with a body: ${crcWithBody.status}`);
				const crc = await L.request(`${proxy.url}${HOOK}?crc_token=${token}`);
				assert.equal(crc.status, 200, `a CRC check without a body still passes: ${crc.status}`);
				assert.equal(
					proc.calls.filter((c) => c.method === 'POST').length,
					0,
					'no bodiless POST reached the webhook process',
				);
				assert.deepEqual(errorLines(proxy.errorLog), [], 'no error-level line in nginx’s log');
			} finally {
				await proxy.stop();
				await proc.close();
			}
		},
	},
];
