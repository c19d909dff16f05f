import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { BASE } from '../helpers/context';
import { rl, run, runFailing, setupNock } from './helpers';

setupNock();

const query = (url: string) => Object.fromEntries(new URL(url).searchParams);

describe('User → Get Many', () => {
	it('splits 250 usernames into 3 requests of at most 100, keeping partial errors as items', async () => {
		const names = Array.from({ length: 250 }, (_, i) => `user_${i}`);
		const sizes: number[] = [];
		nock(BASE)
			.get('/2/users/by')
			.query(true)
			.times(3)
			.reply(200, (uri) => {
				const got = new URL(uri, BASE).searchParams.get('usernames')!.split(',');
				sizes.push(got.length);
				const [missing, ...found] = got;
				return {
					data: found.map((username) => ({ id: `1${username.slice(5)}`, username })),
					errors: [
						{
							value: missing,
							detail: `Could not find user with usernames: [${missing}].`,
							type: 'https://api.x.com/2/problems/resource-not-found',
						},
					],
				};
			});
		const { output, requests } = await run({
			resource: 'user',
			operation: 'getMany',
			lookupBy: 'usernames',
			usernames: ['@user_0', ...names.slice(1)].join('\n') + ', USER_3',
			userFields: ['created_at', 'public_metrics'],
		});
		expect(requests).toHaveLength(3);
		expect(sizes).toEqual([100, 100, 50]);
		expect(query(requests[0].url)['user.fields']).toBe('created_at,public_metrics');
		expect(output).toHaveLength(250);
		expect(output.filter((o) => o.json.error)).toHaveLength(3);
		expect(output[99].json).toEqual({
			id: 'user_0',
			error: 'Could not find user with usernames: [user_0].',
			errorType: 'https://api.x.com/2/problems/resource-not-found',
		});
		expect(output.every((o) => JSON.stringify(o.pairedItem) === JSON.stringify({ item: 0 }))).toBe(
			true,
		);
	});

	it('looks up by ids with the app-only bearer', async () => {
		nock(BASE)
			.get('/2/users')
			.query({ ids: '12,13' })
			.reply(200, { data: [{ id: '12' }, { id: '13' }] });
		const { output, requests } = await run(
			{ resource: 'user', operation: 'getMany', lookupBy: 'ids', userIds: '12 13 12' },
			undefined,
			{ authentication: 'platformBearerApi' },
		);
		expect(requests[0].headers.authorization).toBe('Bearer BEARER-TOKEN-do-not-leak');
		expect(output.map((o) => o.json.id)).toEqual(['12', '13']);
	});

	it('refuses an invalid username before any request', async () => {
		const { error, requests } = await runFailing({
			resource: 'user',
			operation: 'getMany',
			lookupBy: 'usernames',
			usernames: 'ok_name, not-valid!',
		});
		expect(error.message).toBe(
			'Invalid input in item 1: Usernames: "not-valid!" is not a username (1-15 letters, digits or _) or profile URL',
		);
		expect(requests).toHaveLength(0);
	});
});

describe('User → Get Timeline', () => {
	const posts = (prefix: string, n: number, next?: string) => ({
		data: Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, author_id: '9' })),
		includes: { users: [{ id: '9', username: 'jack' }] },
		meta: { result_count: n, ...(next ? { next_token: next } : {}) },
	});

	it("reads the authenticated user's posts up to the limit, with bounds, across pages", async () => {
		const seen: IDataObject[] = [];
		nock(BASE)
			.get('/2/users/me')
			.reply(200, { data: { id: '42' } });
		nock(BASE)
			.get('/2/users/42/tweets')
			.query(true)
			.reply(200, (uri) => (seen.push(query(`${BASE}${uri}`)), posts('a', 100, 'p2')))
			.get('/2/users/42/tweets')
			.query(true)
			.reply(200, (uri) => (seen.push(query(`${BASE}${uri}`)), posts('b', 50, 'p3')));
		const { output, requests } = await run({
			resource: 'user',
			operation: 'getTimeline',
			timeline: 'posts',
			forMe: true,
			returnAll: false,
			limit: 150,
			expansions: ['author_id'],
			options: {
				startTime: '2026-01-01T00:00:00Z',
				sinceId: '100',
				exclude: ['replies', 'retweets'],
			},
		});
		const base = {
			expansions: 'author_id',
			start_time: '2026-01-01T00:00:00Z',
			since_id: '100',
			exclude: 'replies,retweets',
		};
		expect(seen).toEqual([
			{ ...base, max_results: '100' },
			{ ...base, max_results: '50', pagination_token: 'p2' },
		]);
		expect(requests).toHaveLength(3);
		expect(output).toHaveLength(150);
		expect(output[149].json).toEqual({
			id: 'b49',
			author_id: '9',
			author: { id: '9', username: 'jack' },
		});
	});

	it('asks for the smallest page the endpoint takes when the limit is lower, and trims', async () => {
		nock(BASE)
			.get('/2/users/me')
			.reply(200, { data: { id: '42' } });
		nock(BASE)
			.get('/2/users/42/mentions')
			.query({ max_results: '5' })
			.reply(200, posts('m', 5, 'more'));
		const { output, requests } = await run({
			resource: 'user',
			operation: 'getTimeline',
			timeline: 'mentions',
			forMe: true,
			returnAll: false,
			limit: 3,
		});
		expect(output).toHaveLength(3);
		expect(requests).toHaveLength(2);
	});

	it("reads another user's followers by username, up to 1000 per page, with pinned posts", async () => {
		nock(BASE)
			.get('/2/users/by/username/jack')
			.reply(200, { data: { id: '12', username: 'jack' } });
		nock(BASE)
			.get('/2/users/12/followers')
			.query({ max_results: '1000', expansions: 'pinned_tweet_id', 'user.fields': 'description' })
			.reply(200, {
				data: [{ id: '1', pinned_tweet_id: '77' }, { id: '2' }],
				includes: { tweets: [{ id: '77', text: 'pinned' }] },
				meta: { result_count: 2, next_token: 'f2' },
			})
			.get('/2/users/12/followers')
			.query({
				max_results: '1000',
				expansions: 'pinned_tweet_id',
				'user.fields': 'description',
				pagination_token: 'f2',
			})
			.reply(200, { data: [{ id: '3' }], meta: { result_count: 1 } });
		const { output } = await run(
			{
				resource: 'user',
				operation: 'getTimeline',
				timeline: 'followers',
				forMe: false,
				user: rl('@jack', 'username'),
				returnAll: true,
				includePinnedPost: true,
				userFields: ['description'],
				options: { startTime: '2026-01-01T00:00:00Z' },
			},
			undefined,
			{ authentication: 'platformBearerApi' },
		);
		expect(output.map((o) => o.json)).toEqual([
			{ id: '1', pinned_tweet_id: '77', pinned_post: { id: '77', text: 'pinned' } },
			{ id: '2' },
			{ id: '3' },
		]);
	});

	it('reads pinned lists of the authenticated user without pagination', async () => {
		nock(BASE)
			.get('/2/users/me')
			.reply(200, { data: { id: '42' } });
		nock(BASE)
			.get('/2/users/42/pinned_lists')
			.query({ 'list.fields': 'owner_id', expansions: 'owner_id' })
			.reply(200, {
				data: [{ id: 'L1', name: 'News', owner_id: '42' }],
				includes: { users: [{ id: '42', username: 'me' }] },
			});
		const { output } = await run({
			resource: 'user',
			operation: 'getTimeline',
			timeline: 'pinnedLists',
			forMe: false,
			listFields: ['owner_id'],
			includeOwner: true,
		});
		expect(output.map((o) => o.json)).toEqual([
			{ id: 'L1', name: 'News', owner_id: '42', owner: { id: '42', username: 'me' } },
		]);
	});

	it('refuses bookmarks with the app-only bearer before any request', async () => {
		const { error, requests } = await runFailing(
			{ resource: 'user', operation: 'getTimeline', timeline: 'bookmarks', returnAll: true },
			undefined,
			{ authentication: 'platformBearerApi' },
		);
		expect(error.message).toBe('Reading Bookmarks needs OAuth2 (User Context) authentication');
		expect(requests).toHaveLength(0);
	});

	const USER =
		'OAuth2 (User Context), OAuth1 Keys (User Context) or OAuth1 Connect Account (User Context)';
	it.each([
		['bookmarks', 'platformOAuth1Api', {}, 'Reading Bookmarks needs OAuth2 (User Context)'],
		['bookmarks', 'platformOAuth1ConnectApi', {}, 'Reading Bookmarks needs OAuth2 (User Context)'],
		['likedPosts', 'platformBearerApi', { forMe: false }, `Reading Liked Posts needs ${USER}`],
		['blocking', 'platformBearerApi', {}, `Reading Blocking needs ${USER}`],
		['muting', 'platformBearerApi', {}, `Reading Muting needs ${USER}`],
		['pinnedLists', 'platformBearerApi', {}, `Reading Pinned Lists needs ${USER}`],
		[
			'posts',
			'platformBearerApi',
			{ forMe: true },
			`Reading the authenticated user's timeline needs ${USER}`,
		],
	])('refuses %s with %s before any request', async (timeline, authentication, extra, message) => {
		const { error, requests } = await runFailing(
			{
				resource: 'user',
				operation: 'getTimeline',
				timeline,
				user: rl('12', 'id'),
				returnAll: true,
				...extra,
			},
			undefined,
			{ authentication },
		);
		expect(error.message).toBe(`${message} authentication`);
		expect(requests).toHaveLength(0);
	});

	it("reads another user's followers with the app-only bearer (a public read)", async () => {
		nock(BASE)
			.get('/2/users/12/followers')
			.query(true)
			.reply(200, { data: [{ id: '7', username: 'f' }], meta: { result_count: 1 } });
		const { output, requests } = await run(
			{
				resource: 'user',
				operation: 'getTimeline',
				timeline: 'followers',
				forMe: false,
				user: rl('12', 'id'),
				returnAll: true,
			},
			undefined,
			{ authentication: 'platformBearerApi' },
		);
		expect(output.map((o) => o.json)).toEqual([{ id: '7', username: 'f' }]);
		expect(requests[0].headers.authorization).toBe('Bearer BEARER-TOKEN-do-not-leak');
	});
});
