/* eslint-disable @typescript-eslint/no-require-imports -- the sandbox is plain CommonJS */
/**
 * The sandbox holds its own answers to the service's published contract: the answer schemas the
 * rule table carries per status, the checker that reads them, the violations the sandbox records on
 * each request's record and the warning line it prints when it is not quiet. And the answers the
 * contract's shapes fixed (one Space, the bare webhook, `data.subscription`, the upload's `meta`, no
 * `data` when there is nothing) are what the sandbox answers.
 */
import { startCrcResponder } from '../contract/support';

const { createSandbox } = require('../../sandbox/server');
const { createChecker } = require('../../sandbox/contract/check');

type Violation = { rule: string; message: string };
type Record_ = {
	method: string;
	path: string;
	status: number;
	answerViolations?: Violation[];
};
type Sandbox = {
	url: string;
	keys: Record<string, string>;
	records: Record_[];
	options: Record<string, unknown>;
	listen(port?: number): Promise<Sandbox>;
	close(): Promise<void>;
};

const checker = createChecker() as {
	checkAnswer(answer: Record<string, unknown>): { operation?: string; violations: Violation[] };
};

describe('the checker holds an answer to its operation’s schema for the status', () => {
	const space = { id: '1DXxyRYNejbKM', state: 'live' };

	it('accepts the contract’s shape and names the field of another', () => {
		const ok = checker.checkAnswer({
			method: 'GET',
			path: '/2/spaces/1DXxyRYNejbKM',
			status: 200,
			body: { data: space },
		});
		expect(ok).toEqual({ operation: 'getSpacesById', violations: [] });
		const list = checker.checkAnswer({
			method: 'GET',
			path: '/2/spaces/1DXxyRYNejbKM',
			status: 200,
			body: { data: [space] },
		});
		expect(list.violations).toEqual([
			{ rule: 'answer-schema', message: 'body.data: must be an object' },
		]);
	});

	it('refuses a success status the operation does not declare', () => {
		const { violations } = checker.checkAnswer({
			method: 'POST',
			path: '/2/tweets/search/stream/rules',
			status: 201,
			body: { meta: { sent: '2026-01-01T00:00:00Z' } },
		});
		expect(violations.map((v) => v.rule)).toEqual(['answer-status']);
		expect(violations[0].message).toMatch(/status 201 .*\(200, default\)/);
	});

	it('holds an error answer to the operation’s default, by its content type', () => {
		const problem = { type: 'about:blank', title: 'Not Found', status: 404 };
		const answer = { method: 'GET', path: '/2/spaces/1DXxyRYNejbKM', status: 404 };
		expect(
			checker.checkAnswer({ ...answer, contentType: 'application/problem+json', body: problem })
				.violations,
		).toEqual([]);
		expect(
			checker.checkAnswer({
				...answer,
				contentType: 'application/problem+json',
				body: { detail: 'no type, no title' },
			}).violations,
		).toEqual([
			{ rule: 'answer-schema', message: 'body.type: is required' },
			{ rule: 'answer-schema', message: 'body.title: is required' },
		]);
		expect(
			checker.checkAnswer({ ...answer, contentType: 'text/html', body: problem }).violations[0]
				.rule,
		).toBe('answer-content-type');
	});

	it('holds a Problem to the type the contract lists: an unlisted type is refused, a listed one held to its own schema', () => {
		const answer = {
			method: 'GET',
			path: '/2/spaces/1DXxyRYNejbKM',
			status: 400,
			contentType: 'application/problem+json',
		};
		const listed = 'https://api.twitter.com/2/problems/invalid-request';
		const request = { type: listed, title: 'Invalid Request', status: 400 };
		expect(
			checker.checkAnswer({
				...answer,
				body: { ...request, errors: [{ message: 'bad', parameters: {} }] },
			}).violations,
		).toEqual([]);
		// The invalid-request Problem's own schema: its errors list, when present, has an item.
		expect(checker.checkAnswer({ ...answer, body: { ...request, errors: [] } }).violations).toEqual(
			[{ rule: 'answer-schema', message: 'body.errors: needs at least 1 item(s), got 0' }],
		);
		expect(
			checker
				.checkAnswer({
					...answer,
					body: { ...request, type: 'https://api.sandbox.local/2/problems/invalid-request' },
				})
				.violations.map((v) => v.message),
		).toEqual([
			expect.stringMatching(/^body\.type: ".*" is not one of the contract's \d+ values$/),
		]);
	});

	it('names a required field that is missing deep in a list, and an empty list the contract refuses', () => {
		const post = {
			id: '1',
			text: 'a',
			edit_history_tweet_ids: ['1'],
			public_metrics: { retweet_count: 0, reply_count: 0, like_count: 0, impression_count: 0 },
		};
		const { violations } = checker.checkAnswer({
			method: 'GET',
			path: '/2/tweets',
			status: 200,
			body: { data: [post] },
		});
		expect(violations).toEqual([
			{
				rule: 'answer-schema',
				message: 'body.data[0].public_metrics.bookmark_count: is required',
			},
		]);
		expect(
			checker.checkAnswer({ method: 'GET', path: '/2/webhooks', status: 200, body: { data: [] } })
				.violations,
		).toEqual([{ rule: 'answer-schema', message: 'body.data: needs at least 1 item(s), got 0' }]);
	});
});

describe('the sandbox records what in its answer breaks the contract', () => {
	let sb: Sandbox;
	const call = async (method: string, path: string, json?: unknown) => {
		const res = await fetch(sb.url + path, {
			method,
			headers: {
				authorization: `Bearer ${sb.keys.bearerToken}`,
				...(json === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: json === undefined ? undefined : JSON.stringify(json),
		});
		return { status: res.status, body: (await res.json()) as Record<string, unknown> };
	};
	const last = () => sb.records[sb.records.length - 1];

	beforeAll(async () => {
		sb = await createSandbox({ quiet: true }).listen(0);
	});
	afterAll(async () => await sb.close());
	afterEach(() => {
		sb.options.legacyShapes = false;
		jest.restoreAllMocks();
	});

	it('leaves out data when there is no webhook, and the answer conforms', async () => {
		const { status, body } = await call('GET', '/2/webhooks');
		expect(status).toBe(200);
		expect(body).toEqual({ meta: { result_count: 0 } });
		expect(last().answerViolations).toBeUndefined();
	});

	it('records the violations of an answer outside the contract (the bare list of legacyShapes)', async () => {
		sb.options.legacyShapes = true;
		const { body } = await call('GET', '/2/webhooks');
		expect(body).toEqual([]);
		expect(last()).toMatchObject({
			method: 'GET',
			path: '/2/webhooks',
			answerViolations: [{ rule: 'answer-schema', message: 'body: must be an object' }],
		});
	});

	it('prints one warning line per breaking answer when it warns (a sandbox that is not quiet)', async () => {
		const lines: string[] = [];
		jest.spyOn(console, 'warn').mockImplementation((line: string) => void lines.push(line));
		sb.options.answers = 'warn';
		try {
			await call('GET', '/2/webhooks');
			expect(lines).toEqual([]);
			sb.options.legacyShapes = true;
			await call('GET', '/2/webhooks');
		} finally {
			sb.options.answers = 'record';
		}
		expect(lines).toEqual([
			'[sandbox] warning: the answer to GET /2/webhooks (200) breaks the contract: body: must be an object',
		]);
	});

	it('warns by default only when not quiet', () => {
		expect(sb.options.answers).toBe('record');
		const loud = createSandbox({ quiet: false }) as Sandbox;
		const off = createSandbox({ answers: false }) as Sandbox;
		expect(loud.options.answers).toBe('warn');
		expect(off.options.answers).toBe(false);
	});
});

describe('answers in the contract’s shapes', () => {
	let sb: Sandbox;
	const as = (token: string) => async (method: string, path: string, json?: unknown) => {
		const res = await fetch(sb.url + path, {
			method,
			headers: {
				authorization: `Bearer ${token}`,
				...(json === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: json === undefined ? undefined : JSON.stringify(json),
		});
		return { status: res.status, body: (await res.json()) as Record<string, unknown> };
	};
	/** Answers the sandbox's CRC check, so that the webhook registers. */
	let crc: { url: string; close(): Promise<void> };

	beforeAll(async () => {
		sb = await createSandbox({ quiet: true }).listen(0);
		crc = await startCrcResponder(() => sb.keys.consumerSecret);
	});
	afterAll(async () => {
		await sb.close();
		await crc.close();
	});

	it('GET /2/spaces/:id answers one Space', async () => {
		const { body } = await as(sb.keys.bearerToken)('GET', '/2/spaces/1DXxyRYNejbKM');
		expect(body.data).toEqual(expect.objectContaining({ id: '1DXxyRYNejbKM' }));
		expect(Array.isArray(body.data)).toBe(false);
	});

	it('POST /2/webhooks answers the webhook itself; a subscription comes under data.subscription', async () => {
		const app = as(sb.keys.bearerToken);
		const created = await app('POST', '/2/webhooks', { url: crc.url });
		expect(created.status).toBe(200);
		expect(created.body).toEqual({
			id: expect.stringMatching(/^\d+$/),
			url: crc.url,
			valid: true,
			created_at: expect.any(String),
		});
		const sub = await app('POST', '/2/activity/subscriptions', {
			event_type: 'profile.update.bio',
			filter: { user_id: sb.keys.userId },
			webhook_id: created.body.id,
		});
		expect(sub.status).toBe(200);
		expect(sub.body).toEqual({
			data: {
				subscription: expect.objectContaining({
					subscription_id: expect.any(String),
					event_type: 'profile.update.bio',
					webhook_id: created.body.id,
				}),
				total_subscriptions_for_instance_id: 1,
			},
		});
		expect(sb.records.filter((r) => r.answerViolations)).toEqual([]);
	});

	it('a media upload answers a meta and no image field', async () => {
		const user = as(sb.keys.oauth2UserToken);
		const png = Buffer.from('89504e470d0a1a0a', 'hex');
		const single = await user('POST', '/2/media/upload', {
			media: png.toString('base64'),
			media_category: 'tweet_image',
			media_type: 'image/png',
		});
		expect(single.status).toBe(200);
		expect(single.body.meta).toEqual({});
		expect(Object.keys(single.body.data as object).sort()).toEqual([
			'expires_after_secs',
			'id',
			'media_key',
			'size',
		]);
	});
});
