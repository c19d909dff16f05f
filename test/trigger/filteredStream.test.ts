import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import type { TriggerState } from '../../nodes/triggers/webhook/state';
import {
	activateStream,
	deactivateStream,
	readRules,
	streamExists,
} from '../../nodes/triggers/webhook/filteredStream';
import { normalizeStreamDelivery } from '../../nodes/triggers/shared/events';
import { BASE, createContext } from '../helpers/context';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const RULES = '/2/tweets/search/stream/rules';

function hook(parameters: IDataObject = {}) {
	return createContext({
		parameters: {
			mode: 'stream',
			rules: {
				rule: [
					{ value: 'from:shop has:media', tag: 'media' },
					{ value: 'shop sale', tag: '' },
				],
			},
			postFields: 'created_at, author_id',
			expansions: 'author_id',
			userFields: '',
			...parameters,
		},
	});
}

async function failure(promise: Promise<unknown>): Promise<Error & { description?: string }> {
	return await promise.then(
		() => {
			throw new Error('expected a failure');
		},
		(e: Error) => e,
	);
}

describe('Filtered-stream mode: activation', () => {
	it('validates the rules with a dry run, adds them, records their ids and links the webhook with the fields', async () => {
		const sent: IDataObject[] = [];
		const scope = nock(BASE)
			.post(RULES, (b) => (sent.push(b), true))
			.query({ dry_run: 'true' })
			.reply(200, { meta: { summary: { valid: 2, invalid: 0 } } })
			.post(RULES, (b) => (sent.push(b), true))
			.reply(201, {
				data: [
					{ id: '11', value: 'from:shop has:media', tag: 'media' },
					{ id: '12', value: 'shop sale' },
				],
				meta: { summary: { created: 2 } },
			})
			.post('/2/tweets/search/webhooks/wh1')
			.query({ 'tweet.fields': 'created_at,author_id', expansions: 'author_id' })
			.reply(200, { data: { provisioned: true } });
		const built = hook();
		const saved: TriggerState = {};
		await activateStream(built.context, saved, 'wh1');
		expect(sent[0]).toEqual({
			add: [{ value: 'from:shop has:media', tag: 'media' }, { value: 'shop sale' }],
		});
		expect(sent[1]).toEqual(sent[0]);
		expect(saved.ruleIds).toEqual(['11', '12']);
		expect(scope.isDone()).toBe(true);
		expect(built.requests.every((r) => r.headers.authorization?.startsWith('Bearer '))).toBe(true);
	});

	it.each([
		[
			'invalid-rules',
			{
				errors: [
					{
						type: 'https://api.x.com/2/problems/invalid-rules',
						title: 'Invalid Rules',
						value: 'shop (',
						details: ['unbalanced parenthesis'],
					},
				],
			},
			/invalid-rules "shop \(": unbalanced parenthesis/,
		],
		[
			'duplicate-rules',
			{
				errors: [
					{
						type: 'https://api.x.com/2/problems/duplicate-rules',
						title: 'DuplicateRule',
						value: 'shop sale',
						id: '99',
					},
				],
			},
			/duplicate-rules "shop sale" \(rule 99\)/,
		],
		[
			'rule-cap',
			{
				errors: [
					{
						type: 'https://api.x.com/2/problems/rule-cap',
						title: 'RuleCapExceeded',
						detail: 'You have reached the maximum number of rules',
					},
				],
			},
			/rule-cap: You have reached the maximum/,
		],
	])(
		'a dry-run refusal (%s) fails activation, explained, and adds nothing',
		async (_name, reply, description) => {
			nock(BASE).post(RULES).query({ dry_run: 'true' }).reply(200, reply);
			const built = hook();
			const saved: TriggerState = {};
			const error = await failure(activateStream(built.context, saved, 'wh1'));
			expect(error.message).toMatch(/The search rules were refused, nothing was added/);
			expect(error.description).toMatch(description);
			expect(built.requests).toHaveLength(1);
			expect(saved.ruleIds).toBeUndefined();
		},
	);

	it('removes the rules it added when linking the webhook fails', async () => {
		const deleted: IDataObject[] = [];
		nock(BASE)
			.post(RULES)
			.query({ dry_run: 'true' })
			.reply(200, {})
			.post(RULES)
			.reply(201, { data: [{ id: '11' }, { id: '12' }] })
			.post('/2/tweets/search/webhooks/wh1')
			.query(true)
			.reply(403, { title: 'Forbidden', detail: 'not allowed', type: 'about:blank', status: 403 })
			.post(RULES, (b) => (deleted.push(b), true))
			.reply(200, { meta: { summary: { deleted: 2 } } });
		const saved: TriggerState = {};
		await failure(activateStream(hook().context, saved, 'wh1'));
		expect(deleted).toEqual([{ delete: { ids: ['11', '12'] } }]);
		expect(saved.ruleIds).toBeUndefined();
	});

	it('refuses an empty rule and no rules before any request', () => {
		expect(() => readRules(hook({ rules: { rule: [{ value: ' ', tag: 'x' }] } }).context)).toThrow(
			/Rules #1: Value is empty/,
		);
		expect(() => readRules(hook({ rules: {} }).context)).toThrow(/add at least one rule/);
		expect(() =>
			readRules(hook({ rules: { rule: [{ value: 'x'.repeat(2049) }] } }).context),
		).toThrow(/longer than 2048/);
	});
});

describe('Filtered-stream mode: check and deactivation', () => {
	it('exists when all our rules are there, and re-links a missing link', async () => {
		const scope = nock(BASE)
			.get(RULES)
			.query({ ids: '11,12' })
			.reply(200, { data: [{ id: '11' }, { id: '12' }] })
			.get('/2/tweets/search/webhooks')
			.reply(200, { data: { links: [] } })
			.post('/2/tweets/search/webhooks/wh1')
			.query(true)
			.reply(200, { data: { provisioned: true } });
		expect(await streamExists(hook().context, { ruleIds: ['11', '12'] }, 'wh1')).toBe(true);
		expect(scope.isDone()).toBe(true);
	});

	it('does not exist when a rule is gone: the rest are removed so that create starts clean', async () => {
		const deleted: IDataObject[] = [];
		nock(BASE)
			.get(RULES)
			.query({ ids: '11,12' })
			.reply(200, { data: [{ id: '12' }] })
			.post(RULES, (b) => (deleted.push(b), true))
			.reply(200, {});
		const saved: TriggerState = { ruleIds: ['11', '12'] };
		expect(await streamExists(hook().context, saved, 'wh1')).toBe(false);
		expect(deleted).toEqual([{ delete: { ids: ['12'] } }]);
		expect(saved.ruleIds).toBeUndefined();
	});

	it('deactivation unlinks the webhook and deletes only our rules', async () => {
		const deleted: IDataObject[] = [];
		nock(BASE)
			.get('/2/tweets/search/webhooks')
			.reply(200, { data: { links: [{ webhook_id: 'wh1' }, { webhook_id: 'other' }] } })
			.delete('/2/tweets/search/webhooks/wh1')
			.reply(200, { data: { deleted: true } })
			.post(RULES, (b) => (deleted.push(b), true))
			.reply(200, { meta: { summary: { deleted: 2 } } });
		const saved: TriggerState = { webhookId: 'wh1', ruleIds: ['11', '12'] };
		await deactivateStream(hook().context, saved);
		expect(deleted).toEqual([{ delete: { ids: ['11', '12'] } }]);
		expect(saved.ruleIds).toBeUndefined();
	});
});

describe('Filtered-stream deliveries', () => {
	it('become one item with the post, includes, matching rules and their tags', () => {
		const now = new Date('2026-11-22T10:00:00Z');
		const event = normalizeStreamDelivery(
			{
				data: { id: '555', text: 'Sale!' },
				includes: { users: [{ id: '1', username: 'shop' }] },
				matching_rules: [{ id: '11', tag: 'media' }, { id: '12' }],
			},
			now,
		);
		expect(event).toEqual({
			event_type: 'post.match',
			event_id: '555',
			post: { id: '555', text: 'Sale!' },
			includes: { users: [{ id: '1', username: 'shop' }] },
			matching_rules: [{ id: '11', tag: 'media' }, { id: '12' }],
			tags: ['media'],
			received_at: '2026-11-22T10:00:00.000Z',
		});
	});

	it('carry nothing without a post', () => {
		expect(
			normalizeStreamDelivery({ matching_rules: [], errors: [{ title: 'x' }] }, new Date()),
		).toBeUndefined();
	});
});
