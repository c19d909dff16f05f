'use strict';
/**
 * HTTP load for the flood test and the capacity benchmark: one timed request, percentiles, a closed
 * loop of N clients, and the flood of forged deliveries run in a child process (`flood`), so that the
 * sandbox, which measures the service's CRC checks and deliveries in the caller's process, is not
 * slowed down by the flooding clients' own work.
 *
 * The flood's clients come from their own loopback addresses (127.0.0.2, 127.0.0.3, ...: Linux routes
 * all of 127.0.0.0/8 to the loopback interface), as a flood from other machines would; a proxy tells
 * them from the service (127.0.0.1 in the tests) by address.
 */
const http = require('node:http');
const crypto = require('node:crypto');
const path = require('node:path');

/** One request; resolves {status, ms, text, type} or {status: 0, error, ms}; never rejects. */
function request(url, { method = 'GET', body, headers = {}, agent, timeoutMs = 30000 } = {}) {
	return new Promise((resolve) => {
		const started = process.hrtime.bigint();
		const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
		const req = http.request(
			url,
			{
				method,
				agent: agent || false,
				headers: Object.assign(
					body !== undefined
						? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
						: {},
					headers,
				),
				timeout: timeoutMs,
			},
			(res) => {
				let text = '';
				res.setEncoding('utf8');
				res.on('data', (c) => (text += c));
				res.on('end', () =>
					resolve({ status: res.statusCode, ms: ms(), text, type: res.headers['content-type'] }),
				);
				res.on('error', (error) => resolve({ status: 0, error: error.message, ms: ms() }));
			},
		);
		req.on('timeout', () => req.destroy(new Error('timeout')));
		req.on('error', (error) =>
			resolve({ status: 0, error: error.code || error.message, ms: ms() }),
		);
		req.end(body);
	});
}

function percentile(values, p) {
	if (!values.length) return undefined;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** p50 / p99 / max of a list of milliseconds. */
function latencies(ms) {
	return {
		n: ms.length,
		p50: percentile(ms, 50),
		p99: percentile(ms, 99),
		max: ms.length ? Math.max(...ms) : undefined,
	};
}

/**
 * `clients` loops, each sending `make(i)` ({url, method, body, headers}) one after the other through its
 * own keep-alive connection (from `localAddress(c)` when given) until `until()` is true. Returns
 * {sent, statuses: {code: count}, errors: {error: count}, seconds, perSecond}.
 */
async function closedLoop({ clients, until, make, localAddress }) {
	const statuses = {};
	const errors = {};
	let sent = 0;
	const started = Date.now();
	async function client(c) {
		const agent = new http.Agent({
			keepAlive: true,
			maxSockets: 1,
			localAddress: localAddress ? localAddress(c) : undefined,
		});
		while (!until()) {
			const { url, ...options } = make(sent++);
			const r = await request(url, Object.assign(options, { agent, timeoutMs: 30000 }));
			if (r.status) statuses[r.status] = (statuses[r.status] || 0) + 1;
			else errors[r.error] = (errors[r.error] || 0) + 1;
		}
		agent.destroy();
	}
	await Promise.all(Array.from({ length: clients }, (_, c) => client(c)));
	const seconds = (Date.now() - started) / 1000;
	return { sent, statuses, errors, seconds, perSecond: sent / seconds };
}

/** A realistic post.create envelope with its own event id. */
function eventBody(id, userId) {
	return JSON.stringify({
		data: {
			event_uuid: id,
			event_type: 'post.create',
			filter: { user_id: userId },
			payload: {
				id: String(1700000000000000000n + BigInt(crypto.randomInt(1e9))),
				text: `Post ${id} with some text to make the payload realistic #n8n`,
				author_id: userId,
				created_at: new Date().toISOString(),
				lang: 'en',
			},
		},
	});
}

/** A delivery signed with a secret that is not the app's: what anyone who knows the URL can send. */
function forgedDelivery(url, userId, i) {
	const body = eventBody(`forged-${process.pid}-${i}`, userId);
	const signature =
		'sha256=' +
		crypto.createHmac('sha256', 'not-the-consumer-secret').update(body).digest('base64');
	return { url, method: 'POST', body, headers: { 'x-platform-webhooks-signature': signature } };
}

/**
 * Floods `url` with forged deliveries from `clients` concurrent clients for `seconds`, the clients
 * spread over `addresses` loopback addresses starting at 127.0.0.2, in a child process. Resolves the
 * child's closedLoop result.
 */
function flood({ url, clients, addresses, seconds, userId }) {
	return runLowPriority(
		__filename,
		{ url, clients, addresses, seconds, userId },
		'the flood process',
	);
}

/**
 * Runs `file` in a child process with `options` (JSON) as its argument and resolves with the one
 * message it sends back. Flooding clients stand in for other machines: on this one they must not take
 * the CPU that n8n and the proxy need, so they get only what those leave (lowest priority).
 */
function runLowPriority(file, options, label) {
	return new Promise((resolve, reject) => {
		const child = require('node:child_process').fork(file, [JSON.stringify(options)], {
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		require('node:os').setPriority(child.pid, 19);
		let result;
		child.on('message', (m) => (result = m));
		child.on('error', reject);
		child.on('exit', (code) =>
			result ? resolve(result) : reject(new Error(`${label} exited with ${code}`)),
		);
	});
}

if (require.main === module) {
	const { url, clients, addresses, seconds, userId } = JSON.parse(process.argv[2]);
	const end = Date.now() + seconds * 1000;
	closedLoop({
		clients,
		until: () => Date.now() >= end,
		make: (i) => forgedDelivery(url, userId, i),
		localAddress: (c) => `127.0.0.${2 + (c % addresses)}`,
	}).then((r) => {
		process.send(r, () => process.exit(0));
	});
}

module.exports = {
	runLowPriority,
	request,
	percentile,
	latencies,
	closedLoop,
	eventBody,
	forgedDelivery,
	flood,
};
