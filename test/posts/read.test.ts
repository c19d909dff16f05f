/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- credential type names in test parameters, not secrets */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { userRefFrom } from '../../nodes/shared/locators';
import { newsIdFrom } from '../../nodes/PlatformPosts/resources/news/fields';
import { BASE, createContext } from '../helpers/context';
import { node, rl, run, runFailing, setupNock } from './helpers';

setupNock();

const BEARER = 'platformBearerApi';
const authOf = (headers: Record<string, string>) =>
	String(headers.authorization ?? '').split(' ')[0];

describe('Post → Get', () => {
	it('splits 250 ids into 3 requests of at most 100 and merges includes', async () => {
		const ids = Array.from({ length: 250 }, (_, i) => String(1000 + i));
		const batches: number[] = [];
		const fields: Array<string | null> = [];
		nock(BASE)
			.get('/2/tweets')
			.query(true)
			.times(3)
			.reply(200, (uri) => {
				const params = new URL(uri, BASE).searchParams;
				const got = params.get('ids')!.split(',');
				batches.push(got.length);
				fields.push(params.get('expansions'));
				return {
					data: got.map((id) => ({ id, author_id: '9', attachments: { media_keys: ['3_1'] } })),
					includes: {
						users: [{ id: '9', username: 'jack' }],
						media: [{ media_key: '3_1', type: 'photo' }],
					},
				};
			});
		const { output, requests } = await run({
			resource: 'post',
			operation: 'get',
			postIds: ids.join(','),
			expansions: ['author_id', 'attachments.media_keys'],
			tweetFields: ['created_at'],
			output: 'merged',
		});
		expect(requests).toHaveLength(3);
		expect(batches).toEqual([100, 100, 50]);
		expect(fields).toEqual(Array(3).fill('author_id,attachments.media_keys'));
		expect(new URL(requests[0].url).searchParams.get('tweet.fields')).toBe('created_at');
		expect(output).toHaveLength(250);
		expect(output[0].json).toEqual({
			id: '1000',
			author_id: '9',
			attachments: { media_keys: ['3_1'] },
			author: { id: '9', username: 'jack' },
			media: [{ media_key: '3_1', type: 'photo' }],
		});
		expect(output.map((o) => o.pairedItem)).toEqual(Array(250).fill({ item: 0 }));
	});

	it('takes URLs and ids mixed, and keeps the raw envelope when asked (with partial errors)', async () => {
		const envelope = {
			data: [{ id: '1', text: 'a' }],
			errors: [
				{
					resource_id: '2',
					detail: 'Could not find tweet with ids: [2].',
					type: 'https://api.x.com/2/problems/resource-not-found',
				},
			],
		};
		nock(BASE).get('/2/tweets').query({ ids: '1,2' }).times(2).reply(200, envelope);
		const raw = await run({
			resource: 'post',
			operation: 'get',
			postIds: 'https://x.com/a/status/1\n2',
			output: 'raw',
		});
		expect(raw.output).toEqual([{ json: envelope, pairedItem: { item: 0 } }]);
		const merged = await run({
			resource: 'post',
			operation: 'get',
			postIds: '1, https://x.com/b/status/2',
			output: 'merged',
		});
		expect(merged.output.map((o) => o.json)).toEqual([
			{ id: '1', text: 'a' },
			{
				id: '2',
				error: 'Could not find tweet with ids: [2].',
				errorType: 'https://api.x.com/2/problems/resource-not-found',
			},
		]);
	});

	it('works with the app-only bearer', async () => {
		nock(BASE)
			.get('/2/tweets')
			.query({ ids: '5' })
			.reply(200, { data: [{ id: '5' }] });
		const { requests } = await run(
			{ resource: 'post', operation: 'get', postIds: '5' },
			undefined,
			{ authentication: BEARER },
		);
		expect(requests[0].headers.authorization).toBe('Bearer BEARER-TOKEN-do-not-leak');
	});

	it('continues on fail with one error item per bad input item, and carries on with the others', async () => {
		nock(BASE)
			.get('/2/tweets')
			.query({ ids: '7' })
			.reply(200, { data: [{ id: '7' }] });
		const built = createContext({
			parameters: (i) => ({
				authentication: 'platformOAuth2Api',
				resource: 'post',
				operation: 'get',
				postIds: i === 0 ? 'not-an-id' : '7',
			}),
			items: [{ json: {} }, { json: {} }],
			continueOnFail: true,
		});
		const [output] = await node.execute.call(built.context);
		expect(output[0].json.error).toContain('"not-an-id" is not a post ID or URL');
		expect(output[0].pairedItem).toEqual({ item: 0 });
		expect(output[1]).toEqual({ json: { id: '7' }, pairedItem: { item: 1 } });
	});
});

describe('Post → Search', () => {
	const page = (prefix: string, n: number, next?: string) => ({
		data: Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, author_id: '9' })),
		includes: { users: [{ id: '9', username: 'jack' }] },
		meta: { result_count: n, ...(next ? { next_token: next } : {}) },
	});

	it('stops at the limit across pages, sending next_token back', async () => {
		nock(BASE)
			.get('/2/tweets/search/recent')
			.query({ query: 'n8n', max_results: '15' })
			.reply(200, page('a', 10, 'n2'))
			.get('/2/tweets/search/recent')
			.query({ query: 'n8n', max_results: '10', next_token: 'n2' })
			.reply(200, page('b', 10, 'n3'));
		const { output, requests } = await run({
			resource: 'post',
			operation: 'search',
			query: 'n8n',
			archive: 'recent',
			returnAll: false,
			limit: 15,
			output: 'merged',
		});
		expect(output).toHaveLength(15);
		expect(requests).toHaveLength(2);
		expect(output[14].json).toEqual({
			id: 'b4',
			author_id: '9',
			author: { id: '9', username: 'jack' },
		});
	});

	it('returns all pages of the full archive with time window and sort order', async () => {
		const seen: IDataObject[] = [];
		const record = (uri: string) => {
			seen.push(Object.fromEntries(new URL(uri, BASE).searchParams));
		};
		nock(BASE)
			.get('/2/tweets/search/all')
			.query(true)
			.reply(200, (uri) => (record(uri), page('a', 3, 't2')))
			.get('/2/tweets/search/all')
			.query(true)
			.reply(200, (uri) => (record(uri), page('b', 2)));
		const { output } = await run(
			{
				resource: 'post',
				operation: 'search',
				query: 'from:n8n_io',
				archive: 'all',
				returnAll: true,
				output: 'raw',
				options: {
					startTime: '2026-01-01T00:00:00.000Z',
					endTime: '2026-01-02T12:30:00+02:00',
					sortOrder: 'relevancy',
				},
			},
			undefined,
			{ authentication: BEARER },
		);
		const base = {
			query: 'from:n8n_io',
			max_results: '500',
			start_time: '2026-01-01T00:00:00Z',
			end_time: '2026-01-02T10:30:00Z',
			sort_order: 'relevancy',
		};
		expect(seen).toEqual([base, { ...base, next_token: 't2' }]);
		expect(output.map((o) => (o.json.data as IDataObject[]).length)).toEqual([3, 2]);
		expect(output[0].json.meta).toEqual({ result_count: 3, next_token: 't2' });
	});

	it.each(['platformOAuth2Api', 'platformOAuth1Api', 'platformOAuth1ConnectApi'])(
		'refuses a full-archive search with %s before any request (the service takes only the app-only bearer)',
		async (authentication) => {
			const { error, requests } = await runFailing(
				{ resource: 'post', operation: 'search', query: 'x', archive: 'all', returnAll: true },
				undefined,
				{ authentication },
			);
			expect(error.message).toBe('Full-archive search needs App-Only Bearer Token authentication');
			expect(error.description).toContain('Choose it in the Authentication field');
			expect(requests).toHaveLength(0);
		},
	);

	it('searches recent posts with an OAuth 1.0a user token (recent search takes every kind)', async () => {
		nock(BASE)
			.get('/2/tweets/search/recent')
			.query(true)
			.reply(200, { data: [{ id: '1', text: 'a' }], meta: { result_count: 1 } });
		const { output, requests } = await run(
			{ resource: 'post', operation: 'search', query: 'x', archive: 'recent', limit: 10 },
			undefined,
			{ authentication: 'platformOAuth1Api' },
		);
		expect(output).toHaveLength(1);
		expect(requests[0].headers.authorization).toMatch(/^OAuth /);
	});

	it('refuses an invalid start time before any request', async () => {
		const { error, requests } = await runFailing({
			resource: 'post',
			operation: 'search',
			query: 'x',
			returnAll: true,
			options: { startTime: 'yesterday-ish' },
		});
		expect(error.message).toContain('Start Time: not a date and time');
		expect(requests).toHaveLength(0);
	});
});

describe('Post → Count', () => {
	it.each([
		['recent', 'platformOAuth2Api'],
		['all', 'platformOAuth1Api'],
		['recent', 'platformOAuth1ConnectApi'],
	])(
		'refuses a %s count with %s before any request (counts take only the app-only bearer)',
		async (archive, authentication) => {
			const { error, requests } = await runFailing(
				{ resource: 'post', operation: 'count', query: 'x', archive },
				undefined,
				{ authentication },
			);
			expect(error.message).toBe('Count posts needs App-Only Bearer Token authentication');
			expect(requests).toHaveLength(0);
		},
	);

	it('counts with granularity over all pages and sums the total', async () => {
		nock(BASE)
			.get('/2/tweets/counts/recent')
			.query({ query: 'n8n', granularity: 'day' })
			.reply(200, {
				data: [{ start: '2026-01-02', end: '2026-01-03', tweet_count: 4 }],
				meta: { total_tweet_count: 4, next_token: 'c2' },
			})
			.get('/2/tweets/counts/recent')
			.query({ query: 'n8n', granularity: 'day', next_token: 'c2' })
			.reply(200, {
				data: [{ start: '2026-01-01', end: '2026-01-02', tweet_count: 1 }],
				meta: { total_tweet_count: 1 },
			});
		const { output, requests } = await run(
			{
				resource: 'post',
				operation: 'count',
				query: 'n8n',
				archive: 'recent',
				granularity: 'day',
				output: 'summary',
			},
			undefined,
			{ authentication: BEARER },
		);
		expect(authOf(requests[0].headers)).toBe('Bearer');
		expect(output).toEqual([
			{
				json: {
					query: 'n8n',
					granularity: 'day',
					total_tweet_count: 5,
					counts: [
						{ start: '2026-01-01', end: '2026-01-02', tweet_count: 1 },
						{ start: '2026-01-02', end: '2026-01-03', tweet_count: 4 },
					],
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	it('returns one item per bucket from the full archive, with a time window', async () => {
		nock(BASE)
			.get('/2/tweets/counts/all')
			.query({ query: 'x', granularity: 'hour', start_time: '2026-03-01T00:00:00Z' })
			.reply(200, {
				data: [
					{ start: 'a', end: 'b', tweet_count: 2 },
					{ start: 'b', end: 'c', tweet_count: 0 },
				],
				meta: { total_tweet_count: 2 },
			});
		const { output } = await run(
			{
				resource: 'post',
				operation: 'count',
				query: 'x',
				archive: 'all',
				granularity: 'hour',
				output: 'buckets',
				options: { startTime: '2026-03-01T00:00:00Z' },
			},
			undefined,
			{ authentication: BEARER },
		);
		expect(output.map((o) => o.json.tweet_count)).toEqual([2, 0]);
	});
});

describe('User', () => {
	it.each([
		['username', '@jack', { by: 'username', value: 'jack' }],
		['username', 'n8n_io', { by: 'username', value: 'n8n_io' }],
		['id', '2244994945', { by: 'id', value: '2244994945' }],
		['url', 'https://x.com/jack?lang=en', { by: 'username', value: 'jack' }],
		['url', 'https://x.com/home', undefined],
		['id', 'jack', undefined],
		['username', 'this_name_is_too_long', undefined],
	])('%s %s', (mode, value, expected) => expect(userRefFrom(mode, value)).toEqual(expected));

	it('gets a user by username with user fields', async () => {
		nock(BASE)
			.get('/2/users/by/username/jack')
			.query({ 'user.fields': 'created_at,public_metrics' })
			.reply(200, { data: { id: '12', username: 'jack', name: 'Jack' } });
		const { output } = await run({
			resource: 'user',
			operation: 'get',
			user: rl('@jack', 'username'),
			userFields: ['created_at', 'public_metrics'],
		});
		expect(output[0].json).toEqual({ id: '12', username: 'jack', name: 'Jack' });
	});

	it('gets a user by id and by profile URL, with the app-only bearer', async () => {
		nock(BASE)
			.get('/2/users/12')
			.reply(200, { data: { id: '12' } })
			.get('/2/users/by/username/n8n_io')
			.reply(200, { data: { id: '13' } });
		const a = await run({ resource: 'user', operation: 'get', user: rl('12', 'id') }, undefined, {
			authentication: BEARER,
		});
		const b = await run(
			{ resource: 'user', operation: 'get', user: rl('https://x.com/n8n_io', 'url') },
			undefined,
			{ authentication: BEARER },
		);
		expect([a.output[0].json.id, b.output[0].json.id]).toEqual(['12', '13']);
	});

	it('explains a user that does not exist', async () => {
		nock(BASE)
			.get('/2/users/by/username/nobody')
			.reply(404, {
				errors: [
					{
						type: 'https://api.x.com/2/problems/resource-not-found',
						resource_type: 'user',
						parameter: 'username',
						value: 'nobody',
						detail: 'Could not find user with username: [nobody].',
					},
				],
			});
		const { error } = await runFailing({
			resource: 'user',
			operation: 'get',
			user: rl('nobody', 'username'),
		});
		expect(error.message).toContain('Not found: user nobody (parameter username)');
	});

	it('gets me with OAuth2 and refuses the app-only bearer for it', async () => {
		nock(BASE)
			.get('/2/users/me')
			.query({ 'user.fields': 'created_at' })
			.reply(200, { data: { id: '1', username: 'me' } });
		const { output } = await run({
			resource: 'user',
			operation: 'getMe',
			userFields: ['created_at'],
		});
		expect(output[0].json).toEqual({ id: '1', username: 'me' });
		const refused = await runFailing({ resource: 'user', operation: 'getMe' }, undefined, {
			authentication: BEARER,
		});
		expect(refused.error.message).toBe(
			'Get the authenticated user needs OAuth2 (User Context), OAuth1 Keys (User Context) or OAuth1 Connect Account (User Context) authentication',
		);
		expect(refused.requests).toHaveLength(0);
	});
});

describe('News', () => {
	it('reads a story id from an id or a URL', () => {
		expect(newsIdFrom('1850000000000000001')).toBe('1850000000000000001');
		expect(newsIdFrom('https://x.com/i/trending/1850000000000000001')).toBe('1850000000000000001');
		expect(newsIdFrom('https://x.com/jack')).toBeUndefined();
	});

	it('searches news with fields, limit and max age', async () => {
		nock(BASE)
			.get('/2/news/search')
			.query({
				query: 'automation',
				max_results: '5',
				max_age_hours: '24',
				'news.fields': 'name,summary',
			})
			.reply(200, { data: [{ id: '1', name: 'A', summary: 'S' }], meta: { result_count: 1 } });
		const { output } = await run(
			{
				resource: 'news',
				operation: 'search',
				query: 'automation',
				limit: 5,
				newsFields: ['name', 'summary'],
				options: { maxAgeHours: 24 },
			},
			undefined,
			{ authentication: BEARER },
		);
		expect(output).toEqual([
			{ json: { id: '1', name: 'A', summary: 'S' }, pairedItem: { item: 0 } },
		]);
	});

	it('returns no items when nothing matches', async () => {
		nock(BASE)
			.get('/2/news/search')
			.query(true)
			.reply(200, { meta: { result_count: 0 } });
		const { output } = await run({
			resource: 'news',
			operation: 'search',
			query: 'zzz',
			limit: 10,
		});
		expect(output).toEqual([]);
	});

	it.each(['platformOAuth1Api', 'platformOAuth1ConnectApi'])(
		'refuses a news search with %s before any request (it takes the app-only bearer or OAuth 2.0)',
		async (authentication) => {
			const { error, requests } = await runFailing(
				{ resource: 'news', operation: 'search', query: 'a', limit: 10 },
				undefined,
				{ authentication },
			);
			expect(error.message).toBe(
				'Search news needs App-Only Bearer Token or OAuth2 (User Context) authentication',
			);
			expect(requests).toHaveLength(0);
		},
	);

	it('gets a story with an OAuth 1.0a user token (News > Get takes every kind)', async () => {
		nock(BASE)
			.get('/2/news/1850000000000000001')
			.reply(200, { data: { id: '1850000000000000001', name: 'N' } });
		const { output } = await run(
			{ resource: 'news', operation: 'get', newsId: rl('1850000000000000001') },
			undefined,
			{ authentication: 'platformOAuth1Api' },
		);
		expect(output[0].json).toEqual({ id: '1850000000000000001', name: 'N' });
	});

	it('refuses a max age over 720 hours before any request', async () => {
		const { error, requests } = await runFailing({
			resource: 'news',
			operation: 'search',
			query: 'a',
			limit: 10,
			options: { maxAgeHours: 721 },
		});
		expect(error.message).toContain('Max Age (Hours): at most 720 hours');
		expect(requests).toHaveLength(0);
	});

	it('asks for the last update time as updated_at, the name the service takes (it answers last_updated_at_ms)', async () => {
		nock(BASE)
			.get('/2/news/1850000000000000001')
			.query({ 'news.fields': 'name,updated_at' })
			.reply(200, {
				data: { id: '1850000000000000001', name: 'N', last_updated_at_ms: 1764000000000 },
			});
		nock(BASE)
			.get('/2/news/search')
			.query({ query: 'a', max_results: '10', 'news.fields': 'updated_at' })
			.reply(200, { data: [{ id: '1', last_updated_at_ms: 1764000000000 }] });
		const get = await run({
			resource: 'news',
			operation: 'get',
			newsId: rl('1850000000000000001'),
			newsFields: ['name', 'last_updated_at_ms'],
		});
		expect(get.output[0].json.last_updated_at_ms).toBe(1764000000000);
		const search = await run(
			{
				resource: 'news',
				operation: 'search',
				query: 'a',
				limit: 10,
				newsFields: ['last_updated_at_ms'],
			},
			undefined,
			{ authentication: BEARER },
		);
		expect(search.output).toHaveLength(1);
	});

	it('gets a story by URL with news fields', async () => {
		nock(BASE)
			.get('/2/news/1850000000000000001')
			.query({ 'news.fields': 'summary' })
			.reply(200, { data: { id: '1850000000000000001', summary: 'S' } });
		const { output } = await run({
			resource: 'news',
			operation: 'get',
			newsId: rl('https://x.com/i/trending/1850000000000000001', 'url'),
			newsFields: ['summary'],
		});
		expect(output[0].json).toEqual({ id: '1850000000000000001', summary: 'S' });
	});
});

describe('Options', () => {
	it('passes Max Rate Limit Wait to the transport: a 429 resetting later fails at once when the wait is 0', async () => {
		const reset = Math.floor(Date.now() / 1000) + 30;
		nock(BASE)
			.get('/2/users/12')
			.reply(
				429,
				{ title: 'Too Many Requests', type: 'about:blank' },
				{ 'x-rate-limit-reset': String(reset) },
			);
		const { error, requests } = await runFailing({
			resource: 'user',
			operation: 'get',
			user: rl('12', 'id'),
			options: { maxRateLimitWait: 0 },
		});
		expect(requests).toHaveLength(1);
		expect(error.message).toContain('Rate limit reached (15-minute window); it resets at');
	});
});
