import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { checkExists, create, remove } from '../../nodes/triggers/webhook/lifecycle';
import { receiveDelivery } from '../../nodes/triggers/webhook/receive';
import { CREDENTIAL_TYPES } from '../../nodes/shared/transport';
import { BASE, createContext, TEST_SECRETS } from '../helpers/context';
import { serveActivation, sign, webhookContext } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const URL_ = 'https://n8n.example.com/webhook/abc/webhook';
const BEARER = `Bearer ${TEST_SECRETS.bearerToken}`;
const USER = `Bearer ${TEST_SECRETS.oauth2AccessToken}`;

function hookContext(parameters: IDataObject = {}, staticData: IDataObject = {}) {
	return createContext({
		parameters: {
			mode: 'activity',
			events: ['post.create'],
			user: '12',
			keyword: '',
			direction: '',
			userAuthentication: 'none',
			options: {},
			...parameters,
		},
		staticData,
		workflowId: 'wf1',
		extra: { getNodeWebhookUrl: () => URL_ },
	});
}

describe('subscriptions that need a user-context token', () => {
	it('All Events: direct message events are subscribed with the user token, public ones with the bearer', async () => {
		const made = serveActivation(URL_, 12);
		const { context, staticData } = hookContext({
			events: ['*'],
			userAuthentication: CREDENTIAL_TYPES.pkce,
			direction: 'received',
		});
		await create(context);
		expect(made).toHaveLength(12);
		for (const m of made) expect(m.auth).toBe(m.type.startsWith('dm.') ? USER : BEARER);
		// The direction filter uses the service's words and only goes on direct message subscriptions.
		for (const m of made)
			expect(m.filter.direction).toBe(m.type.startsWith('dm.') ? 'received' : undefined);
		expect((staticData.subscriptionIds as string[]).length).toBe(12);
	});

	it.each([
		['All Events', ['*'], /All Events include direct message events, which need a user credential/],
		['a DM event', ['post.create', 'dm.received'], /The events dm.received need a user credential/],
	])(
		'%s without a user credential fails before any request and says which credential to add',
		async (_l, events, message) => {
			const { context, requests } = hookContext({ events });
			const error = (await create(context).catch((e: unknown) => e)) as Error & {
				description?: string;
			};
			expect(error.message).toMatch(message);
			expect(error.description).toMatch(/User Credential/);
			expect(error.description).toMatch(/app-only bearer token is refused/);
			expect(requests).toHaveLength(0);
		},
	);

	it('a refused subscription removes what this activation made, the webhook included', async () => {
		nock(BASE).get('/2/webhooks').reply(200, { data: [] });
		nock(BASE)
			.post('/2/webhooks')
			.reply(200, { data: { id: '111', url: URL_, valid: true } });
		nock(BASE)
			.post('/2/activity/subscriptions')
			.reply(200, { data: { subscription_id: 's1' } });
		nock(BASE).post('/2/activity/subscriptions').reply(403, {
			type: 'https://api.x.com/2/problems/unsupported-authentication',
			title: 'Unsupported Authentication',
			detail: 'no',
		});
		const undo = nock(BASE)
			.delete('/2/activity/subscriptions/s1')
			.reply(200, { data: { deleted: true } })
			.delete('/2/webhooks/111')
			.reply(200, { data: { deleted: true } });
		const { context, staticData } = hookContext({
			events: ['post.create', 'dm.sent'],
			userAuthentication: CREDENTIAL_TYPES.pkce,
		});
		await expect(create(context)).rejects.toThrow();
		expect(undo.isDone()).toBe(true);
		expect(staticData.webhookId).toBeUndefined();
	});
});

describe('Account Activity mode', () => {
	const params = {
		mode: 'accountActivity',
		accountEvents: ['*'],
		userAuthentication: CREDENTIAL_TYPES.hmac,
	};

	it('activation subscribes the account of the user credential (user context) and records it', async () => {
		nock(BASE).get('/2/webhooks').reply(200, { data: [] });
		nock(BASE)
			.post('/2/webhooks')
			.reply(200, { data: { id: '111', url: URL_, valid: true } });
		nock(BASE)
			.get('/2/users/me')
			.reply(200, { data: { id: '1000000001', username: 'me' } });
		let auth = '';
		nock(BASE)
			.post('/2/account_activity/webhooks/111/subscriptions/all')
			.reply(function () {
				auth = String(this.req.headers.authorization);
				return [200, { data: { subscribed: true } }];
			});
		const { context, staticData, requests } = hookContext(params);
		expect(await create(context)).toBe(true);
		expect(auth).toMatch(/^OAuth /);
		expect(staticData).toMatchObject({ webhookId: '111', accountUserId: '1000000001' });
		expect(requests.some((r) => r.url.includes('/2/activity/subscriptions'))).toBe(false);
	});

	it('an account already subscribed (409) counts as subscribed', async () => {
		nock(BASE)
			.get('/2/webhooks')
			.reply(200, { data: [{ id: '111', url: URL_, valid: true }] });
		nock(BASE)
			.get('/2/users/me')
			.reply(200, { data: { id: '1000000001' } });
		nock(BASE).post('/2/account_activity/webhooks/111/subscriptions/all').reply(409, {
			type: 'https://api.x.com/2/problems/duplicate',
			title: 'Conflict',
			detail: 'DuplicateSubscriptionFailed',
		});
		const { context, staticData } = hookContext(params);
		expect(await create(context)).toBe(true);
		expect(staticData.accountUserId).toBe('1000000001');
	});

	it('without a user credential it fails before any request', async () => {
		const { context, requests } = hookContext({ ...params, userAuthentication: 'none' });
		await expect(create(context)).rejects.toThrow(
			/Account Activity subscriptions need a user credential/,
		);
		expect(requests).toHaveLength(0);
	});

	it('checkExists asks, in user context, whether the account is still subscribed', async () => {
		nock(BASE)
			.get('/2/webhooks')
			.reply(200, { data: [{ id: '111', url: URL_, valid: true }] });
		nock(BASE)
			.get('/2/account_activity/webhooks/111/subscriptions/all')
			.reply(200, { data: { subscribed: false } });
		const { context } = hookContext(params, { webhookId: '111', accountUserId: '1000000001' });
		expect(await checkExists(context)).toBe(false);
	});

	it('deactivation removes the account (app bearer) and then the webhook', async () => {
		const order: string[] = [];
		nock(BASE)
			.delete('/2/account_activity/webhooks/111/subscriptions/1000000001/all')
			.reply(function () {
				order.push(`account:${String(this.req.headers.authorization)}`);
				return [200, { data: { subscribed: false } }];
			});
		nock(BASE)
			.get('/2/webhooks')
			.reply(200, { data: [{ id: '111', url: URL_ }] });
		nock(BASE)
			.delete('/2/webhooks/111')
			.reply(() => {
				order.push('webhook');
				return [200, { data: { deleted: true } }];
			});
		const { context, staticData } = hookContext(params, {
			webhookId: '111',
			accountUserId: '1000000001',
		});
		await remove(context);
		expect(order).toEqual([`account:${BEARER}`, 'webhook']);
		expect(staticData).toEqual({});
	});

	it('a favorite delivery runs once with the chosen activities; others are dropped', async () => {
		const body = {
			for_user_id: '1000000001',
			favorite_events: [{ id: 'fav-1', favorited_status: { id_str: '9' }, user: { id: '2' } }],
		};
		const raw = Buffer.from(JSON.stringify(body));
		const headers = { 'x-platform-webhooks-signature': sign(raw) };
		const all = await receiveDelivery(
			webhookContext({ raw, headers, parameters: params, workflowId: 'wf-aa' }).context,
		);
		expect(all.workflowData?.[0].map((i) => i.json.event_type)).toEqual(['favorite']);
		const again = await receiveDelivery(
			webhookContext({ raw, headers, parameters: params, workflowId: 'wf-aa' }).context,
		);
		expect(again.workflowData).toBeUndefined();
		const onlyFollows = await receiveDelivery(
			webhookContext({
				raw,
				headers,
				parameters: { ...params, accountEvents: ['follow'] },
				workflowId: 'wf-aa2',
			}).context,
		);
		expect(onlyFollows.workflowData).toBeUndefined();
	});
});

describe('n8n calls checkExists before create', () => {
	it('checkExists refuses DM events without a user credential before any request too', async () => {
		const { context, requests } = createContext({
			parameters: {
				mode: 'activity',
				events: ['dm.sent'],
				user: '12',
				userAuthentication: 'none',
				options: {},
			},
			workflowId: 'wf1',
			extra: { getNodeWebhookUrl: () => URL_ },
		});
		await expect(checkExists(context)).rejects.toThrow(/need a user credential/);
		expect(requests).toHaveLength(0);
	});
});

describe('User or Keyword', () => {
	it('activation without either is refused before any request', async () => {
		const { context, requests } = createContext({
			parameters: {
				mode: 'activity',
				events: ['post.create'],
				user: '',
				keyword: ' ',
				userAuthentication: 'none',
				options: {},
			},
			workflowId: 'wf1',
			extra: { getNodeWebhookUrl: () => URL_ },
		});
		await expect(create(context)).rejects.toThrow(/Set "User" or "Keyword"/);
		expect(requests).toHaveLength(0);
	});
});
