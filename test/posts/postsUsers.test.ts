/**
 * The posts and users families of the contract against the local sandbox (its contract check on),
 * whose answers are stateful: a like, a repost, a mute or a bookmark one operation makes is what the
 * next one reads.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the sandbox is plain CommonJS */
/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- credential type names in test parameters, not secrets */
import type { IDataObject } from 'n8n-workflow';

import { createContext, defaultCredentials, TEST_SECRETS } from '../helpers/context';
import { node, rl } from './helpers';

const { createSandbox } = require('../../sandbox/server');

type Sandbox = {
	url: string;
	close(): Promise<void>;
	publishPost(input: IDataObject): IDataObject;
	onEngagement(field: string, value: boolean, userId: string, postId: string): void;
	db: { tweets: Map<string, IDataObject> };
};

/** Platform Posts 1.1 against the sandbox; the error, when it fails, instead of the output. */
async function runOn(
	sandbox: Sandbox,
	parameters: IDataObject,
	options: { authentication?: string } = {},
) {
	const credentials = defaultCredentials();
	for (const c of Object.values(credentials)) {
		c.baseUrl = sandbox.url;
		if ('adsBaseUrl' in c) c.adsBaseUrl = sandbox.url;
	}
	const built = createContext({
		parameters: { authentication: options.authentication ?? 'platformOAuth2Api', ...parameters },
		typeVersion: 1.1,
		credentials,
	});
	try {
		const output = await node.execute.call(built.context);
		return { output: output[0], requests: built.requests, error: undefined };
	} catch (error) {
		return { output: [], requests: built.requests, error: error as Error };
	}
}

let sb: Sandbox;
const ME = '1000000001';
const OTHER = '1000000002';

beforeAll(async () => {
	// The sandbox takes the test credentials' keys, so every credential kind signs as it would.
	sb = await createSandbox({
		quiet: true,
		keys: {
			consumerKey: 'ck',
			consumerSecret: TEST_SECRETS.consumerSecret,
			accessToken: TEST_SECRETS.accessToken,
			accessTokenSecret: TEST_SECRETS.accessTokenSecret,
			bearerToken: TEST_SECRETS.bearerToken,
			oauth2UserToken: TEST_SECRETS.oauth2AccessToken,
		},
	}).listen(0);
});
afterAll(async () => await sb.close());

const json = (output: Array<{ json: IDataObject }>) => output.map((o) => o.json);
const publish = (text: string, authorId = ME) =>
	String(sb.publishPost({ text, author_id: authorId }).id);

describe('Post: who liked and reposted, reposts and quotes', () => {
	it('lists the users who liked a post, and no longer one who unliked it', async () => {
		const post = publish('A post to like');
		const like = await runOn(sb, { resource: 'engagement', operation: 'like', postId: rl(post) });
		expect(like.error).toBeUndefined();
		const liked = await runOn(sb, {
			resource: 'post',
			operation: 'getLikingUsers',
			postId: rl(post),
			userFields: ['verified'],
		});
		expect(liked.error).toBeUndefined();
		expect(json(liked.output)).toEqual([
			{ id: ME, name: 'Sandbox User', username: 'sandbox_user', verified: false },
		]);
		await runOn(sb, { resource: 'engagement', operation: 'unlike', postId: rl(post) });
		const after = await runOn(sb, {
			resource: 'post',
			operation: 'getLikingUsers',
			postId: rl(post),
		});
		expect(after.error).toBeUndefined();
		expect(after.output).toEqual([]);
	});

	it('refuses the App-Only Bearer for Get Liking Users before any request, naming the kinds it needs', async () => {
		const { error, requests } = await runOn(
			sb,
			{ resource: 'post', operation: 'getLikingUsers', postId: rl('1') },
			{ authentication: 'platformBearerApi' },
		);
		expect(requests).toHaveLength(0);
		expect(error?.message).toBe(
			'Get users who liked a post needs OAuth2 (User Context), OAuth1 Keys (User Context) or OAuth1 Connect Account (User Context) authentication',
		);
	});

	it('lists who reposted a post and its reposts (each a post referencing it), with the app token too', async () => {
		const post = publish('A post to repost');
		expect(
			(await runOn(sb, { resource: 'engagement', operation: 'repost', postId: rl(post) })).error,
		).toBeUndefined();
		sb.onEngagement('retweeted', true, OTHER, post);
		const by = await runOn(
			sb,
			{ resource: 'post', operation: 'getRepostedBy', postId: rl(post) },
			{ authentication: 'platformBearerApi' },
		);
		expect(by.error).toBeUndefined();
		expect(json(by.output).map((u) => u.username)).toEqual(['sandbox_user', 'other_person']);
		const reposts = await runOn(sb, {
			resource: 'post',
			operation: 'getReposts',
			postId: rl(post),
			tweetFields: ['author_id', 'referenced_tweets'],
			expansions: ['author_id'],
		});
		expect(reposts.error).toBeUndefined();
		const items = json(reposts.output);
		expect(items).toHaveLength(2);
		for (const item of items) {
			expect(item.referenced_tweets).toEqual([{ type: 'retweeted', id: post }]);
			expect((item.author as IDataObject).id).toBe(item.author_id);
		}
		expect(items.map((i) => i.author_id).sort()).toEqual([ME, OTHER]);
		// The original's counts follow.
		expect((sb.db.tweets.get(post)!.public_metrics as IDataObject).retweet_count).toBe(2);
	});

	it('asks for quote posts at least 10 at a time (the service minimum) and returns only up to Limit', async () => {
		const post = publish('A post to quote');
		for (let i = 0; i < 12; i++) {
			const id = publish(`Quote number ${i}`, i % 2 ? OTHER : ME);
			sb.db.tweets.get(id)!.referenced_tweets = [{ type: 'quoted', id: post }];
		}
		const few = await runOn(sb, {
			resource: 'post',
			operation: 'getQuotePosts',
			postId: rl(post),
			limit: 3,
		});
		expect(few.error).toBeUndefined();
		expect(json(few.output).map((p) => p.text)).toEqual([
			'Quote number 11',
			'Quote number 10',
			'Quote number 9',
		]);
		expect(new URL(few.requests[0].url).searchParams.get('max_results')).toBe('10');
		const all = await runOn(sb, {
			resource: 'post',
			operation: 'getQuotePosts',
			postId: rl(post),
			returnAll: true,
		});
		expect(all.output).toHaveLength(12);
		expect(new URL(all.requests[0].url).searchParams.get('max_results')).toBe('100');
	});

	it('Get One returns one post as Get does for the same id, its author beside it', async () => {
		const post = publish('One post to look up');
		const fields = { tweetFields: ['author_id', 'created_at'], expansions: ['author_id'] };
		const one = await runOn(sb, {
			resource: 'post',
			operation: 'getOne',
			postId: rl(`https://x.com/sandbox_user/status/${post}`, 'url'),
			...fields,
		});
		const many = await runOn(sb, { resource: 'post', operation: 'get', postIds: post, ...fields });
		expect(one.error).toBeUndefined();
		expect(new URL(one.requests[0].url).pathname).toBe(`/2/tweets/${post}`);
		expect(json(one.output)).toEqual(json(many.output));
		expect((json(one.output)[0].author as IDataObject).username).toBe('sandbox_user');
	});
});

describe('Post: hiding replies', () => {
	it('hides and unhides a reply in a conversation the user started, and refuses a post that is not a reply', async () => {
		const root = publish('A conversation');
		const created = await runOn(sb, {
			resource: 'post',
			operation: 'create',
			text: 'A reply to hide',
			additionalFields: { replyTo: rl(root) },
		});
		expect(created.error).toBeUndefined();
		const reply = String(json(created.output)[0].id);
		const hidden = await runOn(sb, {
			resource: 'post',
			operation: 'hideReply',
			postId: rl(reply),
		});
		expect(hidden.error).toBeUndefined();
		expect(json(hidden.output)).toEqual([{ hidden: true, post_id: reply }]);
		expect(sb.db.tweets.get(reply)!.hidden).toBe(true);
		const shown = await runOn(
			sb,
			{ resource: 'post', operation: 'unhideReply', postId: rl(reply) },
			{ authentication: 'platformOAuth1Api' },
		);
		expect(json(shown.output)).toEqual([{ hidden: false, post_id: reply }]);
		expect(sb.db.tweets.get(reply)!.hidden).toBe(false);
		const refused = await runOn(sb, { resource: 'post', operation: 'hideReply', postId: rl(root) });
		expect(refused.error?.message).toContain('Only replies can be hidden');
	});
});

describe('Post: analytics and insights', () => {
	const window = () => ({
		startTime: new Date(Date.now() - 3_600_000).toISOString(),
		endTime: new Date(Date.now() + 60_000).toISOString(),
	});

	it("measures the user's own post (a like counts) and reports another's as an item with an error", async () => {
		const mine = publish('Measure me');
		const theirs = publish('Not mine to measure', OTHER);
		await runOn(sb, { resource: 'engagement', operation: 'like', postId: rl(mine) });
		const { output, error, requests } = await runOn(sb, {
			resource: 'post',
			operation: 'getAnalytics',
			postIds: `${mine}, ${theirs}`,
			...window(),
			analyticsFields: ['likes', 'replies'],
		});
		expect(error).toBeUndefined();
		const query = new URL(requests[0].url).searchParams;
		expect(query.get('ids')).toBe(`${mine},${theirs}`);
		expect(query.get('granularity')).toBe('total');
		const items = json(output);
		expect(items[0]).toEqual({
			id: mine,
			timestamped_metrics: [{ timestamp: expect.any(String), metrics: { likes: 1, replies: 0 } }],
		});
		expect(items[1]).toMatchObject({ id: theirs, error: expect.stringContaining('your own') });
	});

	it('refuses more than 100 posts, and a window that ends before it starts, before any request', async () => {
		const ids = Array.from({ length: 101 }, (_, i) => String(1000 + i)).join(',');
		const tooMany = await runOn(sb, {
			resource: 'post',
			operation: 'getAnalytics',
			postIds: ids,
			...window(),
		});
		expect(tooMany.requests).toHaveLength(0);
		expect(tooMany.error?.message).toBe(
			'Invalid input in item 1: Post IDs or URLs: 101 posts, at most 100 are measured at once',
		);
		const backwards = await runOn(sb, {
			resource: 'post',
			operation: 'getAnalytics',
			postIds: '1',
			startTime: '2026-01-02T00:00:00Z',
			endTime: '2026-01-01T00:00:00Z',
		});
		expect(backwards.requests).toHaveLength(0);
		expect(backwards.error?.message).toBe(
			'Invalid input in item 1: Start Time must be before End Time',
		);
	});

	it('sends each post and metric of Get Insights as its own query parameter, over 28 hours or a past window', async () => {
		const a = publish('Insight one');
		const b = publish('Insight two');
		const last = await runOn(sb, {
			resource: 'post',
			operation: 'getInsights',
			postIds: `${a} ${b}`,
			requestedMetrics: ['Impressions', 'Likes'],
		});
		expect(last.error).toBeUndefined();
		const url = new URL(last.requests[0].url);
		expect(url.pathname).toBe('/2/insights/28hr');
		expect(url.searchParams.getAll('tweet_ids')).toEqual([a, b]);
		expect(url.searchParams.getAll('requested_metrics')).toEqual(['Impressions', 'Likes']);
		const totals = (json(last.output)[0].measurement as IDataObject).metrics_total as IDataObject[];
		expect(totals.map((t) => t.tweet_id)).toEqual([a, b]);
		const past = await runOn(sb, {
			resource: 'post',
			operation: 'getInsights',
			period: 'historical',
			postIds: a,
			granularity: 'Hourly',
			...window(),
		});
		expect(past.error).toBeUndefined();
		expect(new URL(past.requests[0].url).pathname).toBe('/2/insights/historical');
		const series = (json(past.output)[0].measurement as IDataObject)
			.metrics_time_series as IDataObject[];
		expect(series.length).toBeGreaterThanOrEqual(2);
	});

	it('refuses more than 25 posts for Get Insights before any request', async () => {
		const ids = Array.from({ length: 26 }, (_, i) => String(2000 + i)).join(',');
		const { error, requests } = await runOn(sb, {
			resource: 'post',
			operation: 'getInsights',
			postIds: ids,
		});
		expect(requests).toHaveLength(0);
		expect(error?.message).toBe(
			'Invalid input in item 1: Post IDs or URLs: 26 posts, at most 25 are measured at once',
		);
	});
});

describe('User: search, affiliates, reposts of me, home timeline, bookmark folders', () => {
	it('finds users by name and refuses a query the service does not take, naming the field', async () => {
		const found = await runOn(sb, { resource: 'user', operation: 'search', query: 'other' });
		expect(found.error).toBeUndefined();
		expect(json(found.output).map((u) => u.id)).toEqual([OTHER]);
		const refused = await runOn(sb, { resource: 'user', operation: 'search', query: 'n8n!' });
		expect(refused.requests).toHaveLength(0);
		expect(refused.error?.message).toBe(
			"Invalid input in item 1: Query: only letters, digits, spaces, _ and ' are allowed",
		);
	});

	it("lists a user's affiliates looked up by handle, the affiliation's user beside each", async () => {
		const { output, error, requests } = await runOn(
			sb,
			{
				resource: 'user',
				operation: 'getAffiliates',
				user: rl('sandbox_user', 'username'),
				expansions: ['affiliation.user_id'],
			},
			{ authentication: 'platformBearerApi' },
		);
		expect(error).toBeUndefined();
		expect(requests.map((r) => new URL(r.url).pathname)).toEqual([
			'/2/users/by/username/sandbox_user',
			`/2/users/${ME}/affiliates`,
		]);
		expect(json(output)).toEqual([
			{
				id: OTHER,
				name: 'Other Person',
				username: 'other_person',
				affiliation: { user_id: [ME] },
				affiliation_users: [{ id: ME, name: 'Sandbox User', username: 'sandbox_user' }],
			},
		]);
	});

	it("lists reposts of the user's posts, not of others'", async () => {
		const mine = publish('Mine, reposted by someone');
		const theirs = publish('Theirs, reposted by someone', OTHER);
		sb.onEngagement('retweeted', true, OTHER, mine);
		sb.onEngagement('retweeted', true, ME, theirs);
		const { output, error } = await runOn(sb, {
			resource: 'user',
			operation: 'getRepostsOfMe',
			tweetFields: ['referenced_tweets'],
		});
		expect(error).toBeUndefined();
		const refs = json(output).map((p) => (p.referenced_tweets as IDataObject[])[0].id);
		expect(refs).toContain(mine);
		expect(refs).not.toContain(theirs);
	});

	it('drops a muted account from the home timeline and lists it under Muting until unmuted', async () => {
		const theirs = publish('A post by the other account', OTHER);
		const home = async () =>
			json(
				(
					await runOn(sb, {
						resource: 'user',
						operation: 'getHomeTimeline',
						returnAll: true,
					})
				).output,
			).map((p) => p.id);
		expect(await home()).toContain(theirs);
		const muted = await runOn(sb, {
			resource: 'engagement',
			operation: 'mute',
			targetUser: rl(OTHER),
		});
		expect(json(muted.output)).toEqual([{ muting: true, target_user_id: OTHER, user_id: ME }]);
		expect(await home()).not.toContain(theirs);
		const muting = await runOn(sb, {
			resource: 'user',
			operation: 'getTimeline',
			timeline: 'muting',
		});
		expect(json(muting.output).map((u) => u.id)).toEqual([OTHER]);
		const unmuted = await runOn(sb, {
			resource: 'engagement',
			operation: 'unmute',
			targetUser: rl(OTHER),
		});
		expect(json(unmuted.output)).toEqual([{ muting: false, target_user_id: OTHER, user_id: ME }]);
		expect(await home()).toContain(theirs);
	});

	it('sends the home timeline window and Exclude options as the service names them', async () => {
		const { error, requests } = await runOn(sb, {
			resource: 'user',
			operation: 'getHomeTimeline',
			limit: 5,
			options: { startTime: '2026-01-01T00:00:00Z', exclude: ['replies'] },
		});
		expect(error).toBeUndefined();
		const query = new URL(requests[1].url).searchParams;
		expect(new URL(requests[1].url).pathname).toBe(
			`/2/users/${ME}/timelines/reverse_chronological`,
		);
		expect(query.get('start_time')).toBe('2026-01-01T00:00:00Z');
		expect(query.get('exclude')).toBe('replies');
		expect(query.get('max_results')).toBe('5');
	});

	it('lists the bookmark folders and the posts bookmarked into one, with the OAuth2 credential only', async () => {
		const folders = await runOn(sb, { resource: 'user', operation: 'getBookmarkFolders' });
		expect(json(folders.output)).toEqual([
			{ id: '1800000000000000001', name: 'Reading list' },
			{ id: '1800000000000000002', name: 'Recipes' },
		]);
		const post = publish('Worth keeping');
		await runOn(sb, { resource: 'engagement', operation: 'bookmark', postId: rl(post) });
		const inFolder = await runOn(sb, {
			resource: 'user',
			operation: 'getBookmarksInFolder',
			folderId: '1800000000000000001',
		});
		expect(json(inFolder.output)).toContainEqual({ id: post, folder_id: '1800000000000000001' });
		const oauth1 = await runOn(
			sb,
			{ resource: 'user', operation: 'getBookmarkFolders' },
			{ authentication: 'platformOAuth1Api' },
		);
		expect(oauth1.requests).toHaveLength(0);
		expect(oauth1.error?.message).toBe(
			"Get the authenticated user's bookmark folders needs OAuth2 (User Context) authentication",
		);
		const badFolder = await runOn(sb, {
			resource: 'user',
			operation: 'getBookmarksInFolder',
			folderId: 'reading',
		});
		expect(badFolder.requests).toHaveLength(0);
		expect(badFolder.error?.message).toBe(
			'Invalid input in item 1: Folder ID: a folder ID is 1-19 digits',
		);
	});
});
