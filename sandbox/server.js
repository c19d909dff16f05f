'use strict';
/**
 * The local platform sandbox: a small HTTP server that implements the platform API (webhooks, activity
 * subscriptions, posts, media upload, users, search...) and the advertising interface (catalogs,
 * products, product sets, feeds, cards, media library, draft and scheduled posts) closely enough for
 * every operation of the package's nodes, with the service's authentication checks and error shapes.
 *
 * Node's http module only, no dependencies. Everything is in memory. Bound to 127.0.0.1.
 *
 * Control API (no auth, for tests and the CLI) under /_sandbox/: see routes/control.js.
 */
const http = require('node:http');
const crypto = require('node:crypto');

const {
	HttpError,
	problem,
	legacyError,
	adsError,
	readBody,
	send,
	parseBody,
} = require('./lib/http');
const oauth1 = require('./lib/oauth1');
const { createChecker } = require('./contract/check');
const { invalidRequest } = require('./lib/http');
const rateLimits = require('./lib/rateLimits');

/** Fixed, well-known fake keys: the sandbox is a local test double, these open nothing real. */
const DEFAULT_KEYS = {
	consumerKey: 'sandbox-consumer-key',
	consumerSecret: 'sandbox-consumer-secret',
	accessToken: '1000000001-sandbox-access-token',
	accessTokenSecret: 'sandbox-access-token-secret',
	bearerToken: 'sandbox-app-bearer-token',
	oauth2UserToken: 'sandbox-oauth2-user-token',
	userId: '1000000001',
	username: 'sandbox_user',
	adsAccountId: '18ce54d4x5t',
};

function createSandbox(options = {}) {
	const keys = Object.assign({}, DEFAULT_KEYS, options.keys || {});
	const badRules =
		options.rateLimits === undefined ? undefined : rateLimits.invalidRules(options.rateLimits);
	if (badRules) throw new Error(`createSandbox: ${badRules}`);
	const sb = {
		keys,
		options: {
			/** Accept http:// and ports in webhook URLs (the real service wants public HTTPS without a port). */
			allowInsecureWebhookUrls: options.allowInsecureWebhookUrls !== false,
			webhookLimit: options.webhookLimit || 5,
			/**
			 * Answer other shapes the nodes also read, outside the contract (a bare webhook list,
			 * attempted:true, a bare deletion, the subscription at `data`): each breaks the contract.
			 */
			legacyShapes: !!options.legacyShapes,
			/** Emit post.create to subscribed webhooks when POST /2/tweets creates a post. */
			emitOnCreate: !!options.emitOnCreate,
			deliveryTimeoutMs: options.deliveryTimeoutMs || 10000,
			/**
			 * The service's retries: a signed delivery not acknowledged with 200 within the deadline is
			 * sent again (the same bytes, the same signature) after each of these delays, until one attempt
			 * is acknowledged. Bounded by the list's length; [] (the default) sends every delivery once.
			 * The real service's schedule is not published.
			 */
			deliveryRetryDelaysMs: options.deliveryRetryDelaysMs || [],
			/** Period of the background CRC re-check of every webhook; 0 = off. */
			crcIntervalMs: options.crcIntervalMs || 0,
			quiet: options.quiet !== false,
			maxRecords: options.maxRecords || 20000,
			/**
			 * Hold every platform API request (`/2/...`) against the service's published contract
			 * (contract/rules.json) and refuse what the service refuses. Off only for the sandbox's
			 * own comparisons.
			 */
			contract: options.contract !== false,
			/**
			 * Hold every JSON answer to a `/2/` request against the contract's answer schemas (the
			 * violations go on the request's record as `answerViolations`); 'warn' also prints a line
			 * per violating answer, which a sandbox that is not quiet does by default; false: off.
			 */
			answers:
				options.answers === false
					? false
					: options.answers || (options.quiet === false ? 'warn' : 'record'),
			/**
			 * Per-endpoint rate-limit windows (lib/rateLimits.js): [{method?, path, limit, windowS}].
			 * None by default: the service publishes no values for most endpoints.
			 */
			rateLimits: options.rateLimits || [],
			/**
			 * The app's access tier: 'selfServe' (Free, Basic, Pro, pay-per-use: what a new developer
			 * account has) or 'enterprise'. On self-serve tiers a programmatic reply is refused unless the
			 * author of the post replied to summoned the replier (mentioned the account or quoted its
			 * post), the service's documented limit. A reply to one's own post (a thread) is allowed:
			 * assumed, the service documents no rule for it.
			 */
			tier: options.tier === 'enterprise' ? 'enterprise' : 'selfServe',
		},
		/**
		 * Injected faults: latency for every request; status answers for the next N matching requests
		 * (after the first `skip` of them, which are answered normally).
		 */
		faults: { latencyMs: 0, rules: [] },
		/** The rate-limit windows running: `rule caller` -> {used, resetMs}. */
		rateWindows: new Map(),
		records: [],
		seq: 0,
		nonces: new Set(),
		routes: [],
		timers: new Set(),
		log: (...args) => {
			if (!sb.options.quiet) console.log('[sandbox]', ...args);
		},
	};
	sb.tokens = { [keys.accessToken]: { secret: keys.accessTokenSecret, userId: keys.userId } };
	sb.bearers = {
		[keys.bearerToken]: { kind: 'app' },
		[keys.oauth2UserToken]: { kind: 'user', userId: keys.userId },
	};

	sb.route = (method, pattern, auth, handler) => {
		const names = [];
		const re = new RegExp(
			'^' +
				pattern.replace(/[.]/g, '\\.').replace(/:([A-Za-z_]+)/g, (_, n) => {
					names.push(n);
					return '([^/]+)';
				}) +
				'$',
		);
		sb.routes.push({ method, pattern, re, names, auth, handler });
	};
	sb.later = (ms, fn) => {
		const t = setTimeout(() => {
			sb.timers.delete(t);
			fn();
		}, ms);
		sb.timers.add(t);
		return t;
	};
	let lastId = 1790000000000000000n;
	// Like the service's, a new id holds the time it was made (milliseconds since 2010-11-04T01:42:54.657Z,
	// shifted left by 22 bits) and grows: the Poll Trigger reads a search position's age from its id,
	// and the service refuses a since_id older than the search's 7 days.
	const ID_EPOCH_MS = 1288834974657;
	sb.newId = () => {
		const now = BigInt(Date.now() - ID_EPOCH_MS) << 22n;
		if (lastId < now) lastId = now;
		return String((lastId += BigInt(1 + Math.floor(Math.random() * 1000))));
	};
	/** When the post (or other object) with this id was made, in ms: the time its id holds. */
	sb.idTime = (id) => Number(BigInt(id) >> 22n) + ID_EPOCH_MS;
	/** Ids loaded from a saved state: new ids are issued above them, never again. */
	sb.reserveId = (id) => {
		if (/^[0-9]{1,19}$/.test(String(id)) && BigInt(id) > lastId) lastId = BigInt(id);
	};
	sb.shortId = (prefix = '') =>
		prefix +
		crypto
			.randomBytes(4)
			.toString('hex')
			.slice(0, 6 - prefix.length + 2);
	sb.now = () => new Date();

	const contract = createChecker();
	sb.contract = contract;

	require('./routes/state').install(sb);
	require('./routes/control').install(sb);
	require('./routes/webhooks').install(sb);
	// Before posts: its user list reads take precedence over the generic owned-reads route.
	require('./routes/lists').install(sb);
	require('./routes/postsMore').install(sb);
	// Before posts: GET /2/users/personalized_trends is not a user id.
	require('./routes/spaces').install(sb);
	// Before posts: its public key reads take precedence over the generic owned-reads route.
	require('./routes/chat').install(sb);
	require('./routes/posts').install(sb);
	require('./routes/media').install(sb);
	require('./routes/dm').install(sb);
	require('./routes/mediaMore').install(sb);
	require('./routes/adminMore').install(sb);
	require('./routes/catalog').install(sb);
	require('./routes/creatives').install(sb);
	require('./routes/activityStream').install(sb);

	function authenticate(req, url, body, route) {
		const header = req.headers.authorization || '';
		if (route.auth === 'none' || route.auth === 'control') return { kind: 'none' };
		if (route.auth === 'basic') {
			const m = /^Basic\s+(.+)$/i.exec(header);
			if (!m) throw legacyError(403, 99, 'Unable to verify your credentials');
			const [user, pass] = Buffer.from(m[1], 'base64').toString('utf8').split(':');
			if (
				decodeURIComponent(user) !== keys.consumerKey ||
				decodeURIComponent(pass || '') !== keys.consumerSecret
			)
				throw legacyError(403, 99, 'Unable to verify your credentials');
			return { kind: 'basic' };
		}
		const isAds = route.auth === 'ads';
		if (/^Bearer\s/i.test(header)) {
			const token = header.replace(/^Bearer\s+/i, '').trim();
			const known = sb.bearers[token];
			if (!known) throw legacyError(401, 89, 'Invalid or expired token.');
			if (isAds)
				throw adsError(
					401,
					'UNAUTHORIZED_ACCESS',
					'The advertising interface accepts OAuth 1.0a user context only',
				);
			if (route.auth === 'app' && known.kind !== 'app')
				throw problem(
					403,
					'unsupported-authentication',
					'Unsupported Authentication',
					'Authenticating with OAuth 2.0 User Context is forbidden for this endpoint.  Supported authentication types are [OAuth 2.0 Application-Only].',
				);
			if (route.auth === 'user' && known.kind !== 'user')
				throw problem(
					403,
					'unsupported-authentication',
					'Unsupported Authentication',
					'Authenticating with OAuth 2.0 Application-Only is forbidden for this endpoint.  Supported authentication types are [OAuth 1.0a User Context, OAuth 2.0 User Context].',
				);
			return {
				kind: known.kind === 'app' ? 'app' : 'oauth2',
				userId: known.userId,
				// A token registered with scopes has only those; the default user token has them all.
				scopes: known.scopes,
				// Which of several app tokens: tests tell the connections of two workflows apart by it.
				label: known.label,
			};
		}
		if (/^OAuth\s/i.test(header)) {
			const result = oauth1.verify(
				{
					method: req.method,
					host: req.headers.host,
					pathname: url.pathname,
					query: [...url.searchParams.entries()],
					formPairs: body.kind === 'form' ? body.pairs : [],
					header,
				},
				keys,
				sb.tokens,
				sb.nonces,
			);
			if (!result.ok) {
				const error = legacyError(401, 89, 'Invalid or expired token.');
				error.authReason = result.reason;
				throw error;
			}
			if (route.auth === 'app')
				throw problem(
					403,
					'unsupported-authentication',
					'Unsupported Authentication',
					'Authenticating with OAuth 1.0a User Context is forbidden for this endpoint.  Supported authentication types are [OAuth 2.0 Application-Only].',
				);
			if (!result.userId && (route.auth === 'user' || isAds))
				throw legacyError(401, 89, 'Invalid or expired token.');
			return { kind: 'oauth1', userId: result.userId };
		}
		if (isAds)
			throw adsError(401, 'UNAUTHORIZED_ACCESS', 'This request is not properly authenticated');
		throw problem(401, 'about:blank', 'Unauthorized', 'Unauthorized');
	}

	/** The service's answer to a request that breaks the contract: the first kind of violation wins. */
	function refusal(violations) {
		const first = violations[0];
		if (first.rule === 'security')
			return problem(
				403,
				'unsupported-authentication',
				'Unsupported Authentication',
				first.message,
			);
		if (first.rule === 'scope') return problem(403, 'about:blank', 'Forbidden', first.message);
		const bad = violations.filter((v) => v.status === 400);
		const error = invalidRequest(bad[0].message, {});
		error.body.errors = bad.map((v) => ({
			message: v.message,
			parameters: v.parameter ? { [v.parameter]: [v.value ?? ''] } : {},
		}));
		return error;
	}

	function rateHeaders(route, isAds) {
		const reset = Math.floor(Date.now() / 1000 / 900 + 1) * 900;
		const h = {
			'x-rate-limit-limit': '900',
			'x-rate-limit-remaining': '899',
			'x-rate-limit-reset': String(reset),
		};
		if (isAds)
			Object.assign(h, {
				'x-account-rate-limit-limit': '2000',
				'x-account-rate-limit-remaining': '1999',
				'x-account-rate-limit-reset': String(reset),
			});
		return h;
	}

	function faultFor(method, path) {
		for (const rule of sb.faults.rules) {
			if (rule.remaining <= 0) continue;
			if (rule.method && rule.method !== method) continue;
			if (rule.path && !new RegExp(rule.path).test(path)) continue;
			if (rule.skip > 0) {
				rule.skip--;
				return undefined;
			}
			rule.remaining--;
			return rule;
		}
		return undefined;
	}

	async function handle(req, res) {
		const started = Date.now();
		const url = new URL(req.url, `http://${req.headers.host || '127.0.0.1'}`);
		const record = {
			seq: ++sb.seq,
			at: new Date().toISOString(),
			method: req.method,
			path: url.pathname,
			query: Object.fromEntries(url.searchParams.entries()),
			contentType: req.headers['content-type'],
			auth: undefined,
			status: 0,
		};
		let status = 500;
		let responseBody;
		let headers = {};
		try {
			const raw = await readBody(req);
			const body = parseBody(raw, req.headers['content-type']);
			record.bodyKind = body.kind;
			record.body =
				body.kind === 'multipart'
					? summarizeMultipart(body.value)
					: body.kind === 'raw'
						? `<${raw.length} bytes>`
						: body.value;
			const route = sb.routes.find(
				(r) => (r.method === req.method || r.method === '*') && r.re.test(url.pathname),
			);
			const isControl = url.pathname.startsWith('/_sandbox');
			if (!isControl) {
				if (sb.faults.latencyMs > 0) await new Promise((r) => setTimeout(r, sb.faults.latencyMs));
				const fault = faultFor(req.method, url.pathname);
				// A hold (delayMs without a status) answers normally, late: a slow service.
				if (fault && fault.delayMs > 0) await new Promise((r) => setTimeout(r, fault.delayMs));
				if (fault && fault.status) {
					record.fault = fault.status;
					const reset = Math.floor(Date.now() / 1000) + (fault.resetAfterS ?? 1);
					// Faults answer in the service's own shapes: a Problem (application/problem+json) on
					// the platform API, the advertising interface's errors[] on its own.
					const isAds = url.pathname.startsWith('/12/');
					const shape = isAds ? {} : { 'content-type': 'application/problem+json' };
					if (fault.status === 429) {
						throw new HttpError(
							429,
							isAds
								? {
										errors: [{ code: 'TOO_MANY_REQUESTS', message: 'Rate limit exceeded' }],
										request: { params: {} },
									}
								: {
										title: 'Too Many Requests',
										detail: 'Too Many Requests',
										type: 'about:blank',
										status: 429,
									},
							Object.assign(
								{
									...shape,
									'x-rate-limit-limit': '900',
									'x-rate-limit-remaining': '0',
									'x-rate-limit-reset': String(reset),
								},
								isAds
									? {
											'x-account-rate-limit-limit': '2000',
											'x-account-rate-limit-remaining': '0',
											'x-account-rate-limit-reset': String(reset),
										}
									: {},
							),
						);
					}
					throw new HttpError(
						fault.status,
						isAds
							? {
									errors: [{ code: 'SERVICE_UNAVAILABLE', message: 'Injected fault' }],
									request: { params: {} },
								}
							: {
									title: 'Service Unavailable',
									detail: 'Injected fault',
									type: 'about:blank',
									status: fault.status,
								},
						shape,
					);
				}
			}
			const contractual = !isControl && sb.options.contract && url.pathname.startsWith('/2/');
			if (contractual) {
				const found = contract.match(req.method, url.pathname);
				if (!found.op)
					throw found.pathKnown
						? problem(
								405,
								'about:blank',
								'Method Not Allowed',
								`${req.method} is not allowed on ${url.pathname}`,
							)
						: problem(404, 'about:blank', 'Not Found', `No route ${req.method} ${url.pathname}`);
			}
			if (!route) {
				const sameP = sb.routes.some((r) => r.re.test(url.pathname));
				throw sameP
					? problem(
							405,
							'about:blank',
							'Method Not Allowed',
							`${req.method} is not allowed on ${url.pathname}`,
						)
					: url.pathname.startsWith('/12/')
						? adsError(404, 'ROUTE_NOT_FOUND', 'The requested resource could not be found')
						: problem(404, 'about:blank', 'Not Found', `No route ${req.method} ${url.pathname}`);
			}
			record.route = `${route.method} ${route.pattern}`;
			const auth = authenticate(req, url, body, route);
			record.auth = { kind: auth.kind, valid: true, userId: auth.userId };
			if (contractual) {
				const { operation, violations } = contract.check({
					method: req.method,
					path: url.pathname,
					query: [...url.searchParams.entries()],
					contentType: req.headers['content-type'],
					bodyKind: body.kind,
					body: body.value,
					auth,
				});
				record.contract = operation;
				if (violations.length) throw refusal(violations);
			}
			let windowHeaders = {};
			if (!isControl) {
				const counted = rateLimits.take(sb.rateWindows, sb.options.rateLimits, {
					method: req.method,
					path: url.pathname,
					auth,
				});
				if (counted && counted.refused) {
					record.rateLimited = true;
					throw new HttpError(
						429,
						{
							title: 'Too Many Requests',
							detail: 'Too Many Requests',
							type: 'about:blank',
							status: 429,
						},
						{ ...counted.headers, 'content-type': 'application/problem+json' },
					);
				}
				if (counted) windowHeaders = counted.headers;
			}
			const m = route.re.exec(url.pathname);
			const params = {};
			route.names.forEach((n, i) => (params[n] = decodeURIComponent(m[i + 1])));
			const q = {};
			for (const [k, v] of url.searchParams.entries()) q[k] = v;
			const ctx = {
				req,
				// A streaming route (the activity stream) writes its answer itself, over time.
				res,
				url,
				method: req.method,
				path: url.pathname,
				params,
				q,
				query: url.searchParams,
				body: body.value,
				bodyKind: body.kind,
				raw,
				auth,
				headers: req.headers,
				record,
			};
			const result = (await route.handler(ctx)) || {};
			status = result.status || 200;
			responseBody = result.body;
			headers = Object.assign(
				isControl ? {} : rateHeaders(route, url.pathname.startsWith('/12/')),
				windowHeaders,
				result.headers || {},
			);
		} catch (error) {
			if (error instanceof HttpError) {
				status = error.status;
				responseBody = error.body;
				headers = error.headers || {};
				if (error.authReason)
					record.auth = { kind: 'oauth1', valid: false, reason: error.authReason };
				else if (status === 401 && !record.auth) record.auth = { valid: false };
			} else {
				status = 500;
				responseBody = {
					title: 'Internal Server Error',
					detail: String(error && error.message),
					type: 'about:blank',
					status: 500,
				};
				console.error('[sandbox] handler error', error);
			}
		}
		record.status = status;
		record.ms = Date.now() - started;
		if (sb.options.answers && url.pathname.startsWith('/2/') && !res.headersSent)
			checkAnswer(record, status, responseBody, headers);
		// Anything but a read may have changed what a restart must keep (see lib/persist.js).
		if (req.method !== 'GET' && sb.onChange) sb.onChange();
		if (!url.pathname.startsWith('/_sandbox')) {
			record.response = responseBody;
			sb.records.push(record);
			if (sb.records.length > sb.options.maxRecords)
				sb.records.splice(0, sb.records.length - sb.options.maxRecords);
			sb.log(
				`${req.method} ${url.pathname} -> ${status}${record.auth && record.auth.reason ? ' (' + record.auth.reason + ')' : ''}`,
			);
		}
		send(res, status, responseBody, headers);
	}

	/** Holds one answer to the contract; what breaks it goes on the record (and the log, when warned). */
	function checkAnswer(record, status, body, headers) {
		if (body === undefined || body === null || typeof body !== 'object' || Buffer.isBuffer(body))
			return;
		const typeHeader = Object.keys(headers).find((k) => k.toLowerCase() === 'content-type');
		const contentType = typeHeader ? headers[typeHeader] : 'application/json';
		if (!/json/i.test(contentType)) return;
		const { violations } = contract.checkAnswer({
			method: record.method,
			path: record.path,
			status,
			contentType,
			body,
		});
		if (!violations.length) return;
		record.answerViolations = violations;
		if (sb.options.answers === 'warn')
			console.warn(
				`[sandbox] warning: the answer to ${record.method} ${record.path} (${status}) breaks the contract: ${violations
					.slice(0, 3)
					.map((v) => v.message)
					.join('; ')}${violations.length > 3 ? `; and ${violations.length - 3} more` : ''}`,
			);
	}

	function summarizeMultipart(fields) {
		const out = {};
		for (const [k, v] of Object.entries(fields))
			out[k] = v.filename || v.data.length > 200 ? `<${v.data.length} bytes>` : v.value;
		return out;
	}

	sb.server = http.createServer((req, res) => {
		handle(req, res).catch((error) => {
			console.error('[sandbox] fatal', error);
			send(res, 500, { title: 'Internal Server Error', type: 'about:blank', status: 500 });
		});
	});
	sb.server.keepAliveTimeout = 5000;

	sb.listen = (port = 0, host = '127.0.0.1') =>
		new Promise((resolve, reject) => {
			sb.server.once('error', reject);
			sb.server.listen(port, host, () => {
				const address = sb.server.address();
				sb.port = address.port;
				sb.url = `http://127.0.0.1:${address.port}`;
				if (sb.options.crcIntervalMs > 0) sb.startPeriodicCrc();
				resolve(sb);
			});
		});
	sb.close = () =>
		new Promise((resolve) => {
			for (const t of sb.timers) clearTimeout(t);
			sb.timers.clear();
			if (sb.crcTimer) clearInterval(sb.crcTimer);
			if (sb.server.closeAllConnections) sb.server.closeAllConnections();
			sb.server.close(() => resolve());
		});
	return sb;
}

module.exports = { createSandbox, DEFAULT_KEYS };

if (require.main === module) {
	const args = process.argv.slice(2);
	const opt = (name, dflt) => {
		const i = args.indexOf('--' + name);
		return i === -1 ? dflt : args[i + 1];
	};
	const sandbox = createSandbox({
		quiet: args.includes('--quiet'),
		legacyShapes: args.includes('--legacy'),
		emitOnCreate: args.includes('--emit-on-create'),
		allowInsecureWebhookUrls: !args.includes('--strict-urls'),
		crcIntervalMs: Number(opt('crc-interval-ms', 0)),
	});
	sandbox.listen(Number(opt('port', 0))).then((s) => {
		console.log(JSON.stringify({ url: s.url, keys: s.keys }));
	});
	const stop = () => sandbox.close().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}
