/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- credential type names in test parameters, not secrets */
import nock from 'nock';

import { BASE, createContext, TEST_SECRETS } from '../helpers/context';
import { node, rl, run, runFailing, setupNock } from './helpers';

setupNock();

const forbidden = {
	title: 'Forbidden',
	detail: 'You are not permitted to perform this action.',
	type: 'about:blank',
	status: 403,
};

describe('Engagement', () => {
	it('looks the authenticated user up once for all items and likes each post', async () => {
		const bodies: unknown[] = [];
		nock(BASE)
			.get('/2/users/me')
			.once()
			.reply(200, { data: { id: '42', username: 'me' } });
		nock(BASE)
			.post('/2/users/42/likes', (b) => (bodies.push(b), true))
			.times(3)
			.reply(200, { data: { liked: true } });
		const built = createContext({
			parameters: (i) => ({
				authentication: 'platformOAuth2Api',
				resource: 'engagement',
				operation: 'like',
				postId: i === 2 ? rl('https://x.com/a/status/1003', 'url') : rl(String(1001 + i)),
			}),
			items: [{ json: {} }, { json: {} }, { json: {} }],
		});
		const [output] = await node.execute.call(built.context);
		expect(built.requests.filter((r) => r.url.endsWith('/2/users/me'))).toHaveLength(1);
		expect(bodies).toEqual([{ tweet_id: '1001' }, { tweet_id: '1002' }, { tweet_id: '1003' }]);
		expect(output).toEqual(
			[0, 1, 2].map((i) => ({
				json: { liked: true, post_id: String(1001 + i), user_id: '42' },
				pairedItem: { item: i },
			})),
		);
	});

	it('explains in plain words that liking was removed from the self-serve tiers', async () => {
		nock(BASE)
			.get('/2/users/me')
			.reply(200, { data: { id: '42' } });
		nock(BASE).post('/2/users/42/likes').reply(403, forbidden);
		const { error, requests } = await runFailing({
			resource: 'engagement',
			operation: 'like',
			postId: rl('5'),
		});
		expect(error.message).toBe("Liking posts is not available to this app's access tier");
		expect(error.description).toContain('removed from all self-serve tiers');
		expect(error.description).toContain('only Enterprise access still allows it');
		expect(error.description).toContain('You are not permitted to perform this action.');
		expect(error.httpCode).toBe('403');
		expect(requests).toHaveLength(2);
	});

	it('explains the tier refusal of follow, after resolving the username', async () => {
		nock(BASE)
			.get('/2/users/by/username/jack')
			.reply(200, { data: { id: '12' } });
		nock(BASE)
			.get('/2/users/me')
			.reply(200, { data: { id: '42' } });
		nock(BASE).post('/2/users/42/following', { target_user_id: '12' }).reply(403, forbidden);
		const { error } = await runFailing({
			resource: 'engagement',
			operation: 'follow',
			targetUser: rl('jack', 'username'),
		});
		expect(error.message).toBe("Following users is not available to this app's access tier");
	});

	it('keeps the normal error for a 403 on an action that is still offered (repost)', async () => {
		nock(BASE)
			.get('/2/users/me')
			.reply(200, { data: { id: '42' } });
		nock(BASE).post('/2/users/42/retweets', { tweet_id: '5' }).reply(403, forbidden);
		const { error } = await runFailing({
			resource: 'engagement',
			operation: 'repost',
			postId: rl('5'),
		});
		expect(error.message).toBe('You are not permitted to perform this action.');
	});

	it.each([
		['unlike', 'DELETE', '/2/users/42/likes/5', { liked: false }],
		['undoRepost', 'DELETE', '/2/users/42/retweets/5', { retweeted: false }],
		['removeBookmark', 'DELETE', '/2/users/42/bookmarks/5', { bookmarked: false }],
	])('%s sends %s %s', async (operation, method, path, data) => {
		nock(BASE)
			.get('/2/users/me')
			.reply(200, { data: { id: '42' } });
		nock(BASE).intercept(path, method).reply(200, { data });
		const { output, requests } = await run({ resource: 'engagement', operation, postId: rl('5') });
		expect(requests[1].method).toBe(method);
		expect(output[0].json).toEqual({ ...data, post_id: '5', user_id: '42' });
	});

	it('bookmarks with a JSON body (OAuth2) and unfollows by id (OAuth1 keys)', async () => {
		nock(BASE)
			.get('/2/users/me')
			.reply(200, { data: { id: '42' } });
		nock(BASE)
			.post('/2/users/42/bookmarks', { tweet_id: '9' })
			.reply(200, { data: { bookmarked: true } });
		const bookmark = await run({ resource: 'engagement', operation: 'bookmark', postId: rl('9') });
		expect(bookmark.output[0].json.bookmarked).toBe(true);
		expect(bookmark.requests[1].headers.authorization).toBe(
			`Bearer ${TEST_SECRETS.oauth2AccessToken}`,
		);
		nock(BASE)
			.get('/2/users/me')
			.reply(200, { data: { id: '42' } });
		nock(BASE)
			.delete('/2/users/42/following/12')
			.reply(200, { data: { following: false } });
		const unfollow = await run(
			{
				resource: 'engagement',
				operation: 'unfollow',
				targetUser: rl('12', 'id'),
			},
			undefined,
			{ authentication: 'platformOAuth1Api' },
		);
		expect(unfollow.requests[1].headers.authorization).toMatch(/^OAuth /);
		expect(unfollow.output[0].json).toEqual({
			following: false,
			target_user_id: '12',
			user_id: '42',
		});
		expect(JSON.stringify(unfollow.output)).not.toContain(TEST_SECRETS.oauth2AccessToken);
	});

	it('refuses the app-only bearer before any request', async () => {
		const { error, requests } = await runFailing(
			{ resource: 'engagement', operation: 'repost', postId: rl('5') },
			undefined,
			{
				authentication: 'platformBearerApi',
			},
		);
		expect(error.message).toBe(
			'Repost a post needs OAuth2 (User Context), OAuth1 Keys (User Context) or OAuth1 Connect Account (User Context) authentication',
		);
		expect(requests).toHaveLength(0);
	});

	it.each([
		['bookmark', 'platformOAuth1Api'],
		['removeBookmark', 'platformOAuth1ConnectApi'],
		['bookmark', 'platformBearerApi'],
	])(
		'refuses %s with %s before any request: the service takes bookmarks only with OAuth 2.0',
		async (operation, authentication) => {
			const { error, requests } = await runFailing(
				{ resource: 'engagement', operation, postId: rl('5') },
				undefined,
				{ authentication },
			);
			expect(error.message).toMatch(/ needs OAuth2 \(User Context\) authentication$/);
			expect(requests).toHaveLength(0);
		},
	);
});
