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
const assert = require('node:assert/strict');

const H = require('../lib/host');
const L = require('../lib/load');
const { SCRIPT, ensureNjsModule, runNginx, startNginx } = require('../lib/nginx');
const { standIn } = require('../lib/standin');

const SECRET = 'e2e-recipe-limits-secret';
const HOOK = '/webhook/6a1d0c3e-recipe-limits/webhook';
const MIB = 1024 * 1024;
const sign = (secret, data) =>
	'sha256=' + crypto.createHmac('sha256', secret).update(data).digest('base64');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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

/**
 * One entry of deploy/helm's values files, read by its key (the files' own layout: a key on its own
 * line, a plain or quoted scalar or a `|` block under it; no YAML parser is a dependency here).
 */
function yamlEntry(text, key) {
	const lines = text.split('\n');
	const at = lines.findIndex((l) => l.trim().startsWith(`${key}:`));
	if (at < 0) throw new Error(`deploy/helm: no ${key}`);
	const indent = /^\s*/.exec(lines[at])[0].length;
	const value = lines[at]
		.trim()
		.slice(key.length + 1)
		.trim();
	if (!/^\|-?$/.test(value)) return value.replace(/^(["'])(.*)\1$/, '$2');
	const block = [];
	for (const line of lines.slice(at + 1)) {
		if (line.trim() && /^\s*/.exec(line)[0].length <= indent) break;
		block.push(line);
	}
	while (block.length && !block[block.length - 1].trim()) block.pop();
	const inner = Math.min(...block.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)[0].length));
	return block.map((l) => l.slice(inner)).join('\n');
}

/** The paths of the webhook Ingress that n8n's Helm chart generates (its ingress-webhook template). */
const CHART_WEBHOOK_PATHS = ['/webhook/', '/webhook-waiting/', '/form/', '/form-waiting/', '/mcp/'];

/**
 * The nginx configuration ingress-nginx would generate from deploy/helm's two values files, written out
 * from their text: the controller's main-snippet and http-snippet, its limit-conn-status-code, and one
 * location per path of the chart's webhook Ingress with the directives its annotations give
 * (proxy-body-size, client-body-buffer-size, proxy-request-buffering, proxy-read-timeout, the
 * configuration-snippet). ingress-nginx picks the endpoint with its own consistent hash (Lua) on the
 * upstream-hash-by value; here nginx's `hash <value> consistent` over the stand-in processes does.
 */
function renderIngress({ dir, port, upstreams, hook, njsModule }) {
	const helm = path.join(H.ROOT, 'deploy', 'helm');
	const controller = fs.readFileSync(path.join(helm, 'ingress-nginx-values.yaml'), 'utf8');
	const n8n = fs.readFileSync(path.join(helm, 'n8n-values.yaml'), 'utf8');
	const mount = '/etc/nginx/platform-webhooks/platform-webhooks.js';
	const httpSnippet = yamlEntry(controller, 'http-snippet')
		.split('\n')
		.map((l) => (/EDIT\(hook\)/.test(l) ? `    "${hook}" 1;` : l))
		.join('\n');
	assert.ok(
		httpSnippet.includes(mount),
		'the http-snippet imports the mounted platform-webhooks.js',
	);
	const mainSnippet = yamlEntry(controller, 'main-snippet').replace(
		'/etc/nginx/modules/ngx_http_js_module.so',
		njsModule,
	);
	const note = (name) => yamlEntry(n8n, `nginx.ingress.kubernetes.io/${name}`);
	const temp = (name) => path.join(dir, 'temp', name);
	const location = (p) =>
		[
			`        location ${p} {`,
			`            client_max_body_size ${note('proxy-body-size')};`,
			`            client_body_buffer_size ${note('client-body-buffer-size')};`,
			...note('configuration-snippet')
				.split('\n')
				.map((l) => `            ${l}`),
			`            proxy_request_buffering ${note('proxy-request-buffering')};`,
			`            proxy_read_timeout ${note('proxy-read-timeout')}s;`,
			'            proxy_http_version 1.1;',
			'            proxy_set_header Connection "";',
			'            proxy_set_header Host $host;',
			'            proxy_pass http://webhook_processor;',
			'        }',
		].join('\n');
	return [
		mainSnippet,
		'daemon off;',
		'worker_processes 1;',
		`pid ${path.join(dir, 'nginx.pid')};`,
		`error_log ${path.join(dir, 'logs', 'error.log')} warn;`,
		'events { worker_connections 1024; }',
		'http {',
		`    client_body_temp_path ${temp('body')};`,
		`    proxy_temp_path ${temp('proxy')};`,
		`    fastcgi_temp_path ${temp('fastcgi')};`,
		`    uwsgi_temp_path ${temp('uwsgi')};`,
		`    scgi_temp_path ${temp('scgi')};`,
		`    access_log ${path.join(dir, 'logs', 'access.log')};`,
		`    limit_conn_status ${yamlEntry(controller, 'limit-conn-status-code')};`,
		httpSnippet.replace(mount, SCRIPT),
		'    upstream webhook_processor {',
		`        hash ${note('upstream-hash-by')} consistent;`,
		...upstreams.map((u) => `        server ${u} max_fails=0;`),
		'    }',
		'    server {',
		`        listen 127.0.0.1:${port};`,
		'        server_name n8n.example.com localhost 127.0.0.1;',
		'        location / {',
		'            return 404;',
		'        }',
		...CHART_WEBHOOK_PATHS.map(location),
		'    }',
		'}',
		'',
	].join('\n');
}

/** Starts nginx (Debian's, with njs) on `conf`'s text in `dir`; returns {url, child, errorLog, stop()}. */
async function startRendered(dir, port, conf) {
	fs.mkdirSync(path.join(dir, 'temp'), { recursive: true });
	const file = path.join(dir, 'nginx.conf');
	fs.writeFileSync(file, conf);
	const { child, errorLog, stop } = await runNginx({
		dir,
		conf: file,
		port,
		label: 'nginx (helm)',
	});
	return { url: `http://127.0.0.1:${port}`, port, child, errorLog, stop };
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

				// The excess of each address is answered at once, without its body being read (polled for
				// up to 8 s: a loaded machine takes a while to open 144 connections).
				const excess = senders.length - 64 * ADDRESSES.length;
				for (let waited = 0; waited < 8000; waited += 250) {
					if (senders.filter((s) => s.status !== undefined).length >= excess) break;
					await sleep(250);
				}
				await sleep(500);
				const refused = senders.filter((s) => s.status !== undefined);
				assert.equal(
					refused.length,
					excess,
					`slow senders answered: ${refused.length} of ${senders.length}`,
				);
				assert.ok(
					refused.every((s) => s.status === 429 && s.answeredMs < 5000),
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
	{
		name: 'helm values: the nginx configuration ingress-nginx generates from deploy/helm (controller snippets, the webhook Ingress annotations) routes every body of one event or one account to one of two webhook processes, spreads the rest, refuses malformed calls to the trigger’s path only, and holds at most 64 POST connections per address',
		modes: ['regular'],
		timeoutMs: 60000,
		async run(ctx) {
			const { assert } = ctx;
			const procs = [await standIn('a'), await standIn('b')];
			const dir = dirOf(ctx, 'helm');
			const port = await H.freePort();
			const proxy = await startRendered(
				dir,
				port,
				renderIngress({
					dir,
					port,
					upstreams: procs.map((p) => p.address),
					hook: HOOK,
					njsModule: ensureNjsModule(),
				}),
			);
			const senders = [];
			try {
				const base = proxy.url;
				const reached = () => procs.reduce((n, p) => n + p.calls.length, 0);
				const by = (r) => (r.status === 200 ? JSON.parse(r.text).by : `status ${r.status}`);
				const deliver = (text) =>
					L.request(`${base}${HOOK}`, {
						method: 'POST',
						body: text,
						headers: { 'x-platform-webhooks-signature': sign(SECRET, text) },
					});
				const event = (id, extra = {}) =>
					JSON.stringify({ data: Object.assign({ event_uuid: id }, extra) });
				const account = (id, posts) =>
					JSON.stringify({
						for_user_id: id,
						tweet_create_events: posts.map((p) => ({ id_str: p, text: `post ${p}` })),
					});

				// One event in several envelopes (and a body large enough for the temporary file): one process.
				for (let i = 0; i < 8; i++) {
					const id = `helm-event-${i}`;
					const answers = await Promise.all([
						deliver(event(id)),
						deliver(event(id, { replayed: true })),
						deliver(event(id, { padding: 'x'.repeat(200 * 1024) })),
					]);
					assert.equal(
						new Set(answers.map(by)).size,
						1,
						`event ${id} went to ${answers.map(by).join(', ')}`,
					);
				}
				// One account's bodies (a post alone, in a batch, in a replay batch): one process.
				for (let i = 0; i < 8; i++) {
					const answers = await Promise.all(
						[['1'], ['1', '2'], ['3', '1']].map((posts) => deliver(account(`9${i}`, posts))),
					);
					assert.equal(new Set(answers.map(by)).size, 1, `account 9${i}: ${answers.map(by)}`);
				}
				// Different events and accounts spread over both processes.
				const spread = new Set();
				for (let i = 0; i < 24; i++) spread.add(by(await deliver(event(`helm-spread-${i}`))));
				assert.deepEqual([...spread].sort(), ['a', 'b'], `24 events went to ${[...spread]}`);
				const crc = await L.request(
					`${base}${HOOK}?crc_token=${crypto.randomBytes(24).toString('base64url')}`,
				);
				assert.equal(crc.status, 200, `a CRC check is passed on: ${crc.status}`);

				// Malformed calls to the trigger's path are refused before they reach a process.
				const before = reached();
				const refusals = [
					['PUT', await L.request(`${base}${HOOK}`, { method: 'PUT', body: '{}' }), 405],
					['GET without crc_token', await L.request(`${base}${HOOK}`), 400],
					[
						'POST without signature',
						await L.request(`${base}${HOOK}`, { method: 'POST', body: event('x') }),
						400,
					],
					[
						'a CRC check with a body',
						await raw(
							port,
							`GET ${HOOK}?crc_token=${'a'.repeat(24)} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
						),
						400,
					],
					[
						'POST over 4 MiB',
						await L.request(`${base}${HOOK}`, {
							method: 'POST',
							body: 'x'.repeat(4 * MIB + 1),
							headers: { 'x-platform-webhooks-signature': sign(SECRET, 'x') },
						}),
						413,
					],
				];
				for (const [what, r, status] of refusals)
					assert.equal(r.status, status, `${what}: ${r.status} ${r.error || ''}`);
				assert.equal(reached(), before, 'no refused call reached a webhook process');
				// n8n's other webhooks and forms on the same Ingress pass unchecked.
				const others = [
					await L.request(`${base}/form/0b9e-some-form`),
					await L.request(`${base}/webhook/some-other-hook`, { method: 'PUT', body: '{}' }),
					await L.request(`${base}/webhook-waiting/123`),
				];
				assert.deepEqual(
					others.map((r) => r.status),
					[200, 200, 200],
					'forms and other webhooks reach the webhook processes',
				);

				// Slow senders: 64 POST connections per address, the excess refused at once.
				for (let i = 0; i < 70; i++)
					senders.push(
						slowSender({
							port,
							from: '127.0.0.31',
							length: MIB,
							prefill: 1024,
							everyMs: 4000,
						}),
					);
				for (let waited = 0; waited < 8000; waited += 250) {
					if (senders.filter((s) => s.status !== undefined).length >= 6) break;
					await sleep(250);
				}
				await sleep(500);
				const answered = senders.filter((s) => s.status !== undefined);
				assert.equal(answered.length, 6, `slow senders answered: ${answered.map((s) => s.status)}`);
				assert.ok(
					answered.every((s) => s.status === 429),
					'over the limit: 429',
				);
				// nginx logs every 413 at error level itself; nothing else may be there.
				assert.deepEqual(
					errorLines(proxy.errorLog).filter((l) => !/intended to send too large body/.test(l)),
					[],
					'no error-level line in nginx’s log but the 413',
				);
			} finally {
				for (const s of senders) s.stop();
				await proxy.stop();
				await Promise.all(procs.map((p) => p.close()));
			}
		},
	},
];
