import nock from 'nock';

import { ACTIVITY_EVENT_TYPES } from '../../nodes/shared/activity';
import { CREDENTIAL_TYPES } from '../../nodes/shared/transport';
import { BASE, TEST_SECRETS } from '../helpers/context';
import { node, run as runNode, runFailing as runNodeFailing, setupNock } from './helpers';

setupNock();

const BEARER = { authentication: 'platformBearerApi' };
const run = (parameters: Record<string, unknown>) =>
	runNode({ resource: 'admin', ...parameters }, undefined, BEARER);
const runFailing = (parameters: Record<string, unknown>) =>
	runNodeFailing({ resource: 'admin', ...parameters }, undefined, BEARER);
const RULES = '/2/tweets/search/stream/rules';

describe('Admin: app-only bearer', () => {
	it('refuses a user-context credential before any request', async () => {
		const { error, requests } = await runNodeFailing({
			resource: 'admin',
			operation: 'listWebhooks',
		});
		expect(error.message).toBe('List webhooks needs App-Only Bearer Token authentication');
		expect(error.description).toContain('App-Only Bearer Token');
		expect(requests).toHaveLength(0);
	});

	it('lists no webhook when the answer leaves data out (the service’s answer when there is none)', async () => {
		nock(BASE)
			.get('/2/webhooks')
			.reply(200, { meta: { result_count: 0 } });
		const list = await run({ operation: 'listWebhooks' });
		expect(list.output.map((o) => o.json)).toEqual([]);
	});

	it('lists, validates and deletes webhooks with the bearer token', async () => {
		nock(BASE)
			.get('/2/webhooks')
			.reply(200, {
				data: [{ id: '1', url: 'https://n8n.example/webhook', valid: true }],
				meta: { result_count: 1 },
			});
		const list = await run({ operation: 'listWebhooks' });
		expect(list.output.map((o) => o.json)).toEqual([
			{ id: '1', url: 'https://n8n.example/webhook', valid: true },
		]);
		expect(list.requests[0].headers.authorization).toBe(`Bearer ${TEST_SECRETS.bearerToken}`);
		nock(BASE)
			.put('/2/webhooks/1')
			.reply(200, { data: { valid: true } });
		expect((await run({ operation: 'validateWebhook', webhookId: '1' })).output[0].json).toEqual({
			webhook_id: '1',
			valid: true,
		});
		nock(BASE)
			.delete('/2/webhooks/1')
			.reply(200, { data: { deleted: true } });
		expect((await run({ operation: 'deleteWebhook', webhookId: '1' })).output[0].json).toEqual({
			id: '1',
			deleted: true,
		});
	});

	it('replays a window as yyyymmddhhmm UTC and refuses windows older than 24 hours', async () => {
		const to = new Date(Date.now() - 60 * 60 * 1000);
		const from = new Date(to.getTime() - 2 * 60 * 60 * 1000);
		const stamp = (d: Date) => d.toISOString().replace(/[-T:]/g, '').slice(0, 12);
		nock(BASE)
			.post('/2/webhooks/replay', { webhook_id: '1', from_date: stamp(from), to_date: stamp(to) })
			.reply(200, { data: { job_id: 'j1', created_at: '2026-01-01T00:00:00.000Z' } });
		const { output } = await run({
			operation: 'replayWebhook',
			webhookId: '1',
			from: from.toISOString(),
			to: to.toISOString(),
		});
		expect(output[0].json.job_id).toBe('j1');
		const old = await runFailing({
			operation: 'replayWebhook',
			webhookId: '1',
			from: new Date(Date.now() - 30 * 3600e3).toISOString(),
			to: to.toISOString(),
		});
		expect(old.error.message).toBe(
			'Invalid input in item 1: From: the service replays only the past 24 hours',
		);
		expect(old.requests).toHaveLength(0);
	});

	it('lists, updates and deletes activity subscriptions', async () => {
		nock(BASE)
			.get('/2/activity/subscriptions')
			.reply(200, { data: [{ subscription_id: 's1' }], meta: { next_token: 'p2' } })
			.get('/2/activity/subscriptions')
			.query({ pagination_token: 'p2' })
			.reply(200, { data: [{ subscription_id: 's2' }] });
		const list = await run({ operation: 'listSubscriptions', returnAll: true });
		expect(list.output.map((o) => o.json.subscription_id)).toEqual(['s1', 's2']);
		nock(BASE)
			.put('/2/activity/subscriptions/123', { tag: 'vip', webhook_id: '9' })
			.reply(200, { data: { subscription: { subscription_id: '123', tag: 'vip' } } });
		const update = await run({
			operation: 'updateSubscription',
			subscriptionId: '123',
			tag: 'vip',
			webhookId: '9',
		});
		expect(update.output[0].json).toEqual({ subscription_id: '123', tag: 'vip' });
		nock(BASE)
			.delete('/2/activity/subscriptions/123')
			.reply(200, { data: { deleted: true } });
		expect(
			(await run({ operation: 'deleteSubscription', subscriptionId: '123' })).output[0].json,
		).toEqual({ id: '123', deleted: true });
	});

	it('lists streaming connections and ends them all, by endpoint and by ids', async () => {
		nock(BASE)
			.get('/2/connections')
			.query({ status: 'all', endpoints: 'filtered_stream', max_results: '2' })
			.reply(200, {
				data: [{ endpoint_name: 'filtered_stream' }, { endpoint_name: 'filtered_stream' }],
				meta: { next_token: 'x' },
			});
		const list = await run({
			operation: 'listConnections',
			status: 'all',
			endpoints: 'filtered_stream',
			returnAll: false,
			limit: 2,
		});
		expect(list.output).toHaveLength(2);
		const kills = {
			successful_kills: 1,
			failed_kills: 0,
			results: [{ uuid: 'u1', success: true }],
		};
		nock(BASE).delete('/2/connections/all').reply(200, { data: kills });
		expect((await run({ operation: 'endAllConnections' })).output[0].json).toEqual(kills);
		nock(BASE).delete('/2/connections/filtered_stream').reply(200, { data: kills });
		expect(
			(await run({ operation: 'endEndpointConnections', endpoint: 'filtered_stream' })).output[0]
				.json,
		).toEqual({ endpoint: 'filtered_stream', ...kills });
		nock(BASE)
			.delete('/2/connections', { uuids: ['u1', 'u2'] })
			.reply(200, { data: kills });
		const byIds = await run({ operation: 'endConnectionsByIds', uuids: 'u1, u2\nu1' });
		expect(byIds.output[0].json).toEqual(kills);
		const tooMany = await runFailing({
			operation: 'endConnectionsByIds',
			uuids: Array.from({ length: 101 }, (_, i) => `u${i}`).join(','),
		});
		expect(tooMany.error.message).toBe(
			'Invalid input in item 1: Connection UUIDs: at most 100 per request (got 101)',
		);
	});
});

describe('Admin: filtered-stream rules', () => {
	const rules = {
		rule: [
			{ value: 'from:n8n_io', tag: 'n8n' },
			{ value: 'cats has:images', tag: '' },
		],
	};
	const add = { add: [{ value: 'from:n8n_io', tag: 'n8n' }, { value: 'cats has:images' }] };

	it('validates with dry_run first, then adds', async () => {
		const calls: string[] = [];
		nock(BASE)
			.post(RULES, add)
			.query({ dry_run: 'true' })
			.reply(
				200,
				(uri) => (
					calls.push(uri),
					{
						data: [{ value: 'from:n8n_io', tag: 'n8n', id: '0' }],
						meta: { summary: { valid: 2, invalid: 0 } },
					}
				),
			)
			.post(RULES, add)
			.reply(
				201,
				(uri) => (
					calls.push(uri),
					{
						data: [
							{ id: '101', value: 'from:n8n_io', tag: 'n8n' },
							{ id: '102', value: 'cats has:images' },
						],
						meta: { summary: { created: 2, not_created: 0 } },
					}
				),
			);
		const { output } = await run({ operation: 'addRules', rules });
		expect(calls).toEqual([`${RULES}?dry_run=true`, RULES]);
		expect(output.map((o) => o.json)).toEqual([
			{ id: '101', value: 'from:n8n_io', tag: 'n8n' },
			{ id: '102', value: 'cats has:images' },
		]);
	});

	it('adds nothing when the dry run refuses a rule, and explains why', async () => {
		nock(BASE)
			.post(RULES, add)
			.query({ dry_run: 'true' })
			.reply(200, {
				errors: [
					{
						type: 'https://api.x.com/2/problems/duplicate-rules',
						title: 'DuplicateRule',
						value: 'from:n8n_io',
						id: '55',
					},
				],
				meta: { summary: { valid: 1, invalid: 1 } },
			});
		const { error, requests } = await runFailing({ operation: 'addRules', rules });
		expect(requests).toHaveLength(1);
		expect(error.message).toBe(
			'Rule validation failed, no rule was added: Duplicate rule: from:n8n_io (existing id 55)',
		);
		expect(error.description).toContain('duplicate-rules "from:n8n_io" (rule 55)');
	});

	it('only validates when asked (dry run option)', async () => {
		nock(BASE)
			.post(RULES, add)
			.query({ dry_run: 'true' })
			.reply(200, {
				data: [{ id: '0', value: 'from:n8n_io', tag: 'n8n' }],
				meta: { summary: { valid: 2, invalid: 0 } },
			});
		const { output, requests } = await run({
			operation: 'addRules',
			rules,
			options: { dryRun: true },
		});
		expect(requests).toHaveLength(1);
		expect(output[0].json).toEqual({ id: '0', value: 'from:n8n_io', tag: 'n8n', dry_run: true });
	});

	it('deletes by ids, with dry_run when asked', async () => {
		nock(BASE)
			.post(RULES, { delete: { ids: ['101', '102'] } })
			.query({ dry_run: 'true' })
			.reply(200, { meta: { summary: { deleted: 2, not_deleted: 0 } } });
		const dry = await run({
			operation: 'deleteRules',
			ruleIds: '101,102',
			options: { dryRun: true },
		});
		expect(dry.output[0].json).toEqual({
			dry_run: true,
			ids: ['101', '102'],
			deleted: 2,
			not_deleted: 0,
		});
		nock(BASE)
			.post(RULES, { delete: { ids: ['101', '999'] } })
			.reply(200, {
				meta: { summary: { deleted: 1, not_deleted: 1 } },
				errors: [
					{
						type: 'https://api.x.com/2/problems/invalid-request',
						title: 'Invalid Request',
						id: '999',
						detail: 'Rule does not exist',
					},
				],
			});
		const real = await run({ operation: 'deleteRules', ruleIds: '101 999' });
		expect(new URL(real.requests[0].url).search).toBe('');
		expect(real.output[0].json).toEqual({
			dry_run: false,
			ids: ['101', '999'],
			deleted: 1,
			not_deleted: 1,
			errors: ['invalid-request (rule 999): Rule does not exist'],
		});
	});

	it('lists rules up to the limit', async () => {
		nock(BASE)
			.get(RULES)
			.query({ max_results: '1000' })
			.reply(200, { data: [{ id: '1', value: 'a' }], meta: { sent: 'now', result_count: 1 } });
		const { output } = await run({ operation: 'listRules', returnAll: false, limit: 5000 });
		expect(output.map((o) => o.json)).toEqual([{ id: '1', value: 'a' }]);
	});
});

describe('Admin: Create Webhook and Create Activity Subscription (what a trigger adopts)', () => {
	const URL_ = 'https://n8n.example/webhook/abc/webhook';

	it('registers a webhook with the bearer token and returns it (data envelope or bare object)', async () => {
		nock(BASE)
			.post('/2/webhooks', { url: URL_ })
			.reply(200, {
				data: { id: '7', url: URL_, valid: true, created_at: '2026-01-01T00:00:00.000Z' },
			});
		const { output, requests } = await run({ operation: 'createWebhook', url: ` ${URL_} ` });
		expect(output[0].json).toEqual({
			id: '7',
			url: URL_,
			valid: true,
			created_at: '2026-01-01T00:00:00.000Z',
		});
		expect(output[0].pairedItem).toEqual({ item: 0 });
		expect(requests[0].headers.authorization).toBe(`Bearer ${TEST_SECRETS.bearerToken}`);
		nock(BASE).post('/2/webhooks').reply(200, { id: '8', url: URL_, valid: true });
		expect((await run({ operation: 'createWebhook', url: URL_ })).output[0].json.id).toBe('8');
	});

	it('refuses a URL that is not one, a URL over 200 characters, and a user credential, before any request', async () => {
		for (const [url, message] of [
			['n8n.example/hook', 'Invalid input in item 1: URL: "n8n.example/hook" is not a URL'],
			[
				`https://n8n.example/${'x'.repeat(190)}`,
				'Invalid input in item 1: URL: at most 200 characters (got 210)',
			],
		]) {
			const { error, requests } = await runFailing({ operation: 'createWebhook', url });
			expect(error.message).toBe(message);
			expect(requests).toHaveLength(0);
		}
		const { error, requests } = await runNodeFailing({
			resource: 'admin',
			operation: 'createWebhook',
			url: URL_,
		});
		expect(error.message).toBe('Create a webhook needs App-Only Bearer Token authentication');
		expect(requests).toHaveLength(0);
	});

	it('never repeats a webhook registration that failed (5xx) and explains a refused URL', async () => {
		nock(BASE)
			.post('/2/webhooks')
			.reply(503, { title: 'Service Unavailable', type: 'about:blank' });
		const failed = await runFailing({ operation: 'createWebhook', url: URL_ });
		expect(failed.requests).toHaveLength(1);
		expect(failed.error.description).toContain('List Webhooks');
		nock(BASE)
			.post('/2/webhooks')
			.reply(400, {
				errors: [{ message: 'UrlValidationFailed: the URL must be public HTTPS without a port' }],
			});
		expect((await runFailing({ operation: 'createWebhook', url: URL_ })).error.message).toBe(
			'The service refused the webhook URL',
		);
	});

	it('subscribes a webhook to a user given by @username (looked up once), with keyword and tag', async () => {
		nock(BASE)
			.get('/2/users/by/username/someone')
			.reply(200, { data: { id: '2244994945', username: 'someone' } });
		nock(BASE)
			.post('/2/activity/subscriptions', {
				event_type: 'post.create',
				filter: { user_id: '2244994945', keyword: 'sale' },
				tag: 'prepared',
				webhook_id: '7',
			})
			.reply(200, {
				data: {
					subscription: { subscription_id: 's1', event_type: 'post.create', webhook_id: '7' },
				},
			});
		const { output, requests } = await run({
			operation: 'createSubscription',
			eventType: 'post.create',
			user: '@someone',
			webhookId: '7',
			additionalFields: { keyword: 'sale', tag: 'prepared' },
		});
		expect(output[0].json).toEqual({
			subscription_id: 's1',
			event_type: 'post.create',
			webhook_id: '7',
		});
		expect(requests).toHaveLength(2);
	});

	it('sends a user ID as it is, without tag or webhook when empty', async () => {
		nock(BASE)
			.post('/2/activity/subscriptions', {
				event_type: 'profile.update.bio',
				filter: { user_id: '12' },
			})
			.reply(200, { data: { subscription_id: 's2' } });
		expect(
			(
				await run({
					operation: 'createSubscription',
					eventType: 'profile.update.bio',
					user: '12',
					webhookId: '',
				})
			).output[0].json,
		).toEqual({ subscription_id: 's2' });
	});

	it.each([
		[
			{ eventType: 'profile.update.everything', user: '12' },
			`Invalid input in item 1: Event Type: must be one of ${ACTIVITY_EVENT_TYPES.join(', ')}`,
		],
		[
			{ eventType: 'post.create', user: ' ' },
			'Invalid input in item 1: User: is required: subscriptions filter by user',
		],
		[
			{ eventType: 'post.create', user: '12', webhookId: 'abc' },
			'Invalid input in item 1: Webhook ID: a webhook ID is 1-19 digits',
		],
		[
			{ eventType: 'post.create', user: '12', additionalFields: { keyword: 'k'.repeat(151) } },
			'Invalid input in item 1: Keyword: at most 150 characters',
		],
		[
			{ eventType: 'post.create', user: '12', additionalFields: { tag: 't'.repeat(201) } },
			'Invalid input in item 1: Tag: at most 200 characters',
		],
		[
			{ eventType: 'post.create', user: 'not a name!' },
			'Invalid input in item 1: "User" is not a user ID or @username: "not a name!"',
		],
	])('refuses invalid input before any request (%o)', async (parameters, message) => {
		const { error, requests } = await runFailing({
			operation: 'createSubscription',
			...parameters,
		});
		expect(error.message).toBe(message);
		expect(requests).toHaveLength(0);
	});

	it.each([
		['profile.update.verified', 'profile.update.verified_badge'],
		['profile.update.affiliate', 'profile.update.affiliate_badge'],
	])(
		"sends the stored %s as the service's %s (the name its contract takes)",
		async (eventType, wire) => {
			nock(BASE)
				.post('/2/activity/subscriptions', { event_type: wire, filter: { user_id: '12' } })
				.reply(200, { data: { subscription_id: 's3', event_type: wire } });
			const { output } = await run({ operation: 'createSubscription', eventType, user: '12' });
			expect(output[0].json).toEqual({ subscription_id: 's3', event_type: wire });
		},
	);

	it.each([
		'profile.update.profile_picture',
		'profile.update.banner_picture',
		'profile.update.geo',
		'profile.update.url',
		'profile.update.handle',
		'follow.follow',
		'follow.unfollow',
		'news.new',
	])('offers the contract event %s, subscribed with the app-only bearer', async (eventType) => {
		const options = (
			node.description.properties.find(
				(p) =>
					p.name === 'eventType' && p.displayOptions?.show?.operation?.[0] === 'createSubscription',
			)?.options ?? []
		).map((o) => (o as { value: string }).value);
		expect(options).toContain(eventType);
		nock(BASE)
			.post('/2/activity/subscriptions', { event_type: eventType, filter: { user_id: '12' } })
			.reply(200, { data: { subscription_id: 's4' } });
		const { requests } = await run({ operation: 'createSubscription', eventType, user: '12' });
		expect(requests[0].headers.authorization).toBe(`Bearer ${TEST_SECRETS.bearerToken}`);
	});

	it.each(['chat.received', 'chat.sent', 'dm.received'])(
		'refuses %s with the app-only bearer before any request, naming the user-context kinds',
		async (eventType) => {
			const { error, requests } = await runFailing({
				operation: 'createSubscription',
				eventType,
				user: '12',
			});
			expect(error.message).toBe(
				'Subscribing to direct message and chat events needs OAuth2 (User Context), OAuth1 Keys (User Context) or OAuth1 Connect Account (User Context) authentication',
			);
			expect(requests).toHaveLength(0);
		},
	);

	it("subscribes chat events with the account's OAuth2 token (user and subscription)", async () => {
		nock(BASE)
			.get('/2/users/by/username/someone')
			.reply(200, { data: { id: '2244994945', username: 'someone' } });
		nock(BASE)
			.post('/2/activity/subscriptions', {
				event_type: 'chat.received',
				filter: { user_id: '2244994945' },
			})
			.reply(200, { data: { subscription_id: 's5', event_type: 'chat.received' } });
		const { output, requests } = await runNode(
			{
				resource: 'admin',
				operation: 'createSubscription',
				eventType: 'chat.received',
				user: '@someone',
			},
			undefined,
			{ authentication: CREDENTIAL_TYPES.pkce },
		);
		expect(output[0].json).toEqual({ subscription_id: 's5', event_type: 'chat.received' });
		expect(requests.map((r) => r.headers.authorization)).toEqual([
			`Bearer ${TEST_SECRETS.oauth2AccessToken}`,
			`Bearer ${TEST_SECRETS.oauth2AccessToken}`,
		]);
	});

	it.each(['updateSubscription', 'deleteSubscription', 'listSubscriptions'])(
		'%s still takes only the app-only bearer',
		async (operation) => {
			const { error, requests } = await runNodeFailing(
				{ resource: 'admin', operation, subscriptionId: '1' },
				undefined,
				{ authentication: CREDENTIAL_TYPES.pkce },
			);
			expect(error.message).toMatch(/ needs App-Only Bearer Token authentication$/);
			expect(requests).toHaveLength(0);
		},
	);
});
