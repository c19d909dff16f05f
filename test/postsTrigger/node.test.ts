import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { PlatformPostsTrigger } from '../../nodes/PlatformPostsTrigger/PlatformPostsTrigger.node';
import { CREDENTIAL_TYPES } from '../../nodes/shared/transport';
import { poll } from '../../nodes/triggers/poll/poll';
import { MODES } from '../../nodes/triggers/poll/modes';
import { normalizeDelivery, normalizeStreamDelivery } from '../../nodes/triggers/shared/events';
import { BASE, TEST_SECRETS } from '../helpers/context';
import { pollContext } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const POST = {
	id: '1800000000000000010',
	text: 'autumn sale',
	author_id: '42',
	created_at: '2026-01-01T00:00:00.000Z',
};
const INCLUDES = {
	users: [
		{ id: '42', username: 'author', name: 'Author' },
		{ id: '99', username: 'other', name: 'Other' },
	],
};

async function twoPolls(parameters: IDataObject, path: string, body: IDataObject) {
	const staticData: IDataObject = {};
	nock(BASE)
		.get(path)
		.query(true)
		.reply(200, { meta: { result_count: 0 } });
	nock(BASE).get(path).query(true).reply(200, body);
	await poll.call(pollContext(parameters, staticData).context);
	const result = await poll.call(pollContext(parameters, staticData).context);
	return result![0];
}

describe('Platform Poll Trigger', () => {
	it('is a polling trigger with the credential choice of Platform Posts, app-only bearer by default', () => {
		const { description } = new PlatformPostsTrigger();
		expect(description.polling).toBe(true);
		expect(description.name).toBe('platformPostsTrigger');
		expect(description.inputs).toEqual([]);
		expect(description.properties.find((p) => p.name === 'authentication')?.default).toBe(
			'platformBearerApi',
		);
		expect((description.credentials ?? []).map((c) => c.name).sort()).toEqual(
			[
				'platformBearerApi',
				'platformOAuth1Api',
				'platformOAuth1ConnectApi',
				'platformOAuth2Api',
			].sort(),
		);
		const maxItems = description.properties.find((p) => p.name === 'maxItems');
		expect(maxItems?.default).toBe(100);
		expect(maxItems?.description).toMatch(/charges per resource read/);
	});

	it('says under Max Items per Poll how a capped or rate-limited poll shows in the executions', () => {
		// n8n shows neither anywhere but in its log: a capped poll emits exactly Max Items per Poll items
		// (modes.test.ts), a poll refused for the rate limit emits nothing.
		const { properties } = new PlatformPostsTrigger().description;
		const at = properties.findIndex((p) => p.name === 'maxItems');
		const notice = properties[at + 1];
		expect(notice).toMatchObject({ name: 'maxItemsNotice', type: 'notice' });
		// Versions 1 and 1.1 log a paused poll only; from 1.2 a pause of 5 minutes or more is a failed
		// execution, and the notice of each version says which.
		expect(notice.displayOptions).toEqual({ show: { '@version': [{ _cnd: { lt: 1.2 } }] } });
		expect(notice.displayName).toContain(`exactly ${properties[at].displayName} items`);
		expect(notice.displayName).toMatch(/rate limit starts no execution/);
		const paused = properties[at + 2];
		expect(paused).toMatchObject({ name: 'maxItemsPauseNotice', type: 'notice' });
		expect(paused.displayOptions).toEqual({ show: { '@version': [{ _cnd: { gte: 1.2 } }] } });
		expect(paused.displayName).toContain(`exactly ${properties[at].displayName} items`);
		expect(paused.displayName).toMatch(/5 minutes or more, one failed execution says until when/);
	});

	it("emits a user's posts in the webhook trigger's post.create shape", async () => {
		const [item] = await twoPolls(
			{
				event: 'userPosts',
				authentication: CREDENTIAL_TYPES.appOnly,
				user: { __rl: true, mode: 'id', value: '42' },
			},
			'/2/users/42/tweets',
			{ data: [POST], includes: INCLUDES, meta: { result_count: 1 } },
		);
		const [webhook] = normalizeDelivery(
			{
				data: {
					event_uuid: 'x',
					event_type: 'post.create',
					filter: { user_id: '42' },
					payload: POST,
					includes: INCLUDES,
				},
			},
			new Date(),
		);
		expect(Object.keys(item.json).sort()).toEqual(Object.keys(webhook).sort());
		expect(item.json).toMatchObject({
			event_type: 'post.create',
			event_id: POST.id,
			filter: { user_id: '42' },
			payload: POST,
		});
		// Only the objects this post refers to.
		expect(item.json.includes).toEqual({ users: [INCLUDES.users[0]] });
	});

	it("emits search matches in the filtered-stream trigger's post.match shape", async () => {
		const [item] = await twoPolls(
			{ event: 'search', authentication: CREDENTIAL_TYPES.appOnly, query: 'autumn sale' },
			'/2/tweets/search/recent',
			{ data: [POST], includes: INCLUDES, meta: { result_count: 1 } },
		);
		const stream = normalizeStreamDelivery(
			{ data: POST, includes: INCLUDES, matching_rules: [] },
			new Date(),
		)!;
		for (const key of Object.keys(stream)) expect(item.json).toHaveProperty(key);
		expect(item.json).toMatchObject({
			event_type: 'post.match',
			event_id: POST.id,
			post: POST,
			query: 'autumn sale',
			tags: [],
		});
	});

	it('sends the query, recency order, fields and the exclusions; a username is looked up once and kept', async () => {
		const staticData: IDataObject = {};
		const parameters = {
			event: 'userPosts',
			authentication: CREDENTIAL_TYPES.appOnly,
			user: { __rl: true, mode: 'url', value: 'https://x.com/author' },
			includeReplies: false,
			includeReposts: true,
			options: { postFields: 'created_at', expansions: '', userFields: '' },
		};
		const lookup = nock(BASE)
			.get('/2/users/by/username/author')
			.once()
			.reply(200, { data: { id: '42', username: 'author' } });
		// First poll: the smallest page, to learn the position; then pages up to Max Items per Poll.
		for (const size of ['5', '100']) {
			nock(BASE)
				.get('/2/users/42/tweets')
				.query({ exclude: 'replies', 'tweet.fields': 'created_at', max_results: size })
				.reply(200, { meta: { result_count: 0 } });
		}
		const first = pollContext(parameters, staticData);
		await poll.call(first.context);
		await poll.call(pollContext(parameters, staticData).context);
		expect(lookup.isDone()).toBe(true);
		expect(staticData.subject).toEqual({ ref: 'username:author', id: '42' });
		expect(
			first.requests.every((r) => r.headers.authorization === `Bearer ${TEST_SECRETS.bearerToken}`),
		).toBe(true);
	});

	it('starts again from a fresh position when the query changes', async () => {
		const staticData: IDataObject = {};
		nock(BASE)
			.get('/2/tweets/search/recent')
			.query((q) => q.query === 'one' && q.sort_order === 'recency')
			.reply(200, { data: [POST], meta: { result_count: 1 } });
		nock(BASE)
			.get('/2/tweets/search/recent')
			.query((q) => q.query === 'two' && q.since_id === undefined)
			.reply(200, { data: [{ ...POST, id: '1800000000000000005' }], meta: { result_count: 1 } });
		expect(
			await poll.call(
				pollContext(
					{ event: 'search', authentication: CREDENTIAL_TYPES.appOnly, query: 'one' },
					staticData,
				).context,
			),
		).toBeNull();
		expect(
			await poll.call(
				pollContext(
					{ event: 'search', authentication: CREDENTIAL_TYPES.appOnly, query: 'two' },
					staticData,
				).context,
			),
		).toBeNull();
		expect(staticData.newestId).toBe('1800000000000000005');
	});

	it('refuses a search without a query, and user-context modes with the app-only bearer, before any request', async () => {
		const empty = pollContext(
			{ event: 'search', authentication: CREDENTIAL_TYPES.appOnly, query: '  ' },
			{},
		);
		await expect(poll.call(empty.context)).rejects.toThrow('Query: a search query is required');
		const long = pollContext(
			{ event: 'search', authentication: CREDENTIAL_TYPES.appOnly, query: 'x'.repeat(513) },
			{},
		);
		await expect(poll.call(long.context)).rejects.toThrow('Query: at most 512 characters');
		const cap = pollContext(
			{ event: 'search', authentication: CREDENTIAL_TYPES.appOnly, query: 'x', maxItems: 0 },
			{},
		);
		await expect(poll.call(cap.context)).rejects.toThrow('Max Items per Poll');
		const user =
			'needs OAuth2 (User Context), OAuth1 Keys (User Context) or OAuth1 Connect Account (User Context) authentication';
		for (const [event, authentication, needs] of [
			['mentions', CREDENTIAL_TYPES.appOnly, user],
			['likedPosts', CREDENTIAL_TYPES.appOnly, user],
			['directMessages', CREDENTIAL_TYPES.appOnly, user],
			// The service takes bookmarks only with an OAuth 2.0 user token.
			['bookmarks', CREDENTIAL_TYPES.appOnly, 'needs OAuth2 (User Context) authentication'],
			['bookmarks', CREDENTIAL_TYPES.hmac, 'needs OAuth2 (User Context) authentication'],
			['bookmarks', CREDENTIAL_TYPES.connect, 'needs OAuth2 (User Context) authentication'],
		]) {
			const built = pollContext(
				{ event, authentication, user: { __rl: true, mode: 'id', value: '42' } },
				{},
			);
			const mode = MODES.find((m) => m.value === event)!;
			await expect(poll.call(built.context)).rejects.toThrow(`"${mode.name}" ${needs}`);
			expect(built.requests).toHaveLength(0);
		}
		expect(empty.requests.length + long.requests.length + cap.requests.length).toBe(0);
	});

	it('fails the poll with the usual readable message on errors other than rate limits, keeping the position', async () => {
		const staticData: IDataObject = {
			key: JSON.stringify(['search', '', 'x', []]),
			newestId: '1800000000000000001',
		};
		nock(BASE).get('/2/tweets/search/recent').query(true).reply(403, {
			title: 'Client Forbidden',
			type: 'https://api.test.local/2/problems/client-forbidden',
			detail: 'This app is not attached to a project.',
			reason: 'client-not-enrolled',
		});
		await expect(
			poll.call(
				pollContext(
					{ event: 'search', authentication: CREDENTIAL_TYPES.appOnly, query: 'x' },
					staticData,
				).context,
			),
		).rejects.toThrow('The app is not allowed to make this request (client-not-enrolled)');
		expect(staticData.newestId).toBe('1800000000000000001');
	});

	it('a failed poll (503) says that the next poll catches up', async () => {
		const staticData: IDataObject = {
			key: JSON.stringify(['search', '', 'x', []]),
			newestId: '1800000000000000001',
		};
		nock(BASE)
			.get('/2/tweets/search/recent')
			.query(true)
			.times(5)
			.reply(503, { title: 'Service Unavailable', type: 'about:blank', status: 503 });
		const failure = await poll
			.call(
				pollContext(
					{ event: 'search', authentication: CREDENTIAL_TYPES.appOnly, query: 'x' },
					staticData,
				).context,
			)
			.then(
				() => undefined,
				(error: { description?: string }) => error,
			);
		expect(failure?.description).toMatch(/next poll reads what this one missed/);
		expect(staticData.newestId).toBe('1800000000000000001');
	});

	it('shows on the canvas what it watches in the words of the Trigger On field', () => {
		const { description } = new PlatformPostsTrigger();
		const table = JSON.parse(/\((\{.*\})\)\[/.exec(String(description.subtitle))![1]) as Record<
			string,
			string
		>;
		const event = description.properties.find((p) => p.name === 'event')!;
		for (const option of event.options as Array<{ name: string; value: string }>)
			expect(table[option.value]).toBe(option.name);
	});

	it('classifies direct messages as sent or received from the authenticated user', async () => {
		nock(BASE)
			.persist()
			.get('/2/users/me')
			.reply(200, { data: { id: '7' } });
		const items = await twoPolls(
			{ event: 'directMessages', authentication: CREDENTIAL_TYPES.pkce },
			'/2/dm_events',
			{
				data: [
					{ id: '1800000000000000020', event_type: 'MessageCreate', text: 'hi', sender_id: '7' },
					{
						id: '1800000000000000019',
						event_type: 'MessageCreate',
						text: 'hello',
						sender_id: '42',
					},
				],
				meta: { result_count: 2 },
			},
		);
		expect(items.map((i) => i.json.event_type)).toEqual(['dm.received', 'dm.sent']);
		expect((items[0].json.payload as IDataObject).direct_message_events).toHaveLength(1);
	});
});
