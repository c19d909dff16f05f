import nock from 'nock';

import { explainResponse } from '../../nodes/shared/errors';
import { paginate, platformRequest, platformRequestFull } from '../../nodes/shared/transport';
import {
	ADS_BASE,
	BASE,
	createContext,
	defaultCredentials,
	TEST_SECRETS,
} from '../helpers/context';

const PROBLEM = 'https://api.x.com/2/problems/';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

function ctx(authentication = 'platformOAuth1Api') {
	return createContext({ parameters: { authentication } });
}

async function failure(promise: Promise<unknown>) {
	try {
		await promise;
	} catch (error) {
		return error as Error & {
			description?: string;
			httpCode?: string;
			context: Record<string, unknown>;
		};
	}
	throw new Error('expected the request to fail');
}

function assertNoSecret(error: unknown) {
	const text = [
		(error as Error).message,
		(error as { description?: string }).description,
		JSON.stringify(error),
		String((error as Error).stack),
	].join('\n');
	for (const secret of Object.values(TEST_SECRETS)) expect(text).not.toContain(secret);
}

describe('error translation: every error shape the service sends', () => {
	const cases: Array<[string, number, unknown, RegExp, RegExp?]> = [
		[
			'legacy 89',
			401,
			{ errors: [{ code: 89, message: 'Invalid or expired token.' }] },
			/token is invalid, expired or revoked/,
			/Reconnect/,
		],
		[
			'legacy 99',
			403,
			{ errors: [{ code: 99, message: 'Unable to verify your credentials' }] },
			/bearer token was requested too often/,
		],
		[
			'usage-capped',
			429,
			{
				type: `${PROBLEM}usage-capped`,
				title: 'Usage capped',
				period: 'Monthly',
				scope: 'Product',
			},
			/Usage cap exceeded \(Monthly, Product\)/,
			/retrying does not help.*next month/,
		],
		[
			'usage-capped (403)',
			403,
			{
				type: `${PROBLEM}usage-capped`,
				title: 'Usage capped',
				detail: 'cap',
				period: 'Monthly',
				scope: 'Product',
			},
			/Usage cap exceeded \(Monthly, Product\)/,
			/product used up its monthly/,
		],
		[
			'resource-not-found',
			404,
			{
				errors: [
					{
						type: `https://other.host${'/2/problems/'}resource-not-found`,
						title: 'Not Found Error',
						detail: 'Could not find tweet with ids: [1].',
						parameter: 'ids',
						value: '1',
						resource_id: '1',
						resource_type: 'tweet',
					},
				],
			},
			/Not found: tweet 1 \(parameter ids\)/,
		],
		[
			'resource-unavailable',
			403,
			{
				type: `${PROBLEM}resource-unavailable`,
				title: 'x',
				parameter: 'id',
				resource_id: '5',
				resource_type: 'user',
			},
			/Unavailable: user 5 \(parameter id\)/,
		],
		[
			'not-authorized-for-resource',
			403,
			{
				type: `${PROBLEM}not-authorized-for-resource`,
				title: 'x',
				value: '7',
				resource_id: '7',
				resource_type: 'tweet',
				section: 'data',
				parameter: 'id',
			},
			/Not authorized for tweet 7/,
		],
		[
			'not-authorized-for-field',
			403,
			{
				type: `${PROBLEM}not-authorized-for-field`,
				title: 'x',
				field: 'non_public_metrics',
				resource_type: 'tweet',
				section: 'data',
			},
			/field "non_public_metrics"/,
		],
		[
			'disallowed-resource',
			403,
			{
				type: `${PROBLEM}disallowed-resource`,
				title: 'x',
				resource_id: '9',
				resource_type: 'media',
				section: 'includes',
			},
			/Disallowed media 9/,
		],
		[
			'client-forbidden',
			403,
			{
				type: `${PROBLEM}client-forbidden`,
				title: 'x',
				reason: 'client-not-enrolled',
				registration_url: 'https://dev.example/enrol',
			},
			/not allowed to make this request \(client-not-enrolled\)/,
			/Enrol the app at https:\/\/dev.example\/enrol/,
		],
		[
			'conflict',
			409,
			{ type: `${PROBLEM}conflict`, title: 'Conflict' },
			/replay job is already running/,
		],
		[
			'duplicate-rules',
			400,
			{ errors: [{ type: `${PROBLEM}duplicate-rules`, title: 'x', id: '12', value: 'cats' }] },
			/Duplicate rule: cats \(existing id 12\)/,
		],
		[
			'invalid-rules',
			400,
			{ type: `${PROBLEM}invalid-rules`, title: 'x', detail: 'bad operator' },
			/refused a rule as invalid/,
			/bad operator/,
		],
		[
			'noncompliant-rules',
			400,
			{ type: `${PROBLEM}noncompliant-rules`, title: 'x' },
			/not compliant/,
		],
		[
			'rule-cap',
			400,
			{ type: `${PROBLEM}rule-cap`, title: 'x' },
			/maximum number of filtered-stream rules/,
		],
		[
			'invalid-request',
			400,
			{
				type: `${PROBLEM}invalid-request`,
				title: 'Invalid Request',
				errors: [{ message: 'max_results must be <= 100', parameters: { max_results: ['500'] } }],
			},
			/Invalid request: max_results must be <= 100 \(max_results\)/,
		],
		[
			'unsupported-authentication',
			403,
			{ type: `${PROBLEM}unsupported-authentication`, title: 'x', detail: 'app-only not allowed' },
			/does not accept the chosen authentication/,
		],
		[
			'operational-disconnect',
			500,
			{ type: `${PROBLEM}operational-disconnect`, title: 'x', disconnect_type: 'SlowReader' },
			/Disconnected by the service \(SlowReader\)/,
		],
		[
			'streaming-connection',
			429,
			{
				type: `${PROBLEM}streaming-connection`,
				title: 'x',
				connection_issue: 'TooManyConnections',
			},
			/Rate limit reached/,
		],
		[
			'streaming-connection (409)',
			409,
			{
				type: `${PROBLEM}streaming-connection`,
				title: 'x',
				connection_issue: 'TooManyConnections',
			},
			/Streaming connection problem \(TooManyConnections\)/,
		],
		[
			'client-disconnected',
			400,
			{ type: `${PROBLEM}client-disconnected`, title: 'x' },
			/client disconnected/,
		],
		[
			'about:blank 429',
			429,
			{ title: 'Too Many Requests', type: 'about:blank', status: 429 },
			/Rate limit reached/,
		],
		[
			'about:blank 503',
			503,
			{ title: 'Service Unavailable', type: 'about:blank', status: 503 },
			/Service Unavailable/,
		],
		[
			'ads INVALID_PARAMETER',
			400,
			{
				errors: [
					{ code: 'INVALID_PARAMETER', message: 'Expected a valid price', parameter: 'price' },
				],
				request: { params: {} },
			},
			/Expected a valid price \(parameter "price"\)/,
			/INVALID_PARAMETER/,
		],
		[
			'ads NOT_FOUND',
			404,
			{ errors: [{ code: 'NOT_FOUND', message: 'Account not found' }], request: { params: {} } },
			/Account not found/,
			/check the ids/,
		],
		[
			'UrlValidationFailed',
			400,
			{ errors: [{ message: 'UrlValidationFailed: the URL must be https' }] },
			/refused the webhook URL/,
			/public HTTPS URLs without a port.*WEBHOOK_URL/,
		],
		[
			'WebhookLimitExceeded',
			403,
			{ title: 'Forbidden', detail: 'WebhookLimitExceeded' },
			/webhook limit/,
			/Delete a webhook/,
		],
		[
			'CrcValidationFailed',
			400,
			{ errors: [{ message: 'CrcValidationFailed' }] },
			/CRC check failed/,
		],
		[
			'duplicate content',
			403,
			{
				detail: 'You are not allowed to create a Tweet with duplicate content.',
				type: 'about:blank',
				title: 'Forbidden',
				status: 403,
			},
			/duplicate post/,
			/may have been published/,
		],
		['plain 401', 401, 'Unauthorized', /Authorization failed/, undefined],
	];

	const table = cases.map(([name, status, body, message, description]) => ({
		name,
		status,
		body,
		message,
		description,
	}));

	it.each(table)('$name', async ({ status, body, message, description }) => {
		nock(BASE)
			.get('/2/thing')
			.reply(
				status,
				body as nock.Body,
				status === 429
					? { 'x-rate-limit-reset': String(Math.floor(Date.now() / 1000) + 7200) }
					: {},
			);
		const error = await failure(
			platformRequest.call(ctx().context, {
				method: 'GET',
				path: '/2/thing',
				retryTransient: false,
			}),
		);
		expect(error.constructor.name).toBe('NodeApiError');
		expect(error.message).toMatch(message);
		if (description) expect(error.description).toMatch(description);
		expect(error.httpCode).toBe(String(status));
		assertNoSecret(error);
	});

	it('matches problem types by their /2/problems/ suffix on any host', () => {
		const a = explainResponse(404, {
			type: 'https://a.example/2/problems/resource-not-found',
			parameter: 'id',
			value: '1',
			resource_type: 'user',
		});
		const b = explainResponse(404, {
			type: 'https://b.example/2/problems/resource-not-found',
			parameter: 'id',
			value: '1',
			resource_type: 'user',
		});
		expect(a.message).toBe(b.message);
		expect(a.message).toContain('Not found: user 1');
	});
});

describe('rate limits (429)', () => {
	it('waits for the reset the server names, then succeeds', async () => {
		const reset = Math.floor(Date.now() / 1000) + 1;
		nock(BASE)
			.get('/2/users/me')
			.reply(
				429,
				{ title: 'Too Many Requests', type: 'about:blank' },
				{ 'x-rate-limit-reset': String(reset) },
			);
		nock(BASE)
			.get('/2/users/me')
			.reply(200, { data: { id: '1' } });
		const started = Date.now();
		const body = await platformRequest.call(ctx().context, { method: 'GET', path: '/2/users/me' });
		expect(body).toEqual({ data: { id: '1' } });
		expect(Date.now()).toBeGreaterThanOrEqual(reset * 1000);
		expect(Date.now() - started).toBeLessThan(10_000);
		expect(nock.isDone()).toBe(true);
	});

	it('retries a refused POST after the reset too (a 429 was not carried out)', async () => {
		const reset = Math.floor(Date.now() / 1000) + 1;
		const scope = nock(ADS_BASE)
			.post('/12/x')
			.reply(
				429,
				{ errors: [{ code: 'TOO_MANY_REQUESTS', message: 'slow down' }] },
				{ 'x-account-rate-limit-reset': String(reset), 'x-rate-limit-reset': String(reset + 3600) },
			)
			.post('/12/x')
			.reply(200, { data: { ok: true } });
		const { context, requests } = ctx();
		await platformRequest.call(context, {
			method: 'POST',
			path: '/12/x',
			api: 'ads',
			body: { a: 1 },
		});
		expect(scope.isDone()).toBe(true);
		expect(requests).toHaveLength(2);
	});

	it('fails at once, naming the reset time, when the reset is beyond the allowed wait', async () => {
		const reset = Math.floor(Date.now() / 1000) + 3600;
		nock(BASE)
			.get('/2/users/me')
			.reply(
				429,
				{ title: 'Too Many Requests', type: 'about:blank' },
				{ 'x-rate-limit-reset': String(reset) },
			);
		const { context, requests } = ctx();
		const error = await failure(
			platformRequest.call(context, { method: 'GET', path: '/2/users/me', maxRateLimitWait: 60 }),
		);
		expect(error.message).toContain(new Date(reset * 1000).toISOString());
		expect(requests).toHaveLength(1);
	});

	it('gives up after a bounded number of 429s', async () => {
		nock(BASE)
			.get('/2/users/me')
			.times(10)
			.reply(
				429,
				{ title: 'Too Many Requests', type: 'about:blank' },
				{ 'x-rate-limit-reset': '1' },
			);
		const { context, requests } = ctx();
		const error = await failure(
			platformRequest.call(context, { method: 'GET', path: '/2/users/me' }),
		);
		expect(error.message).toMatch(/Rate limit reached/);
		expect(requests).toHaveLength(6);
	});
});

describe('daily caps (x-user-limit-24hour-*, x-app-limit-24hour-*)', () => {
	const now = () => Math.floor(Date.now() / 1000);
	const tooMany = { title: 'Too Many Requests', type: 'about:blank', status: 429 };

	it("fails at once on the connected account's daily cap, although the 15-minute window resets in a second", async () => {
		const reset = now() + 5 * 3600 + 600;
		nock(BASE)
			.get('/2/users/me')
			.reply(429, tooMany, {
				'x-rate-limit-limit': '900',
				'x-rate-limit-remaining': '0',
				'x-rate-limit-reset': String(now() + 1),
				'x-user-limit-24hour-limit': '1500',
				'x-user-limit-24hour-remaining': '0',
				'x-user-limit-24hour-reset': String(reset),
				'x-app-limit-24hour-limit': '10000',
				'x-app-limit-24hour-remaining': '8123',
				'x-app-limit-24hour-reset': String(reset),
			});
		const { context, requests } = ctx();
		const started = Date.now();
		const error = await failure(
			platformRequest.call(context, { method: 'GET', path: '/2/users/me', maxRateLimitWait: 900 }),
		);
		expect(requests).toHaveLength(1);
		expect(Date.now() - started).toBeLessThan(1000);
		expect(error.message).toBe(
			`Daily request cap of the connected account reached (its 24-hour limit of 1500 requests); it resets at ${new Date(reset * 1000).toISOString()} (in about 5 h 10 min)`,
		);
		expect(error.description).toMatch(/not the 15-minute window/);
		expect(error.httpCode).toBe('429');
		expect(error.context).toMatchObject({
			rateLimitKind: 'userDaily',
			rateLimitResetAt: new Date(reset * 1000).toISOString(),
			rateLimitLimit: 1500,
		});
		assertNoSecret(error);
	});

	it("names the app's daily cap, and fails at once when the service named no reset", async () => {
		nock(BASE).post('/2/tweets').reply(429, tooMany, {
			'x-app-limit-24hour-limit': '10000',
			'x-app-limit-24hour-remaining': '0',
		});
		const { context, requests } = ctx();
		const error = await failure(
			platformRequest.call(context, { method: 'POST', path: '/2/tweets', body: { text: 'x' } }),
		);
		expect(requests).toHaveLength(1);
		expect(error.message).toBe(
			"Daily request cap of the app reached (the app's 24-hour limit of 10000 requests, shared by every account using it); the service named no reset time",
		);
		expect(error.context.rateLimitKind).toBe('appDaily');
	});

	it('waits for a daily cap whose reset is within Max Rate Limit Wait, then succeeds', async () => {
		const reset = now() + 1;
		nock(BASE)
			.get('/2/users/me')
			.reply(429, tooMany, {
				'x-app-limit-24hour-remaining': '0',
				'x-app-limit-24hour-reset': String(reset),
			});
		nock(BASE)
			.get('/2/users/me')
			.reply(200, { data: { id: '1' } });
		const { context, requests } = ctx();
		expect(
			await platformRequest.call(context, {
				method: 'GET',
				path: '/2/users/me',
				maxRateLimitWait: 30,
			}),
		).toEqual({ data: { id: '1' } });
		expect(Date.now()).toBeGreaterThanOrEqual(reset * 1000);
		expect(requests).toHaveLength(2);
	});

	it('treats a 429 as the 15-minute window while the daily caps have requests left', async () => {
		nock(BASE)
			.get('/2/users/me')
			.reply(429, tooMany, {
				'x-rate-limit-reset': String(now() + 3600),
				'x-user-limit-24hour-remaining': '12',
				'x-app-limit-24hour-remaining': '900',
			});
		const { context } = ctx();
		const error = await failure(
			platformRequest.call(context, { method: 'GET', path: '/2/users/me', maxRateLimitWait: 60 }),
		);
		expect(error.message).toMatch(
			/^Rate limit reached \(15-minute window\); it resets at .* \(in about 1 h\)$/,
		);
		expect(error.context.rateLimitKind).toBe('window');
	});

	it('fails at once on a usage-capped 429 (no backoff retries)', async () => {
		nock(BASE)
			.get('/2/users/me')
			.reply(429, {
				type: `${PROBLEM}usage-capped`,
				title: 'Usage capped',
				period: 'Daily',
				scope: 'Account',
			});
		const { context, requests } = ctx();
		const error = await failure(
			platformRequest.call(context, { method: 'GET', path: '/2/users/me' }),
		);
		expect(requests).toHaveLength(1);
		expect(error.message).toBe(
			'Usage cap exceeded (Daily, Account); the service named no reset time',
		);
		expect(error.description).toMatch(/next day/);
		expect(error.context.rateLimitKind).toBe('usageCap');
	});
});

describe('retries of 5xx and network errors', () => {
	it('retries GET on 503 and succeeds', async () => {
		nock(BASE).get('/2/tweets').query(true).times(2).reply(503, { title: 'Service Unavailable' });
		nock(BASE)
			.get('/2/tweets')
			.query(true)
			.reply(200, { data: [{ id: '1' }] });
		const { context, requests } = ctx();
		const body = await platformRequest.call(context, {
			method: 'GET',
			path: '/2/tweets',
			qs: { ids: '1' },
		});
		expect(body).toEqual({ data: [{ id: '1' }] });
		expect(requests).toHaveLength(3);
	});

	it('retries PUT and DELETE at most 3 times', async () => {
		nock(ADS_BASE)
			.put('/12/p')
			.times(10)
			.reply(500, { errors: [{ code: 'INTERNAL_ERROR', message: 'boom' }] });
		const { context, requests } = ctx();
		const error = await failure(
			platformRequest.call(context, { method: 'PUT', path: '/12/p', api: 'ads', body: {} }),
		);
		expect(error.message).toContain('boom');
		expect(requests).toHaveLength(4);
	});

	it('never retries POST on 5xx', async () => {
		nock(BASE).post('/2/tweets').times(5).reply(503, { title: 'Service Unavailable' });
		const { context, requests } = ctx();
		const error = await failure(
			platformRequest.call(context, {
				method: 'POST',
				path: '/2/tweets',
				body: { text: 'hi' },
				unsafeFailureHint: 'The post may have been published.',
			}),
		);
		expect(requests).toHaveLength(1);
		expect(error.description).toContain('may have been published');
	});

	it('retries GET on a network error, never POST', async () => {
		nock(BASE).get('/2/a').replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
		nock(BASE).get('/2/a').reply(200, { data: [] });
		const get = ctx();
		await platformRequest.call(get.context, { method: 'GET', path: '/2/a' });
		expect(get.requests).toHaveLength(2);

		nock(BASE).post('/2/tweets').replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
		nock(BASE)
			.post('/2/tweets')
			.reply(201, { data: { id: '1' } });
		const post = ctx();
		const error = await failure(
			platformRequest.call(post.context, {
				method: 'POST',
				path: '/2/tweets',
				body: { text: 'x' },
				unsafeFailureHint: 'The post may have been published: check the account.',
			}),
		);
		expect(post.requests).toHaveLength(1);
		expect(error.description).toContain('may have been published');
		assertNoSecret(error);
	});

	it('says that a create without its own hint may or may not have been carried out, and was not repeated', async () => {
		nock(BASE)
			.post('/12/accounts/a1/cards')
			.replyWithError({ code: 'ETIMEDOUT', message: 'timeout' });
		const post = ctx();
		const error = await failure(
			platformRequest.call(post.context, {
				method: 'POST',
				path: '/12/accounts/a1/cards',
				body: { name: 'x' },
			}),
		);
		expect(post.requests).toHaveLength(1);
		expect(error.message).toMatch(/got no answer .*it was not repeated/);
		expect(error.description).toMatch(
			/may or may not have been carried out.*do not turn on Retry on Fail/,
		);
		assertNoSecret(error);
	});
});

describe('pagination', () => {
	it('Return All follows meta.next_token across three pages', async () => {
		const scope = nock(BASE)
			.get('/2/tweets/search/recent')
			.query({ query: 'cats', max_results: '100' })
			.reply(200, { data: [{ id: '1' }, { id: '2' }], meta: { next_token: 't2' } })
			.get('/2/tweets/search/recent')
			.query({ query: 'cats', max_results: '100', next_token: 't2' })
			.reply(200, { data: [{ id: '3' }], meta: { next_token: 't3' } })
			.get('/2/tweets/search/recent')
			.query({ query: 'cats', max_results: '100', next_token: 't3' })
			.reply(200, { data: [{ id: '4' }], meta: {} });
		const { context } = ctx();
		const all = await paginate.call(
			context,
			{ method: 'GET', path: '/2/tweets/search/recent', qs: { query: 'cats' } },
			{ returnAll: true, pageSizeParam: 'max_results', maxPageSize: 100, tokenParam: 'next_token' },
		);
		expect(all.map((p) => p.id)).toEqual(['1', '2', '3', '4']);
		expect(scope.isDone()).toBe(true);
	});

	it('Limit stops early and asks only for what it needs', async () => {
		nock(BASE)
			.get('/2/users/1/tweets')
			.query({ max_results: '5' })
			.reply(200, { data: [{ id: '1' }, { id: '2' }, { id: '3' }], meta: { next_token: 'p2' } })
			.get('/2/users/1/tweets')
			.query({ max_results: '5', pagination_token: 'p2' })
			.reply(200, { data: [{ id: '4' }, { id: '5' }, { id: '6' }], meta: { next_token: 'p3' } });
		const { context, requests } = ctx();
		const some = await paginate.call(
			context,
			{ method: 'GET', path: '/2/users/1/tweets' },
			{
				returnAll: false,
				limit: 5,
				pageSizeParam: 'max_results',
				maxPageSize: 100,
				minPageSize: 5,
			},
		);
		expect(some.map((p) => p.id)).toEqual(['1', '2', '3', '4', '5']);
		expect(requests).toHaveLength(2);
	});

	it('ads lists follow next_cursor with cursor', async () => {
		nock(ADS_BASE)
			.get('/12/product_catalogs')
			.query({ count: '2' })
			.reply(200, { data: [{ id: 'a' }, { id: 'b' }], next_cursor: 'c2', request: { params: {} } })
			.get('/12/product_catalogs')
			.query({ count: '2', cursor: 'c2' })
			.reply(200, { data: [{ id: 'c' }], next_cursor: null, request: { params: {} } });
		const { context } = ctx();
		const all = await paginate.call(
			context,
			{ method: 'GET', path: '/12/product_catalogs', api: 'ads' },
			{ returnAll: true, pageSizeParam: 'count', maxPageSize: 2 },
		);
		expect(all.map((c) => c.id)).toEqual(['a', 'b', 'c']);
	});
});

describe('authentication choice and base URLs', () => {
	it.each([
		['platformOAuth2Api', /^Bearer OAUTH2-ACCESS-TOKEN/],
		['platformBearerApi', /^Bearer BEARER-TOKEN/],
		['platformOAuth1Api', /^OAuth .*oauth_signature="/],
		['platformOAuth1ConnectApi', /^OAuth .*oauth_token="ACCESS-TOKEN/],
	])('uses the credential chosen in the node: %s', async (type, header) => {
		let seen = '';
		nock(BASE)
			.get('/2/users/me')
			.reply(function () {
				seen = String(this.req.headers.authorization);
				return [200, { data: { id: '1' } }];
			});
		await platformRequest.call(ctx(type).context, { method: 'GET', path: '/2/users/me' });
		expect(seen).toMatch(header);
	});

	it('sends ads calls to the advertising base URL from the credential', async () => {
		const scope = nock(ADS_BASE).get('/12/accounts').reply(200, { data: [] });
		const response = await platformRequestFull.call(ctx().context, {
			method: 'GET',
			path: '/12/accounts',
			api: 'ads',
		});
		expect(response.statusCode).toBe(200);
		expect(scope.isDone()).toBe(true);
	});

	it('sends form bodies form-encoded and signs them', async () => {
		let body = '';
		nock(BASE)
			.post('/1.1/oauth/invalidate_token', (b) => {
				body = typeof b === 'string' ? b : new URLSearchParams(b).toString();
				return true;
			})
			.reply(200, { access_token: 'x' });
		const { context, requests } = ctx();
		await platformRequest.call(context, {
			method: 'POST',
			path: '/1.1/oauth/invalidate_token',
			body: { a: 'b c' },
			form: true,
		});
		expect(body).toBe('a=b+c');
		expect(requests[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
	});
});

describe('app-only bearer credential: minted once and cached', () => {
	it('mints with client_credentials and HTTP Basic, then reuses the token', async () => {
		const credentials = defaultCredentials();
		credentials.platformBearerApi = {
			...credentials.platformBearerApi,
			origin: 'minted',
			consumerKey: 'ck',
			consumerSecret: 'cs',
			mintedToken: '',
		};
		let basic = '';
		let grant = '';
		nock(BASE)
			.post('/oauth2/token', (b) => {
				grant = typeof b === 'string' ? b : new URLSearchParams(b).toString();
				return true;
			})
			.once()
			.reply(function () {
				basic = String(this.req.headers.authorization);
				return [200, { token_type: 'bearer', access_token: 'MINTED-1' }];
			});
		const auths: string[] = [];
		nock(BASE)
			.get('/2/webhooks')
			.times(3)
			.reply(function () {
				auths.push(String(this.req.headers.authorization));
				return [200, { data: [] }];
			});
		const { context, preAuthCalls } = createContext({ credentials });
		for (let i = 0; i < 3; i++) {
			await platformRequest.call(context, {
				method: 'GET',
				path: '/2/webhooks',
				credentialType: 'platformBearerApi',
			});
		}
		expect(preAuthCalls).toEqual(['platformBearerApi']);
		expect(basic).toBe(`Basic ${Buffer.from('ck:cs').toString('base64')}`);
		expect(grant).toBe('grant_type=client_credentials');
		expect(auths).toEqual(['Bearer MINTED-1', 'Bearer MINTED-1', 'Bearer MINTED-1']);
	});

	it('explains code 99 when minting is refused', async () => {
		const credentials = defaultCredentials();
		credentials.platformBearerApi = {
			...credentials.platformBearerApi,
			origin: 'minted',
			consumerKey: 'ck',
			consumerSecret: TEST_SECRETS.consumerSecret,
			mintedToken: '',
		};
		nock(BASE)
			.post('/oauth2/token')
			.reply(403, { errors: [{ code: 99, message: 'Unable to verify your credentials' }] });
		const { context } = createContext({ credentials });
		const error = await failure(
			platformRequest.call(context, {
				method: 'GET',
				path: '/2/webhooks',
				credentialType: 'platformBearerApi',
			}),
		);
		expect(error.message).toMatch(/bearer token was requested too often/);
		assertNoSecret(error);
	});
});
