import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { checkExists, create, remove } from '../../nodes/triggers/webhook/lifecycle';
import { receiveDelivery } from '../../nodes/triggers/webhook/receive';
import { PlatformTriggerPosts } from '../../nodes/PlatformTriggerPosts/PlatformTriggerPosts.node';
import { BASE, createContext } from '../helpers/context';
import { signedDelivery } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const URL_ = 'https://n8n.example.com/webhook/abc/webhook';
const RULES = '/2/tweets/search/stream/rules';
const params = {
	mode: 'stream',
	events: ['post.create'],
	rules: { rule: [{ value: 'autumn sale', tag: 'sale' }] },
	postFields: 'created_at',
	expansions: '',
	userFields: '',
	options: {},
};

function hook(staticData: IDataObject = {}, extra: IDataObject = {}) {
	return createContext({
		parameters: { ...params, ...extra },
		staticData,
		extra: { getNodeWebhookUrl: () => URL_, getWorkflow: () => ({ id: 'wf1' }) },
	});
}

function delivery(body: IDataObject, staticData: IDataObject, parameters: IDataObject = {}) {
	return signedDelivery(body, { parameters: { ...params, ...parameters }, staticData }).context;
}

describe('Platform Trigger in stream mode', () => {
	it('shows the rules only in stream mode and the activity fields only in activity mode', () => {
		const props = new PlatformTriggerPosts().description.properties;
		expect(props.find((p) => p.name === 'mode')?.default).toBe('activity');
		expect(props.find((p) => p.name === 'rules')?.displayOptions?.show?.mode).toEqual(['stream']);
		for (const name of ['events', 'user', 'keyword', 'direction']) {
			expect(props.find((p) => p.name === name)?.displayOptions?.show?.mode).toEqual(['activity']);
		}
	});

	it('create registers the webhook, adds the rules and links; no activity subscription', async () => {
		nock(BASE)
			.get('/2/webhooks')
			.reply(200, { data: [] })
			.post('/2/webhooks', { url: URL_ })
			.reply(200, { data: { id: '111', url: URL_, valid: true } })
			.post(RULES)
			.query({ dry_run: 'true' })
			.reply(200, {})
			.post(RULES)
			.reply(201, { data: [{ id: '71', value: 'autumn sale', tag: 'sale' }] })
			.post('/2/tweets/search/webhooks/111')
			.query({ 'tweet.fields': 'created_at' })
			.reply(200, { data: { provisioned: true } });
		const built = hook();
		expect(await create(built.context)).toBe(true);
		expect(built.staticData).toMatchObject({ webhookId: '111', ruleIds: ['71'] });
		expect(built.requests.some((r) => r.url.includes('/2/activity/subscriptions'))).toBe(false);
	});

	it('checkExists is true with our webhook and rules present, false when the rules are gone', async () => {
		nock(BASE)
			.get('/2/webhooks')
			.reply(200, { data: [{ id: '111', url: URL_, valid: true }] })
			.get(RULES)
			.query({ ids: '71' })
			.reply(200, { data: [{ id: '71' }] })
			.get('/2/tweets/search/webhooks')
			.reply(200, { data: { links: [{ webhook_id: '111' }] } });
		expect(await checkExists(hook({ webhookId: '111', ruleIds: ['71'] }).context)).toBe(true);
		nock(BASE)
			.get('/2/webhooks')
			.reply(200, { data: [{ id: '111', url: URL_, valid: true }] })
			.get(RULES)
			.query({ ids: '71' })
			.reply(200, { meta: { result_count: 0 } });
		expect(await checkExists(hook({ webhookId: '111', ruleIds: ['71'] }).context)).toBe(false);
	});

	it('remove unlinks, deletes only our rules and the webhook, and clears the state', async () => {
		const ruleBodies: IDataObject[] = [];
		nock(BASE)
			.get('/2/tweets/search/webhooks')
			.reply(200, { data: { links: [{ webhook_id: '111' }] } })
			.delete('/2/tweets/search/webhooks/111')
			.reply(200, { data: { deleted: true } })
			.post(RULES, (b) => (ruleBodies.push(b), true))
			.reply(200, {})
			.get('/2/webhooks')
			.reply(200, { data: [{ id: '111', url: URL_ }] })
			.delete('/2/webhooks/111')
			.reply(200, { data: { deleted: true } });
		const built = hook({ webhookId: '111', ruleIds: ['71'] });
		expect(await remove(built.context)).toBe(true);
		expect(ruleBodies).toEqual([{ delete: { ids: ['71'] } }]);
		expect(built.staticData).toEqual({});
	});

	it('a matching post runs once, with its tags; the same post again does not', async () => {
		const staticData: IDataObject = {};
		const body = {
			data: { id: '555', text: 'autumn sale!' },
			includes: {},
			matching_rules: [{ id: '71', tag: 'sale' }],
		};
		const first = await receiveDelivery(delivery(body, staticData));
		expect(first.workflowData?.[0]).toHaveLength(1);
		expect(first.workflowData?.[0][0].json).toMatchObject({
			event_type: 'post.match',
			event_id: '555',
			tags: ['sale'],
			post: { id: '555' },
		});
		void first.webhookResponse; // n8n reads the answer once the run has started
		const again = await receiveDelivery(delivery(body, staticData));
		expect(again.workflowData).toBeUndefined();
	});

	it('an activity envelope is not emitted in stream mode, a replay status is', async () => {
		const activity = { data: { event_uuid: '1', event_type: 'post.create', payload: { id: '9' } } };
		expect((await receiveDelivery(delivery(activity, {}))).workflowData).toBeUndefined();
		const status = {
			replay_job_status: { webhook_id: '111', job_state: 'Complete', job_id: 'j1' },
		};
		const out = await receiveDelivery(delivery(status, {}));
		expect(out.workflowData?.[0][0].json.event_type).toBe('replay.complete');
	});
});
