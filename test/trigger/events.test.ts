import nock from 'nock';
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { create } from '../../nodes/triggers/webhook/lifecycle';
import { PlatformTriggerPosts } from '../../nodes/PlatformTriggerPosts/PlatformTriggerPosts.node';
import { receiveDelivery } from '../../nodes/triggers/webhook/receive';
import { ACTIVITY_EVENT_TYPES, LEGACY_ACTIVITY_EVENT_TYPES } from '../../nodes/shared/activity';
import { CREDENTIAL_TYPES } from '../../nodes/shared/transport';
import { createContext, TEST_SECRETS } from '../helpers/context';
import { serveActivation, signedDelivery } from './helpers';
import { committedRules } from '../contract/support';

/**
 * The Activity API event types: the service's names on the wire (its contract calls the badge events
 * profile.update.verified_badge and profile.update.affiliate_badge), the event types the contract
 * lists besides the prose's, and what "All Events" stands for in each version.
 */

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const URL_ = 'https://n8n.example.com/webhook/abc/webhook';
const BEARER = `Bearer ${TEST_SECRETS.bearerToken}`;
const USER = `Bearer ${TEST_SECRETS.oauth2AccessToken}`;

/** The event types the service's contract takes for a subscription (its dot names). */
const CONTRACT_EVENT_TYPES = (
	JSON.parse(committedRules()).schemas.ActivitySubscriptionCreateRequest.properties.event_type
		.enum as string[]
).filter((t) => t.includes('.'));
/** Named only by the service's prose (newer than its contract); they stay. */
const PROSE_ONLY = ['post.create', 'post.delete', 'dm.received', 'dm.sent', 'dm.read'];

function activation(typeVersion: number, parameters: IDataObject) {
	const made = serveActivation(URL_, 30);
	const built = createContext({
		parameters: {
			mode: 'activity',
			user: '12',
			keyword: '',
			direction: '',
			userAuthentication: CREDENTIAL_TYPES.pkce,
			options: {},
			...parameters,
		},
		typeVersion,
		workflowId: 'wf1',
		extra: { getNodeWebhookUrl: () => URL_ },
	});
	return { ...built, made };
}

describe('event types on the wire', () => {
	it.each([1, 2])(
		'version %i: All Events subscribes the twelve it always did, the badge events by the service names',
		async (version) => {
			const { context, made } = activation(version, { events: ['*'] });
			await create(context);
			expect(made.map((m) => m.type)).toEqual([
				'post.create',
				'post.delete',
				'spaces.start',
				'spaces.end',
				'dm.received',
				'dm.sent',
				'dm.read',
				'dm.indicate_typing',
				'profile.update.bio',
				'profile.update.verified_badge',
				'profile.update.affiliate_badge',
				'profile.update.screenname',
			]);
		},
	);

	it('version 3: All Events subscribes every offered type: all the contract lists, and the prose-only ones', async () => {
		const { context, made } = activation(3, { events: ['*'], direction: 'sent' });
		await create(context);
		const types = made.map((m) => m.type);
		expect(types).toHaveLength(ACTIVITY_EVENT_TYPES.length);
		expect(types).toEqual(expect.arrayContaining([...CONTRACT_EVENT_TYPES, ...PROSE_ONLY]));
		expect(types).not.toContain('profile.update.verified');
		expect(types).not.toContain('profile.update.affiliate');
		// Chat events, like direct message events, go with the account's token and the direction filter.
		for (const m of made) {
			const user = m.type.startsWith('dm.') || m.type.startsWith('chat.');
			expect(m.auth).toBe(user ? USER : BEARER);
			expect(m.filter.direction).toBe(user ? 'sent' : undefined);
		}
	});

	it('version 3: All Events without a user credential names the chat events too, before any request', async () => {
		const { context, requests } = activation(3, { events: ['*'], userAuthentication: 'none' });
		await expect(create(context)).rejects.toThrow(
			'All Events include direct message and chat events, which need a user credential',
		);
		expect(requests).toHaveLength(0);
		nock.cleanAll();
	});

	it('a stored profile.update.verified / .affiliate subscribes the service names', async () => {
		const { context, made } = activation(2, {
			events: ['profile.update.verified', 'profile.update.affiliate'],
		});
		await create(context);
		expect(made.map((m) => [m.type, m.auth])).toEqual([
			['profile.update.verified_badge', BEARER],
			['profile.update.affiliate_badge', BEARER],
		]);
	});

	it.each(['follow.follow', 'news.new', 'profile.update.handle'])(
		'a chosen %s is subscribed with the app-only bearer',
		async (type) => {
			const { context, made } = activation(3, { events: [type], userAuthentication: 'none' });
			await create(context);
			expect(made).toEqual([{ type, auth: BEARER, filter: { user_id: '12' } }]);
		},
	);
});

describe('the Events field', () => {
	const events = new PlatformTriggerPosts().description.properties.find(
		(p) => p.name === 'events',
	) as INodeProperties;
	const options = (events.options ?? []) as Array<{ name: string; value: string }>;

	it('offers every event type the service lists, in plain words', () => {
		const offered = options.map((o) => o.value);
		expect(offered).toEqual(expect.arrayContaining([...ACTIVITY_EVENT_TYPES]));
		for (const o of options) expect(o.name).not.toMatch(/\b[a-z]+\.[a-z_.]+\b/);
	});

	it('keeps the values saved workflows hold', () => {
		const offered = options.map((o) => o.value);
		expect(offered).toEqual(expect.arrayContaining(['*', ...LEGACY_ACTIVITY_EVENT_TYPES]));
	});

	it('says which events need the user credential', () => {
		for (const o of options) {
			const user = /^(dm|chat)\./.test(o.value) || o.value === '*';
			expect(o.name.endsWith('(Needs User Credential)')).toBe(user);
		}
	});
});

/** A delivery of each event type the package added, in the service's envelope and payload shapes. */
const NEW_KINDS: Array<[string, IDataObject]> = [
	['profile.update.profile_picture', { before: 'https://img/a.jpg', after: 'https://img/b.jpg' }],
	['profile.update.banner_picture', { before: 'https://img/c.jpg', after: 'https://img/d.jpg' }],
	['profile.update.geo', { before: 'Berlin', after: 'Lisbon' }],
	['profile.update.url', { before: 'https://a.example', after: 'https://b.example' }],
	['profile.update.handle', { before: 'old_handle', after: 'new_handle' }],
	['profile.update.verified_badge', { before: 'none', after: 'blue' }],
	['profile.update.affiliate_badge', { before: '', after: 'n8n' }],
	['follow.follow', { source: { id: '2', username: 'fan' }, target: { id: '12', username: 'me' } }],
	[
		'follow.unfollow',
		{ source: { id: '2', username: 'fan' }, target: { id: '12', username: 'me' } },
	],
	['news.new', { headline: 'H', summary: 'S', hook: 'K', category: 'Tech' }],
	['chat.received', { conversation_id: 'c1', sender_id: '2', created_at: '2026-01-01T00:00:00Z' }],
	['chat.sent', { conversation_id: 'c1', sender_id: '12', created_at: '2026-01-01T00:00:00Z' }],
];

describe('a delivery of each added event type', () => {
	const at = new Date('2026-11-22T10:00:00Z');

	it.each(NEW_KINDS)('%s comes out as one item', async (type, payload) => {
		const body = {
			data: {
				event_uuid: '1234567890',
				event_type: type,
				filter: { user_id: '12' },
				tag: 'n8n:wf1:node-1',
				payload,
			},
		};
		// Chosen by its stored value (the two badge events keep the prose's value in a workflow).
		const stored = type.replace(/_badge$/, '');
		const { context } = signedDelivery(body, {
			parameters: { mode: 'activity', events: [stored], options: {} },
			typeVersion: 3,
		});
		const result = await receiveDelivery(context, at);
		expect(result.workflowData?.[0]).toHaveLength(1);
		expect(result.workflowData?.[0][0].json).toEqual({
			event_type: type,
			event_id: '1234567890',
			filter: { user_id: '12' },
			tag: 'n8n:wf1:node-1',
			payload,
			includes: null,
			received_at: at.toISOString(),
		});
	});

	it.each(NEW_KINDS)('%s comes out under All Events', async (type, payload) => {
		const body = { data: { event_uuid: '77', event_type: type, payload } };
		const { context } = signedDelivery(body, {
			parameters: { mode: 'activity', events: ['*'], options: {} },
			typeVersion: 3,
		});
		expect((await receiveDelivery(context, at)).workflowData?.[0]).toHaveLength(1);
	});

	it('a PascalCase name comes out as the dot name and passes the Events filter', async () => {
		const body = {
			data: {
				event_uuid: '78',
				event_type: 'ProfileVerifiedBadgeUpdate',
				payload: { before: 'none', after: 'blue' },
			},
		};
		const { context } = signedDelivery(body, {
			parameters: { mode: 'activity', events: ['profile.update.verified'], options: {} },
			typeVersion: 2,
		});
		const items = (await receiveDelivery(context, at)).workflowData?.[0] ?? [];
		expect(items.map((i) => i.json.event_type)).toEqual(['profile.update.verified_badge']);
	});

	it('an event type that was not chosen is still dropped', async () => {
		const body = { data: { event_uuid: '79', event_type: 'news.new', payload: {} } };
		const { context } = signedDelivery(body, {
			parameters: { mode: 'activity', events: ['follow.follow'], options: {} },
			typeVersion: 3,
		});
		expect((await receiveDelivery(context, at)).workflowData).toBeUndefined();
	});
});

describe('the subscription filter', () => {
	it('refuses a keyword over 150 characters, the service limit, before any request', async () => {
		const { context, requests } = activation(3, {
			events: ['post.create'],
			keyword: 'k'.repeat(151),
		});
		await expect(create(context)).rejects.toThrow('Keyword: at most 150 characters');
		expect(requests).toHaveLength(0);
		nock.cleanAll();
	});
});
