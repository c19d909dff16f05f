#!/usr/bin/env node
'use strict';
/**
 * Ads Catalog push benchmark (plain Node, no jest, no n8n):
 *
 *   - a local HTTP server (127.0.0.1, random port) answers every products PUT after a fixed delay
 *     (BENCH_DELAY_MS, default 50) and counts requests and the products it stored;
 *   - the compiled node from dist/ (Ads Catalog > Product > Push) runs inside a minimal execution
 *     context that signs each request with the compiled OAuth 1.0a credential and sends it over HTTP;
 *   - clean runs: BENCH_PRODUCTS (default 10,000) products at each concurrency of BENCH_CONCURRENCY
 *     (default "4,8"): exactly products/25 requests, wall time <= 1.15 x (requests / C) x delay,
 *     peak RSS reported;
 *   - fault run: 20% of PUTs answered 429 (x-rate-limit-reset one second ahead) and 5% 503, not
 *     processed by the server: every product must land exactly once (none duplicated, none lost).
 *
 * Prints a figures table (also appended to bench/results/<date>.md); exit code 1 only when something
 * failed (a product lost or duplicated, a wrong request); a missed wall-time target is reported, not
 * enforced: timings depend on the machine. Needs a current build:
 *   npm run build && node bench/catalog.js
 * BENCH_DIST=<dir> points at another build output (default ./dist).
 */
const http = require('node:http');
const path = require('node:path');
const fs = require('node:fs');

const DIST = path.resolve(process.env.BENCH_DIST || path.join(__dirname, '..', 'dist'));
const DELAY_MS = Number(process.env.BENCH_DELAY_MS || 50);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS || 10000);
const CONCURRENCIES = String(process.env.BENCH_CONCURRENCY || '4,8')
	.split(',')
	.map(Number)
	.filter((n) => n > 0);
const FAULT_CONCURRENCY = Number(process.env.BENCH_FAULT_CONCURRENCY || 8);
const RATE_429 = 0.2;
const RATE_503 = 0.05;
const BATCH = 25;
const CATALOG = '1473981234567890123';
const SLACK = 1.15;

const SERVER_MODE = process.argv[2] === '--server';
const nodeFile = path.join(DIST, 'nodes', 'AdsCatalog', 'AdsCatalog.node.js');
const credentialFile = path.join(DIST, 'credentials', 'PlatformOAuth1Api.credentials.js');
for (const file of SERVER_MODE ? [] : [nodeFile, credentialFile]) {
	if (!fs.existsSync(file)) {
		console.error(
			`bench/catalog.js: ${path.relative(process.cwd(), file)} is missing. Build first: npm run build && node bench/catalog.js`,
		);
		process.exit(1);
	}
}
const { AdsCatalog } = SERVER_MODE ? {} : require(nodeFile);
const { signRequest } = SERVER_MODE ? {} : require(credentialFile);

// ---------------------------------------------------------------- deterministic randomness
function prng(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

// ---------------------------------------------------------------- the fake advertising service
function startServer() {
	const state = {
		faults: null,
		requests: 0,
		processedRequests: 0,
		injected429: 0,
		injected503: 0,
		unsigned: 0,
		oversized: 0,
		landed: new Map(),
		inFlight: 0,
		peakInFlight: 0,
		failuresPerBatch: new Map(),
	};
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			const url = new URL(req.url, 'http://127.0.0.1');
			if (req.method !== 'PUT' || url.pathname !== `/12/product_catalogs/${CATALOG}/products`) {
				res.writeHead(404, { 'content-type': 'application/json' });
				res.end(
					JSON.stringify({
						errors: [{ code: 'ROUTE_NOT_FOUND', message: `${req.method} ${url.pathname}` }],
					}),
				);
				return;
			}
			state.requests++;
			if (!state.firstAt) state.firstAt = process.hrtime.bigint();
			if (!/^OAuth .*oauth_signature="/.test(String(req.headers.authorization || '')))
				state.unsigned++;
			let products;
			try {
				products = JSON.parse(Buffer.concat(chunks).toString('utf8')).products;
			} catch {
				products = undefined;
			}
			if (!Array.isArray(products) || products.length === 0 || products.length > BATCH) {
				state.oversized++;
				res.writeHead(400, { 'content-type': 'application/json' });
				res.end(
					JSON.stringify({
						errors: [
							{
								code: 'INVALID_PARAMETER',
								message: 'products: 1 to 25 required',
								parameter: 'products',
							},
						],
					}),
				);
				return;
			}
			// Fault injection (refused requests are not processed). A batch is refused at most twice so that
			// the run stays within the transport's retry budget (5 rate-limit waits, 3 transient retries).
			if (state.faults) {
				const key = String(products[0].id);
				const failures = state.failuresPerBatch.get(key) || 0;
				const roll = state.faults.random();
				if (failures < 2 && roll < RATE_429) {
					state.failuresPerBatch.set(key, failures + 1);
					state.injected429++;
					const reset = Math.floor(Date.now() / 1000) + 1;
					res.writeHead(429, {
						'content-type': 'application/json',
						'x-rate-limit-limit': '900',
						'x-rate-limit-remaining': '0',
						'x-rate-limit-reset': String(reset),
					});
					res.end(
						JSON.stringify({
							errors: [{ code: 'TOO_MANY_REQUESTS', message: 'Rate limit exceeded' }],
							request: { params: {} },
						}),
					);
					return;
				}
				if (failures < 2 && roll < RATE_429 + RATE_503) {
					state.failuresPerBatch.set(key, failures + 1);
					state.injected503++;
					res.writeHead(503, { 'content-type': 'application/json' });
					res.end(
						JSON.stringify({ errors: [{ code: 'SERVICE_UNAVAILABLE', message: 'Over capacity' }] }),
					);
					return;
				}
			}
			state.inFlight++;
			state.peakInFlight = Math.max(state.peakInFlight, state.inFlight);
			setTimeout(() => {
				state.inFlight--;
				state.processedRequests++;
				const results = products.map((p) => {
					const id = String(p.id);
					const before = state.landed.get(id) || 0;
					state.landed.set(id, before + 1);
					return {
						warnings: [],
						errors: [],
						product_key: `k${id}`,
						id,
						status: before ? 'UPDATE_SUCCESS' : 'CREATE_SUCCESS',
					};
				});
				const body = JSON.stringify({
					request: { params: { product_catalog_id: CATALOG } },
					data: { products_response: results },
				});
				res.writeHead(200, {
					'content-type': 'application/json',
					'content-length': Buffer.byteLength(body),
				});
				res.end(body);
				state.lastAt = process.hrtime.bigint();
			}, DELAY_MS);
		});
	});
	server.keepAliveTimeout = 60000;
	return new Promise((resolve) =>
		server.listen(0, '127.0.0.1', () => resolve({ server, state, port: server.address().port })),
	);
}

/** Server mode: the fake service runs in its own process, so that its work does not slow the node's event loop. */
async function serverProcess() {
	const { server, state, port } = await startServer();
	process.on('message', (message) => {
		if (message.cmd === 'reset') {
			resetState(state, message.faults ? { random: prng(message.seed) } : null);
			process.send({ reply: 'reset' });
		} else if (message.cmd === 'stats') {
			const { faults, landed, failuresPerBatch, firstAt, lastAt, ...counts } = state;
			process.send({
				reply: 'stats',
				stats: { ...counts, firstAt: String(firstAt), lastAt: String(lastAt), landed: [...landed] },
			});
		} else if (message.cmd === 'exit') {
			server.close();
			process.exit(0);
		}
	});
	process.send({ reply: 'listening', port });
}

/** Starts the server process; `call` sends a command and resolves with the reply. */
function spawnServer() {
	const { fork } = require('node:child_process');
	const child = fork(__filename, ['--server'], { stdio: 'inherit' });
	const waiting = [];
	child.on('message', (message) => {
		const next = waiting.shift();
		if (next) next(message);
	});
	const call = (message) =>
		new Promise((resolve) => {
			waiting.push(resolve);
			if (message) child.send(message);
		});
	return call(null).then((hello) => ({ child, port: hello.port, call }));
}

function resetState(state, faults) {
	Object.assign(state, {
		faults,
		requests: 0,
		processedRequests: 0,
		injected429: 0,
		injected503: 0,
		unsigned: 0,
		oversized: 0,
		landed: new Map(),
		inFlight: 0,
		peakInFlight: 0,
		failuresPerBatch: new Map(),
		firstAt: 0n,
		lastAt: 0n,
	});
}

// ---------------------------------------------------------------- a minimal n8n execution context
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function send(options) {
	return new Promise((resolve, reject) => {
		const url = new URL(options.url);
		for (const [k, v] of Object.entries(options.qs || {}))
			if (v !== undefined && v !== null) url.searchParams.append(k, String(v));
		const headers = {};
		for (const [k, v] of Object.entries(options.headers || {}))
			headers[k.toLowerCase()] = String(v);
		let payload;
		if (options.body !== undefined) {
			payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
			headers['content-type'] = headers['content-type'] || 'application/json';
			headers['content-length'] = Buffer.byteLength(payload);
		}
		const req = http.request(
			url,
			{ method: options.method || 'GET', headers, agent, timeout: options.timeout || 60000 },
			(res) => {
				const chunks = [];
				res.on('data', (c) => chunks.push(c));
				res.on('end', () => {
					const text = Buffer.concat(chunks).toString('utf8');
					let body = text;
					if (options.json && text) {
						try {
							body = JSON.parse(text);
						} catch {
							body = text;
						}
					}
					if (res.statusCode >= 400 && !options.ignoreHttpStatusErrors) {
						const error = new Error(`Request failed with status code ${res.statusCode}`);
						error.response = { status: res.statusCode, data: body, headers: res.headers };
						reject(error);
						return;
					}
					resolve(
						options.returnFullResponse
							? { statusCode: res.statusCode, headers: res.headers, body }
							: body,
					);
				});
			},
		);
		req.on('timeout', () => req.destroy(new Error('timeout')));
		req.on('error', reject);
		req.end(payload);
	});
}

function context({ port, items, concurrency }) {
	const credentials = {
		consumerKey: 'bench-consumer-key',
		consumerSecret: 'bench-consumer-secret',
		accessToken: '1000000001-bench-token',
		accessTokenSecret: 'bench-token-secret',
		baseUrl: `http://127.0.0.1:${port}`,
		adsBaseUrl: `http://127.0.0.1:${port}`,
	};
	const parameters = {
		authentication: 'platformOAuth1Api',
		resource: 'product',
		operation: 'push',
		catalogId: { __rl: true, mode: 'id', value: CATALOG },
		mapping: 'auto',
		options: { concurrency, onError: 'continue', maxRateLimitWait: 60 },
	};
	const node = {
		id: 'bench',
		name: 'Ads Catalog',
		type: 'n8n-nodes-platform.adsCatalog',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	return {
		getNode: () => node,
		getInputData: () => items,
		continueOnFail: () => false,
		getCredentials: async (type) => {
			if (type !== 'platformOAuth1Api') throw new Error(`unexpected credential type ${type}`);
			return credentials;
		},
		getNodeParameter(name, _itemIndex, fallback) {
			return name in parameters ? parameters[name] : fallback;
		},
		helpers: {
			async httpRequestWithAuthentication(type, options) {
				if (type !== 'platformOAuth1Api') throw new Error(`unexpected credential type ${type}`);
				return await send(await signRequest(credentials, options));
			},
		},
		logger: { debug() {}, info() {}, warn() {}, error() {} },
	};
}

function makeItems(n, run) {
	return Array.from({ length: n }, (_, i) => ({
		json: {
			id: `R${run}-SKU-${String(i).padStart(6, '0')}`,
			title: `Benchmark product ${i}`,
			description: `Plain-text description of benchmark product ${i}, long enough to look like a real one.`,
			availability: 'in stock',
			condition: 'new',
			price: `${(10 + (i % 90)).toFixed(2)} USD`,
			sale_price: `${(5 + (i % 5)).toFixed(2)} USD`,
			link: `https://shop.example/products/${i}`,
			image_link: `https://shop.example/images/${i}.jpg`,
			brand: 'Acme',
			inventory: 1 + (i % 50),
			product_type: 'Home > Kitchen',
		},
	}));
}

// ---------------------------------------------------------------- runs
async function runPush(server, { concurrency, faults, run }) {
	await server.call({ cmd: 'reset', faults: !!faults, seed: 0xc0ffee + run });
	const items = makeItems(PRODUCTS, run);
	if (global.gc) global.gc();
	// process.memoryUsage.rss() is cheap (process.memoryUsage() walks the heap and would slow the run).
	const baseline = process.memoryUsage.rss();
	let peak = baseline;
	const sampler = setInterval(() => {
		peak = Math.max(peak, process.memoryUsage.rss());
	}, 10);
	const started = process.hrtime.bigint();
	let output;
	let error;
	try {
		output = (
			await new AdsCatalog().execute.call(context({ port: server.port, items, concurrency }))
		)[0];
	} catch (e) {
		error = e;
	}
	const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
	clearInterval(sampler);
	peak = Math.max(peak, process.memoryUsage.rss());
	const s = (await server.call({ cmd: 'stats' })).stats;
	s.landed = new Map(s.landed);
	const firstAt = BigInt(s.firstAt);
	const lastAt = BigInt(s.lastAt);
	// hrtime is the same monotonic clock in both processes (CLOCK_MONOTONIC).
	const prepMs = firstAt ? Number(firstAt - started) / 1e6 : 0;
	const sendMs = firstAt && lastAt ? Number(lastAt - firstAt) / 1e6 : 0;
	const expectedIds = new Set(items.map((i) => i.json.id));
	let lost = 0;
	let duplicated = 0;
	for (const id of expectedIds) {
		const count = s.landed.get(id) || 0;
		if (count === 0) lost++;
		if (count > 1) duplicated++;
	}
	const unexpected = [...s.landed.keys()].filter((id) => !expectedIds.has(id)).length;
	const paired =
		!!output &&
		output.length === items.length &&
		output.every(
			(o, i) => o.pairedItem && o.pairedItem.item === i && o.json.id === items[i].json.id,
		);
	const okItems = output ? output.filter((o) => o.json.status === 'CREATE_SUCCESS').length : 0;
	return {
		label: faults ? `C=${concurrency}, 20% 429 + 5% 503` : `C=${concurrency}`,
		concurrency,
		faults: !!faults,
		error: error ? String(error.message || error) : undefined,
		requests: s.requests,
		processedRequests: s.processedRequests,
		injected429: s.injected429,
		injected503: s.injected503,
		unsigned: s.unsigned,
		oversized: s.oversized,
		peakServerInFlight: s.peakInFlight,
		landed: s.landed.size,
		lost,
		duplicated,
		unexpected,
		paired,
		okItems,
		wallMs,
		prepMs,
		sendMs,
		targetMs: faults ? undefined : SLACK * (Math.ceil(PRODUCTS / BATCH) / concurrency) * DELAY_MS,
		peakRssMb: peak / 1048576,
		rssGrowthMb: (peak - baseline) / 1048576,
	};
}

/**
 * Reference: the same 400 PUTs sent by a bare HTTP loop (no node, no signing, no checks) at the same
 * concurrency. Shows what this machine and the fake server cost by themselves (timer lateness,
 * scheduling), so that the node's own overhead can be read off the table.
 */
async function runRaw(server, { concurrency, run }) {
	await server.call({ cmd: 'reset', faults: false, seed: 0 });
	const items = makeItems(PRODUCTS, run);
	const bodies = [];
	for (let i = 0; i < items.length; i += BATCH)
		bodies.push({ products: items.slice(i, i + BATCH).map((it) => it.json) });
	let next = 0;
	const started = process.hrtime.bigint();
	const worker = async () => {
		while (next < bodies.length) {
			const body = bodies[next++];
			await send({
				method: 'PUT',
				url: `http://127.0.0.1:${server.port}/12/product_catalogs/${CATALOG}/products`,
				body,
				json: true,
				headers: { authorization: 'OAuth oauth_signature="x"' },
			});
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
	const s = (await server.call({ cmd: 'stats' })).stats;
	return { concurrency, wallMs, requests: s.requests };
}

function check(r) {
	const problems = [];
	const batches = Math.ceil(PRODUCTS / BATCH);
	if (r.error) problems.push(`node failed: ${r.error}`);
	if (r.unsigned) problems.push(`${r.unsigned} unsigned requests`);
	if (r.oversized) problems.push(`${r.oversized} requests with 0 or more than 25 products`);
	if (r.lost) problems.push(`${r.lost} products lost`);
	if (r.duplicated) problems.push(`${r.duplicated} products landed more than once`);
	if (r.unexpected) problems.push(`${r.unexpected} unknown products landed`);
	if (!r.paired) problems.push('output not paired one-to-one with the input items');
	if (r.okItems !== PRODUCTS)
		problems.push(`${PRODUCTS - r.okItems} output items without CREATE_SUCCESS`);
	if (r.peakServerInFlight > r.concurrency)
		problems.push(`${r.peakServerInFlight} requests in flight at concurrency ${r.concurrency}`);
	if (!r.faults) {
		if (r.requests !== batches)
			problems.push(`${r.requests} requests, expected exactly ${batches}`);
		if (r.wallMs > r.targetMs)
			r.missed = `wall time ${r.wallMs.toFixed(0)} ms > target ${r.targetMs.toFixed(0)} ms`;
	} else {
		if (r.processedRequests !== batches)
			problems.push(`${r.processedRequests} processed requests, expected exactly ${batches}`);
		if (r.requests !== batches + r.injected429 + r.injected503)
			problems.push(
				'requests != batches + injected faults (a batch was sent more often than its retries)',
			);
	}
	return problems;
}

function table(rows) {
	const head = [
		'run',
		'requests',
		'429',
		'503',
		'landed',
		'lost',
		'dup',
		'to 1st req ms',
		'sending ms',
		'wall ms',
		'target ms',
		'ideal ms',
		'peak RSS MB',
		'RSS +MB',
		'result',
	];
	const lines = rows.map((r) => [
		r.label,
		String(r.requests),
		String(r.injected429),
		String(r.injected503),
		String(r.landed),
		String(r.lost),
		String(r.duplicated),
		r.prepMs.toFixed(0),
		r.sendMs.toFixed(0),
		r.wallMs.toFixed(0),
		r.targetMs ? r.targetMs.toFixed(0) : '-',
		r.faults ? '-' : ((Math.ceil(PRODUCTS / BATCH) / r.concurrency) * DELAY_MS).toFixed(0),
		r.peakRssMb.toFixed(1),
		r.rssGrowthMb.toFixed(1),
		r.problems.length ? 'FAIL' : r.missed ? 'ok, time target missed' : 'ok',
	]);
	const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
	const fmt = (cells) => '| ' + cells.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |';
	return [
		fmt(head),
		'|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|',
		...lines.map(fmt),
	].join('\n');
}

async function main() {
	const server = await spawnServer();
	console.log(
		`Ads Catalog push benchmark: ${PRODUCTS} products, batches of ${BATCH}, server delay ${DELAY_MS} ms, node ${process.version}, dist ${path.relative(process.cwd(), DIST) || '.'}`,
	);
	const rows = [];
	let run = 0;
	// Warm-up (JIT, sockets), not reported.
	await runPush(server, { concurrency: CONCURRENCIES[0] || 4, faults: false, run: run++ });
	const raw = [];
	for (const concurrency of CONCURRENCIES) {
		raw.push(await runRaw(server, { concurrency, run: run++ }));
		rows.push(await runPush(server, { concurrency, faults: false, run: run++ }));
	}
	rows.push(await runPush(server, { concurrency: FAULT_CONCURRENCY, faults: true, run: run++ }));
	server.child.send({ cmd: 'exit' });
	agent.destroy();
	for (const r of rows) r.problems = check(r);
	console.log('\n' + table(rows) + '\n');
	require('./report').append(
		`### Ads Catalog push engine alone (no n8n; ${PRODUCTS} products, server delay ${DELAY_MS} ms)\n\n${table(rows)}\n\n`,
	);
	console.log(
		'to 1st req: from the start of the node to the first PUT; sending: first PUT to last answer; target: 1.15 x (requests / C) x delay;',
	);
	console.log(
		'peak RSS: highest resident set size of this process during the run; RSS +MB: above the level before the run (inputs already built).',
	);
	console.log(
		'Fault run: 20% of PUTs answered 429 (x-rate-limit-reset one second ahead) and 5% 503, at most twice per batch, refused PUTs not processed.',
	);
	for (const r of raw) {
		const ideal = (Math.ceil(PRODUCTS / BATCH) / r.concurrency) * DELAY_MS;
		console.log(
			`reference, bare HTTP loop at C=${r.concurrency}: ${r.requests} requests in ${r.wallMs.toFixed(0)} ms (${((r.wallMs / ideal - 1) * 100).toFixed(1)}% over the ideal ${ideal.toFixed(0)} ms)`,
		);
	}
	console.log('');
	let failed = false;
	for (const r of rows) {
		for (const p of r.problems) {
			failed = true;
			console.log(`FAIL ${r.label}: ${p}`);
		}
	}
	for (const r of rows)
		if (r.missed) console.log(`target missed (reported, not a failure) ${r.label}: ${r.missed}`);
	console.log(failed ? 'bench/catalog.js: something failed' : 'bench/catalog.js: no failures');
	process.exit(failed ? 1 : 0);
}

(SERVER_MODE ? serverProcess() : main()).catch((error) => {
	console.error(error);
	process.exit(1);
});
