/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code, not shipped */
import { createHmac } from 'node:crypto';
import nock from 'nock';
import type { IDataObject, IObservableObject } from 'n8n-workflow';
import { ObservableObject } from 'n8n-workflow';

import { normalizeDelivery } from '../../nodes/triggers/shared/events';
import {
	checkExists,
	create,
	recoverMissedEvents,
	remove,
} from '../../nodes/triggers/webhook/lifecycle';
import { answerCrc, receiveDelivery } from '../../nodes/triggers/webhook/receive';
import { crcResponseToken, verifySignature } from '../../nodes/triggers/webhook/signature';
import type { TriggerState } from '../../nodes/triggers/webhook/state';
import {
	DEDUPE_MAX_IDS,
	idHash,
	persistedIds,
	processMemory,
	replayWindow,
} from '../../nodes/triggers/webhook/state';
import { BASE, createContext, TEST_SECRETS } from '../helpers/context';
import { answerOf, recordedIds, sign, webhookContext } from './helpers';

const SECRET = TEST_SECRETS.consumerSecret;
const URL_ = 'https://n8n.example.com/webhook/abc/webhook';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

function hookContext(parameters: IDataObject = {}, staticData: IDataObject = {}) {
	return createContext({
		parameters: {
			events: ['post.create', 'post.delete'],
			user: '12',
			keyword: '',
			direction: '',
			options: {},
			...parameters,
		},
		staticData,
		extra: {
			getNodeWebhookUrl: () => URL_,
			getWorkflow: () => ({ id: 'wf1' }),
		},
	});
}

describe('CRC', () => {
	it.each([
		['test', 'test=1&other_test=2', 'sha256=25Cu3iwbbiqBTwQRzcKJZwisjf736V2Q8UaTlkfLSoc='],
		[
			'test',
			'{"test_number":1,"test_string":"two"}',
			'sha256=YWHphPn/JFq43jkF0y4/w8R/SelmLjvpunhVFY8JhlI=',
		],
	])('reproduces the published vector (key %s)', (key, message, expected) => {
		expect(crcResponseToken(key, message)).toBe(expected);
	});

	it('answers a well-formed token with the HMAC of the consumer secret', async () => {
		const token = 'AbCdEfGhIjKlMnOpQr_123';
		const { context, captured } = webhookContext({ query: { crc_token: token } });
		const result = await answerCrc(context);
		expect(result).toEqual({ noWebhookResponse: true });
		expect(captured.status).toBe(200);
		expect(captured.body).toEqual({
			response_token: `sha256=${createHmac('sha256', SECRET).update(token).digest('base64')}`,
		});
	});

	it.each([
		['missing', undefined],
		['path-like', '../x'],
		['too long', 'a'.repeat(2000)],
		['too short', 'abc'],
		['with spaces', 'abcdefghijklmnop qrs'],
	])('answers 400 to a %s token and signs nothing', async (_label, token) => {
		const { context, captured } = webhookContext({
			query: token === undefined ? {} : { crc_token: token },
		});
		await answerCrc(context);
		expect(captured.status).toBe(400);
		expect(captured.body).toEqual({ error: 'crc_token missing or malformed' });
	});

	it('never answers with a wrong token when the secret is missing', async () => {
		const { context, captured, logs } = webhookContext({
			query: { crc_token: 'AbCdEfGhIjKlMnOpQr_123' },
			secret: '',
		});
		await answerCrc(context);
		expect(captured.status).toBe(500);
		expect(captured.body).toEqual({ error: 'not configured' });
		expect(logs.filter((l) => l.level === 'error').map((l) => l.message)).toEqual([
			'Platform Trigger: cannot answer a CRC check: the credential has no consumer secret',
		]);
	});
});

describe('deliveries: signature and bad input', () => {
	const envelope = JSON.stringify({
		data: {
			event_uuid: '-4711',
			event_type: 'post.create',
			filter: { user_id: '1' },
			tag: 't',
			payload: { id: '9', text: 'hi' },
		},
	});

	it('runs once for a correctly signed event', async () => {
		const raw = Buffer.from(envelope);
		const { context } = webhookContext({
			raw,
			headers: { 'x-platform-webhooks-signature': sign(raw) },
		});
		const result = await receiveDelivery(context, new Date('2026-11-22T10:00:00Z'));
		expect(result.workflowData?.[0]).toHaveLength(1);
		expect(result.workflowData?.[0][0].json).toMatchObject({
			event_type: 'post.create',
			event_id: '-4711',
			filter: { user_id: '1' },
			tag: 't',
			payload: { id: '9', text: 'hi' },
			includes: null,
			received_at: '2026-11-22T10:00:00.000Z',
		});
	});

	const raw = Buffer.from(envelope);
	const good = sign(raw);
	const bad: Array<[string, Buffer, unknown]> = [
		['no signature', raw, undefined],
		['a wrong signature', raw, sign(raw, 'other-secret')],
		['a signature of the wrong length', raw, `sha256=${Buffer.from('short').toString('base64')}`],
		['a signature that is not base64', raw, 'sha256=!!!not*base64!!!'],
		['a sha1= prefix', raw, good.replace('sha256=', 'sha1=')],
		['a body changed after signing', Buffer.from(envelope.replace('hi', 'ho')), good],
	];
	it.each(bad)('answers 401 and starts nothing for %s', async (_label, body, signature) => {
		const { context, captured } = webhookContext({
			raw: body,
			headers: signature ? { 'x-platform-webhooks-signature': signature } : {},
		});
		const result = await receiveDelivery(context);
		expect(captured.status).toBe(401);
		expect(result.workflowData).toBeUndefined();
	});

	it.each([
		['malformed JSON', Buffer.from('{"data":'), 400],
		['a JSON array', Buffer.from('[1,2]'), 400],
		['an empty body', Buffer.alloc(0), 400],
		['a 5 MB body', Buffer.alloc(5 * 1024 * 1024, 0x20), 413],
	])('answers %s with a valid signature without a run', async (_label, body, status) => {
		const { context, captured } = webhookContext({
			raw: body,
			headers: { 'x-platform-webhooks-signature': sign(body) },
		});
		const result = await receiveDelivery(context);
		expect(captured.status).toBe(status);
		expect(result.workflowData).toBeUndefined();
	});

	it('reads the signature from the header the user names', async () => {
		const { context } = webhookContext({
			raw,
			headers: { 'x-custom-sig': good },
			parameters: { events: ['post.create'], options: { signatureHeader: 'X-Custom-Sig' } },
		});
		expect((await receiveDelivery(context)).workflowData).toBeDefined();
	});

	it('drops event types that were not selected unless all were chosen', async () => {
		const body = Buffer.from(
			JSON.stringify({ data: { event_uuid: '1', event_type: 'spaces.start', payload: {} } }),
		);
		const headers = { 'x-platform-webhooks-signature': sign(body) };
		expect(
			(await receiveDelivery(webhookContext({ raw: body, headers }).context)).workflowData,
		).toBeUndefined();
		const all = webhookContext({ raw: body, headers, parameters: { events: ['*'], options: {} } });
		expect((await receiveDelivery(all.context)).workflowData?.[0]).toHaveLength(1);
	});

	it('never runs twice for the same event id (replays, double deliveries)', async () => {
		const staticData: IDataObject = {};
		const headers = { 'x-platform-webhooks-signature': good };
		const first = await receiveDelivery(webhookContext({ raw, headers, staticData }).context);
		void first.webhookResponse; // n8n reads the answer once the run has started
		const second = await receiveDelivery(webhookContext({ raw, headers, staticData }).context);
		expect(first.workflowData?.[0]).toHaveLength(1);
		expect(second.workflowData).toBeUndefined();
		expect((staticData as TriggerState).lastReceivedAt).toBeDefined();
	});

	it('emits or drops replay job status deliveries by option', async () => {
		const body = Buffer.from(
			JSON.stringify({
				replay_job_status: {
					webhook_id: '1',
					job_state: 'Complete',
					job_state_description: 'done',
					job_id: '77',
				},
			}),
		);
		const headers = { 'x-platform-webhooks-signature': sign(body) };
		const emitted = await receiveDelivery(webhookContext({ raw: body, headers }).context);
		expect(emitted.workflowData?.[0][0].json.event_type).toBe('replay.complete');
		const dropped = await receiveDelivery(
			webhookContext({
				raw: body,
				headers,
				parameters: { events: ['*'], options: { replayStatus: 'drop' } },
			}).context,
		);
		expect(dropped.workflowData).toBeUndefined();
	});

	it('verifies signatures in constant-time style: equal length required', () => {
		expect(verifySignature(SECRET, raw, good)).toBe(true);
		expect(verifySignature(SECRET, raw, `${good}AAAA`)).toBe(false);
	});
});

describe('event normalisation', () => {
	const at = new Date('2026-01-01T00:00:00Z');
	it.each([
		['ProfileBioUpdate', 'profile.update.bio'],
		['ProfilePictureUpdate', 'profile.update.profile_picture'],
		['ProfileBannerPictureUpdate', 'profile.update.banner_picture'],
		['ProfileBannerUpdate', 'profile.update.banner_picture'],
		['ProfileVerifiedBadgeUpdate', 'profile.update.verified_badge'],
		['NewsNew', 'news.new'],
		['FollowUnfollow', 'follow.unfollow'],
		// The prose's names of the badge events: the service's own names come out.
		['profile.update.verified', 'profile.update.verified_badge'],
		['profile.update.affiliate', 'profile.update.affiliate_badge'],
		['profile.update.verified_badge', 'profile.update.verified_badge'],
		['profile.update.screenname', 'profile.update.screenname'],
		['PostCreate', 'post.create'],
	])('maps %s to %s', (given, expected) => {
		const [event] = normalizeDelivery(
			{ data: { event_uuid: '1', event_type: given, payload: { before: 'a', after: 'b' } } },
			at,
		);
		expect(event.event_type).toBe(expected);
	});

	it('splits Account Activity bodies into one event per element', () => {
		const events = normalizeDelivery(
			{
				for_user_id: '42',
				tweet_create_events: [{ id_str: '1' }, { id_str: '2' }],
				tweet_delete_events: [{ status: { id: '3', user_id: '42' }, timestamp_ms: '1' }],
				favorite_events: [{ id: 'f1', favorited_status: { id_str: '1' } }],
				follow_events: [
					{ type: 'follow', created_timestamp: '1', source: { id: '5' }, target: { id: '42' } },
					{ type: 'unfollow', created_timestamp: '2', source: { id: '6' }, target: { id: '42' } },
				],
				block_events: [
					{ type: 'block', created_timestamp: '1', source: { id: '42' }, target: { id: '7' } },
				],
				mute_events: [
					{ type: 'mute', created_timestamp: '1', source: { id: '42' }, target: { id: '8' } },
				],
				direct_message_events: [{ type: 'message_create', id: 'dm1' }],
				direct_message_indicate_typing_events: [{ created_timestamp: '1', sender_id: '5' }],
				direct_message_mark_read_events: [{ created_timestamp: '1', sender_id: '5' }],
			},
			at,
		);
		expect(events.map((e) => e.event_type)).toEqual([
			'post.create',
			'post.create',
			'post.delete',
			'favorite',
			'follow',
			'unfollow',
			'block',
			'mute',
			'dm.message',
			'dm.indicate_typing',
			'dm.read',
		]);
		expect(new Set(events.map((e) => e.event_id)).size).toBe(events.length);
		expect(events[0].filter).toEqual({ user_id: '42' });
	});

	it('tells two follows of the account apart, and gives every copy of one follow the same id', () => {
		const follow = (source: string, at: string) => ({
			type: 'follow',
			created_timestamp: at,
			source: { id: source },
			target: { id: '42' },
		});
		const body = { for_user_id: '42', follow_events: [follow('5', '100'), follow('9', '100')] };
		const first = normalizeDelivery(body, at).map((e) => e.event_id);
		expect(new Set(first).size).toBe(2);
		// The same follow in another envelope (alone, later) keeps its id; following again later does not.
		const again = normalizeDelivery({ for_user_id: '42', follow_events: [follow('9', '100')] }, at);
		expect(again[0].event_id).toBe(first[1]);
		const later = normalizeDelivery({ for_user_id: '42', follow_events: [follow('9', '200')] }, at);
		expect(first).not.toContain(later[0].event_id);
	});

	it('handles user_event.revoke without for_user_id', () => {
		const [event] = normalizeDelivery(
			{ user_event: { revoke: { date_time: 'x', source: { user_id: '1' } } } },
			at,
		);
		expect(event.event_type).toBe('user.revoke');
		expect(event.filter).toBeNull();
	});

	it('returns nothing for an unknown shape', () => {
		expect(normalizeDelivery({ hello: 'world' }, at)).toEqual([]);
	});
});

describe('dedupe memory is bounded', () => {
	it('keeps at most 2,000 ids and forgets ids older than 26 hours', () => {
		const state: TriggerState = {};
		const t0 = Date.parse('2026-01-01T00:00:00Z');
		const seenBefore = (id: string, at: number) => {
			const fresh = processMemory.claimNewIds('bounded:node', state, [id], at);
			processMemory.persistClaimed('bounded:node', state, fresh, Date.now());
			return !fresh.has(id);
		};
		for (let i = 0; i < 2500; i++) seenBefore(`id-${i}`, t0 + i);
		expect(persistedIds(state)).toHaveLength(DEDUPE_MAX_IDS);
		expect(recordedIds(state, ['id-499', 'id-500'])[0]).toBe('id-500');
		expect(seenBefore('id-2499', t0 + 3000)).toBe(true);
		expect(seenBefore('id-0', t0 + 3000)).toBe(false);
		expect(seenBefore('id-2499', t0 + 27 * 3600_000)).toBe(false);
	});
});

describe('persisted ids', () => {
	const t0 = Date.parse('2026-01-01T00:00:00Z');
	it('are one string in static data, not an object of ids', () => {
		const state: TriggerState = {};
		processMemory.persistClaimed(
			'format:node',
			state,
			processMemory.claimNewIds('format:node', state, ['a', 'b'], t0),
			Date.now(),
		);
		expect(typeof state.seen).toBe('string');
		expect(persistedIds(state)).toEqual([
			[idHash('a'), t0],
			[idHash('b'), t0],
		]);
	});

	it('written by an earlier version as an object are still known', () => {
		const state: TriggerState = { seen: { old: t0 - 1000 } };
		const fresh = processMemory.claimNewIds('legacy:node', state, ['old', 'new'], t0);
		expect(fresh).toEqual(new Set(['new']));
		processMemory.persistClaimed('legacy:node', state, fresh, Date.now());
		expect(recordedIds(state, ['old', 'new'])).toEqual(['old', 'new']);
	});

	it('written by another process after this one wrote are merged', () => {
		const mine: TriggerState = {};
		processMemory.persistClaimed(
			'shared:node',
			mine,
			processMemory.claimNewIds('shared:node', mine, ['x'], t0),
			Date.now(),
		);
		// Another process handled 'y' and saved its own string over ours.
		const other: TriggerState = { seen: JSON.stringify([['y', t0 + 1]]) };
		const fresh = processMemory.claimNewIds('shared:node', other, ['x', 'y', 'z'], t0 + 2);
		expect(fresh).toEqual(new Set(['z']));
		processMemory.persistClaimed('shared:node', other, fresh, Date.now());
		expect(recordedIds(other, ['x', 'y', 'z'])).toEqual(['x', 'y', 'z']);
	});

	it('that cannot be read count as none, and the delivery still runs', () => {
		const state: TriggerState = { seen: '{not json' };
		const fresh = processMemory.claimNewIds('corrupt:node', state, ['q'], t0);
		expect(fresh).toEqual(new Set(['q']));
		processMemory.persistClaimed('corrupt:node', state, fresh, Date.now());
		expect(recordedIds(state, ['q'])).toEqual(['q']);
	});
});

describe('exactly once per event id, whatever the timing', () => {
	const body = (id: string) =>
		Buffer.from(
			JSON.stringify({ data: { event_uuid: id, event_type: 'post.create', payload: { id: '9' } } }),
		);

	it('five copies handled at the same moment, each with its own copy of the static data, run once', async () => {
		// n8n loads the static data per request and saves it after the answer: every copy reads the
		// same old record. Only the process's own record can tell them apart.
		const raw = body('-42');
		const headers = { 'x-platform-webhooks-signature': sign(raw) };
		const copies = Array.from({ length: 5 }, () =>
			webhookContext({ raw, headers, staticData: {}, workflowId: 'wf-concurrent' }),
		);
		// n8n starts each run as soon as the trigger returns, then reads the answer; the copies wait for
		// the first one's run to start and are then answered as duplicates.
		const results = await Promise.all(
			copies.map(async (c) => {
				const result = await receiveDelivery(c.context);
				if (result.workflowData) void result.webhookResponse;
				return result;
			}),
		);
		expect(results.filter((r) => r.workflowData).length).toBe(1);
		results.forEach((r, i) => expect(answerOf(r, copies[i].captured).status).toBe(200));
	});

	it('back-to-back copies with the stale static data of the first request run once', async () => {
		const raw = body('43');
		const headers = { 'x-platform-webhooks-signature': sign(raw) };
		const runs: number[] = [];
		for (let i = 0; i < 3; i++) {
			const out = await receiveDelivery(
				webhookContext({ raw, headers, staticData: {}, workflowId: 'wf-b2b' }).context,
			);
			if (out.workflowData) void out.webhookResponse; // n8n started the run
			runs.push(out.workflowData?.[0].length ?? 0);
		}
		expect(runs).toEqual([1, 0, 0]);
	});

	it("another trigger (workflow) is not affected by this one's record", async () => {
		const raw = body('44');
		const headers = { 'x-platform-webhooks-signature': sign(raw) };
		const a = await receiveDelivery(webhookContext({ raw, headers, workflowId: 'wf-a' }).context);
		const b = await receiveDelivery(webhookContext({ raw, headers, workflowId: 'wf-b' }).context);
		expect([a.workflowData?.[0].length, b.workflowData?.[0].length]).toEqual([1, 1]);
	});

	it('a new process (empty memory) still knows the ids persisted in static data', async () => {
		const raw = body('45');
		const headers = { 'x-platform-webhooks-signature': sign(raw) };
		const staticData: IDataObject = {};
		const first = await receiveDelivery(
			webhookContext({ raw, headers, staticData, workflowId: 'wf-old-process' }).context,
		);
		void first.webhookResponse; // n8n reads the answer once the run has started
		expect(recordedIds(staticData, ['45'])).toContain('45');
		const restarted = await receiveDelivery(
			webhookContext({ raw, headers, staticData, workflowId: 'wf-new-process' }).context,
		);
		expect(restarted.workflowData).toBeUndefined();
	});

	it('a forged copy does not claim the id of the real event', async () => {
		const raw = body('46');
		const forged = await receiveDelivery(
			webhookContext({
				raw,
				headers: { 'x-platform-webhooks-signature': sign(raw, 'not-the-secret') },
				workflowId: 'wf-forged',
			}).context,
		);
		expect(forged.workflowData).toBeUndefined();
		const real = await receiveDelivery(
			webhookContext({
				raw,
				headers: { 'x-platform-webhooks-signature': sign(raw) },
				workflowId: 'wf-forged',
			}).context,
		);
		expect(real.workflowData?.[0]).toHaveLength(1);
	});
});

describe('the answer to a delivery', () => {
	const body = (id: string) =>
		Buffer.from(
			JSON.stringify({ data: { event_uuid: id, event_type: 'post.create', payload: { id: '9' } } }),
		);

	/**
	 * Static data as n8n holds it: the workflow's object wrapped by n8n's ObservableObject, the node's
	 * part a child whose writes mark the root changed. `startRun` does what starting the run does to it
	 * (n8n wraps the same object again for the run, which clears the mark).
	 */
	function n8nStaticData() {
		const raw: IDataObject = {};
		const root = ObservableObject.create(raw, undefined, { ignoreEmptyOnFirstChild: true });
		root['node:Platform Trigger'] = ObservableObject.create({}, root as IObservableObject);
		return {
			node: root['node:Platform Trigger'] as IDataObject,
			changed: () => (raw as { __dataChanged?: boolean }).__dataChanged === true,
			startRun: () => ObservableObject.create(raw, undefined, { ignoreEmptyOnFirstChild: true }),
		};
	}

	/** A signed delivery of event `id` to the trigger of `workflowId`, with its own static data. */
	const deliver = (id: string, workflowId: string, staticData?: IDataObject) => {
		const raw = body(id);
		return receiveDelivery(
			webhookContext({
				raw,
				headers: { 'x-platform-webhooks-signature': sign(raw) },
				staticData,
				workflowId,
			}).context,
		);
	};

	it('is left to n8n, sent once the run has started, with how many events run', async () => {
		const raw = body('-500');
		const built = webhookContext({
			raw,
			headers: { 'x-platform-webhooks-signature': sign(raw) },
			workflowId: 'wf-answer',
		});
		const result = await receiveDelivery(built.context);
		expect(built.captured.status).toBeUndefined();
		expect(result.noWebhookResponse).toBeUndefined();
		expect(result.workflowData?.[0]).toHaveLength(1);
		expect(result.webhookResponse).toEqual({ ok: true, events: 1 });
		// A duplicate starts no run and is answered all the same.
		const again = await receiveDelivery(
			webhookContext({
				raw,
				headers: { 'x-platform-webhooks-signature': sign(raw) },
				workflowId: 'wf-answer',
			}).context,
		);
		expect(again.workflowData).toBeUndefined();
		expect(again.webhookResponse).toEqual({ ok: true, events: 0 });
	});

	it('marks the static data changed only once the run has started (starting it clears the mark), so n8n saves the record', async () => {
		const state = n8nStaticData();
		const raw = body('-501');
		const headers = { 'x-platform-webhooks-signature': sign(raw) };
		const result = await receiveDelivery(
			webhookContext({ raw, headers, staticData: state.node, workflowId: 'wf-mark' }).context,
		);
		// Nothing is written before the run starts: a write then would be saved for nothing.
		expect(state.changed()).toBe(false);
		state.startRun();
		expect(state.changed()).toBe(false);
		// n8n reads the answer after starting the run, then saves the static data if it is marked.
		expect(result.webhookResponse).toEqual({ ok: true, events: 1 });
		expect(state.changed()).toBe(true);
		expect(recordedIds(state.node, ['-501'])).toContain('-501');
		expect((state.node as TriggerState).lastReceivedAt).toBeDefined();
	});

	it('carries into the saved copy the ids other deliveries claimed while its run was being started', async () => {
		const first = n8nStaticData();
		const second = n8nStaticData();
		const a = await deliver('-502', 'wf-overlap', first.node);
		const b = await deliver('-503', 'wf-overlap', second.node);
		// The first delivery's copy is saved last: it must not drop the second one's id.
		void b.webhookResponse;
		first.startRun();
		void a.webhookResponse;
		expect(recordedIds(first.node, ['-502', '-503'])).toEqual(
			expect.arrayContaining(['-502', '-503']),
		);
	});

	it('leaves out of every saved copy the events whose run has not started (the process may die first)', async () => {
		const started = n8nStaticData();
		const notStarted = await deliver('-504', 'wf-not-started');
		const b = await deliver('-505', 'wf-not-started', started.node);
		started.startRun();
		void b.webhookResponse;
		expect(recordedIds(started.node, ['-504', '-505'])).toEqual(['-505']);
		// Once its run starts, the first delivery's event is recorded too.
		void notStarted.webhookResponse;
		const later = n8nStaticData();
		const again = await deliver('-504', 'wf-not-started', later.node);
		expect(again.workflowData).toBeUndefined();
		void again.webhookResponse;
		expect(recordedIds(later.node, ['-504', '-505']).sort()).toEqual(['-504', '-505']);
	});
});

describe('replay window arithmetic', () => {
	it('uses minute granularity', () => {
		expect(
			replayWindow(new Date('2026-11-22T10:15:42Z'), new Date('2026-11-22T11:02:10Z')),
		).toEqual({
			from_date: '202611221015',
			to_date: '202611221102',
		});
	});
	it('caps the start at 24 hours back', () => {
		expect(
			replayWindow(new Date('2026-11-19T00:00:00Z'), new Date('2026-11-22T11:02:10Z')),
		).toEqual({
			from_date: '202611211103',
			to_date: '202611221102',
		});
	});
	it('replays the one minute when the restart falls in the minute of the last delivery', () => {
		expect(
			replayWindow(new Date('2026-11-22T11:02:05Z'), new Date('2026-11-22T11:02:50Z')),
		).toEqual({
			from_date: '202611221102',
			to_date: '202611221102',
		});
	});
	it('asks for nothing when the last delivery lies after now', () => {
		expect(
			replayWindow(new Date('2026-11-22T11:05:05Z'), new Date('2026-11-22T11:02:50Z')),
		).toBeUndefined();
	});
});

describe('lifecycle', () => {
	it('create: registers the webhook, looks up @username, subscribes per event type with a tag', async () => {
		const subscriptions: IDataObject[] = [];
		nock(BASE)
			.get('/2/webhooks')
			.reply(200, { data: [], meta: { result_count: 0 } });
		nock(BASE)
			.post('/2/webhooks', { url: URL_ })
			.reply(200, { data: { id: '111', url: URL_, valid: true } });
		nock(BASE)
			.get('/2/users/by/username/jack')
			.reply(200, { data: { id: '12', username: 'jack' } });
		nock(BASE)
			.post('/2/activity/subscriptions', (b) => {
				subscriptions.push(b);
				return true;
			})
			.times(2)
			.reply(200, (_uri, b) => ({
				data: { subscription: { subscription_id: `s-${(b as IDataObject).event_type}` } },
			}));
		const { context, staticData, requests } = hookContext({ user: '@jack', keyword: 'launch' });
		expect(await create(context)).toBe(true);
		expect(staticData).toMatchObject({
			webhookId: '111',
			subscriptionIds: ['s-post.create', 's-post.delete'],
		});
		expect(subscriptions).toEqual([
			{
				event_type: 'post.create',
				filter: { user_id: '12', keyword: 'launch' },
				tag: 'n8n:wf1:node-1',
				webhook_id: '111',
			},
			{
				event_type: 'post.delete',
				filter: { user_id: '12', keyword: 'launch' },
				tag: 'n8n:wf1:node-1',
				webhook_id: '111',
			},
		]);
		expect(
			requests.every((r) => r.headers.authorization === `Bearer ${TEST_SECRETS.bearerToken}`),
		).toBe(true);
	});

	it('create: adopts an existing webhook with our exact URL instead of duplicating it', async () => {
		nock(BASE)
			.get('/2/webhooks')
			.reply(200, {
				data: [
					{ id: '5', url: 'https://other/x', valid: true },
					{ id: '6', url: URL_, valid: false },
				],
			});
		nock(BASE)
			.put('/2/webhooks/6')
			.reply(200, { data: { valid: true } });
		nock(BASE)
			.post('/2/activity/subscriptions')
			.times(2)
			.reply(200, { data: { subscription_id: 's' } });
		const { context, staticData, requests } = hookContext({ user: '12' });
		await create(context);
		expect(staticData.webhookId).toBe('6');
		expect(
			requests.filter((r) => r.method === 'POST' && r.url.endsWith('/2/webhooks')),
		).toHaveLength(0);
	});

	it.each([
		[
			'URL refused',
			{ errors: [{ message: 'UrlValidationFailed' }] },
			/refused the webhook URL/,
			/WEBHOOK_URL/,
		],
		[
			'limit exceeded',
			{ errors: [{ message: 'WebhookLimitExceeded' }] },
			/webhook limit/,
			/Delete a webhook/,
		],
	])('create: %s says what to do', async (_label, body, message, description) => {
		nock(BASE).get('/2/webhooks').reply(200, { data: [] });
		nock(BASE).post('/2/webhooks').reply(400, body);
		const { context } = hookContext({ user: '12' });
		const error = await create(context).catch((e: Error & { description?: string }) => e);
		expect((error as Error).message).toMatch(message);
		expect((error as { description?: string }).description).toMatch(description);
	});

	it('create: fails clearly without a consumer secret, before any request', async () => {
		const { context, credentials, requests } = hookContext({ user: '12' });
		credentials.platformBearerApi.consumerSecret = '';
		await expect(create(context)).rejects.toThrow(/no Consumer Secret/);
		expect(requests).toHaveLength(0);
	});

	it('checkExists: finds our webhook and re-validates it when invalid', async () => {
		nock(BASE)
			.get('/2/webhooks')
			.reply(200, { data: [{ id: '111', url: URL_, valid: false }] });
		const put = nock(BASE)
			.put('/2/webhooks/111')
			.reply(200, { data: { valid: true } });
		const { context } = hookContext({}, { webhookId: '111', subscriptionIds: ['s1'] });
		expect(await checkExists(context)).toBe(true);
		expect(put.isDone()).toBe(true);
	});

	it('checkExists: false when the webhook is gone', async () => {
		nock(BASE).get('/2/webhooks').reply(200, { data: [] });
		const { context } = hookContext({}, { webhookId: '111', subscriptionIds: ['s1'] });
		expect(await checkExists(context)).toBe(false);
	});

	it('delete: removes our subscriptions and the webhook and clears static data', async () => {
		const scope = nock(BASE)
			.delete('/2/activity/subscriptions/s1')
			.reply(200, { data: { deleted: true } })
			.delete('/2/activity/subscriptions/s2')
			.reply(200, { data: { deleted: true } })
			.get('/2/webhooks')
			.reply(200, { data: [{ id: '111', url: URL_ }] })
			.delete('/2/webhooks/111')
			.reply(200, { data: { deleted: true } });
		const { context, staticData } = hookContext(
			{},
			{ webhookId: '111', subscriptionIds: ['s1', 's2'], lastReceivedAt: 'x' },
		);
		expect(await remove(context)).toBe(true);
		expect(scope.isDone()).toBe(true);
		expect(staticData).toEqual({});
	});

	it('recovery: requests a replay for the gap and takes a running job calmly', async () => {
		let sent: IDataObject = {};
		nock(BASE)
			.post('/2/webhooks/replay', (b) => {
				sent = b;
				return true;
			})
			.reply(200, { data: { job_id: 'j1', created_at: 'x' } });
		const now = new Date('2026-11-22T12:00:30Z');
		const { context } = hookContext(
			{},
			{ webhookId: '111', lastReceivedAt: '2026-11-22T09:30:10Z' },
		);
		expect(await recoverMissedEvents(context, now)).toBe('j1');
		expect(sent).toEqual({ webhook_id: '111', from_date: '202611220930', to_date: '202611221200' });

		nock(BASE)
			.post('/2/webhooks/replay')
			.reply(409, { type: 'https://api.x.com/2/problems/conflict', title: 'Conflict' });
		const again = hookContext({}, { webhookId: '111', lastReceivedAt: '2026-11-22T09:30:10Z' });
		await expect(recoverMissedEvents(again.context, now)).resolves.toBeUndefined();
	});

	it('recovery: off by option', async () => {
		const { context, requests } = hookContext(
			{ options: { recoverMissedEvents: false } },
			{ webhookId: '111', lastReceivedAt: '2026-11-22T09:30:10Z' },
		);
		expect(await recoverMissedEvents(context)).toBeUndefined();
		expect(requests).toHaveLength(0);
	});
});
