'use strict';
/**
 * Platform Posts' posts and users families inside n8n: a post of another account liked with OAuth2,
 * its liking users read with OAuth1 keys, the account muted and the home timeline read without its
 * posts, insights of two own posts (each id its own query parameter, as n8n must send them), then
 * the account unmuted.
 */
const { T, CRED, node, chain, workflow, webhookStart, credRef } = require('../lib/fixtures');

const OTHER = '1000000002';
const byId = (value) => ({ __rl: true, mode: 'id', value });
const step = (name, authentication, cred, params, x) =>
	node(
		name,
		T.posts,
		1.1,
		Object.assign({ authentication }, params),
		[x, 0],
		// Each step acts once, whatever the number of items the one before gave.
		{ credentials: credRef(cred), executeOnce: true },
	);

const workflows = () => [
	workflow(
		'e2ePostsUsers001',
		'e2e posts and users: like, liking users, mute, home timeline, insights',
		[
			webhookStart('e2e-posts-users'),
			step(
				'Like',
				'platformOAuth2Api',
				CRED.oauth2,
				{
					resource: 'engagement',
					operation: 'like',
					postId: byId("={{ $('Start').first().json.body.theirs }}"),
				},
				200,
			),
			step(
				'Get Liking Users',
				'platformOAuth1Api',
				CRED.oauth1,
				{
					resource: 'post',
					operation: 'getLikingUsers',
					postId: byId("={{ $('Start').first().json.body.theirs }}"),
					userFields: ['created_at'],
				},
				400,
			),
			step(
				'Mute',
				'platformOAuth2Api',
				CRED.oauth2,
				{ resource: 'engagement', operation: 'mute', targetUser: byId(OTHER) },
				600,
			),
			step(
				'Get Home Timeline',
				'platformOAuth1ConnectApi',
				CRED.connect,
				{ resource: 'user', operation: 'getHomeTimeline', limit: 20 },
				800,
			),
			step(
				'Get Insights',
				'platformOAuth2Api',
				CRED.oauth2,
				{
					resource: 'post',
					operation: 'getInsights',
					postIds: "={{ $('Start').first().json.body.mine.join(',') }}",
					requestedMetrics: ['Impressions', 'Likes'],
				},
				1000,
			),
			step(
				'Unmute',
				'platformOAuth1Api',
				CRED.oauth1,
				{ resource: 'engagement', operation: 'unmute', targetUser: byId(OTHER) },
				1200,
			),
		],
		chain([
			'Start',
			'Like',
			'Get Liking Users',
			'Mute',
			'Get Home Timeline',
			'Get Insights',
			'Unmute',
		]),
		{ active: true },
	),
];

module.exports = [
	{
		name: 'posts-users: a like read back, a mute hiding an account from the home timeline, insights of two posts',
		needs: [
			'platformPosts:engagement.like',
			'platformPosts:post.getLikingUsers',
			'platformPosts:engagement.mute',
			'platformPosts:user.getHomeTimeline',
			'platformPosts:post.getInsights',
			'platformPosts:engagement.unmute',
		],
		modes: ['regular'],
		workflows,
		publish: () => workflows().map((w) => w.id),
		timeoutMs: 120000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			const me = ctx.keys.userId;
			const theirs = String(
				sandbox.publishPost({ text: 'e2e: a post to like', author_id: OTHER }).id,
			);
			const mine = [
				String(sandbox.publishPost({ text: 'e2e: my first measured post' }).id),
				String(sandbox.publishPost({ text: 'e2e: my second measured post' }).id),
			];
			const since = ctx.seq();
			const out = await ctx.call('e2e-posts-users', { theirs, mine });
			assert.deepEqual(out, [{ muting: false, target_user_id: OTHER, user_id: me }]);

			const rows = ctx.records(since, '/2/');
			const find = (method, path) => rows.filter((r) => r.method === method && r.path === path);
			const liking = find('GET', `/2/tweets/${theirs}/liking_users`);
			assert.equal(liking.length, 1);
			assert.equal(liking[0].status, 200);
			assert.equal(liking[0].auth.kind, 'oauth1');
			assert.deepEqual(
				liking[0].response.data.map((u) => u.id),
				[me],
				'the like made one step before is read back',
			);
			const muted = find('POST', `/2/users/${me}/muting`);
			assert.equal(muted.length, 1);
			assert.deepEqual(muted[0].body, { target_user_id: OTHER });
			const home = find('GET', `/2/users/${me}/timelines/reverse_chronological`);
			assert.equal(home.length, 1);
			assert.equal(home[0].status, 200);
			assert.equal(home[0].query.max_results, '20');
			const authors = new Set(
				(home[0].response.data || []).map((p) => sandbox.db.tweets.get(p.id).author_id),
			);
			assert.ok(!authors.has(OTHER), 'the muted account is not in the home timeline');
			assert.ok(
				home[0].response.data.some((p) => p.id === mine[1]),
				'my own posts are in the home timeline',
			);
			// n8n sends an array query value once per value only when told to: the contract check
			// would refuse tweet_ids[]=… with 400.
			const insights = find('GET', '/2/insights/28hr');
			assert.equal(insights.length, 1);
			assert.equal(insights[0].status, 200, JSON.stringify(insights[0].response));
			assert.deepEqual(
				insights[0].response.data[0].measurement.metrics_total.map((t) => t.tweet_id),
				mine,
			);
			const unmuted = find('DELETE', `/2/users/${me}/muting/${OTHER}`);
			assert.equal(unmuted.length, 1);
			assert.equal(unmuted[0].status, 200);
			ctx.assertAllAuthValid(since);
		},
	},
];
