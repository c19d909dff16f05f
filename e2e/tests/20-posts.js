'use strict';
/** Platform Posts inside n8n: real requests to the sandbox with valid OAuth 1.0a signatures. */
const { T, CRED, node, chain, workflow, webhookStart, credRef } = require('../lib/fixtures');

module.exports = [
	{
		name: 'posts: User > Get Me with OAuth1 keys, OAuth2 and the OAuth1 connect credential',
		needs: ['platformPosts:user.getMe'],
		modes: ['regular', 'queue'],
		workflows: () => [
			workflow(
				'e2ePostsGetMe001',
				'e2e posts get me',
				[
					webhookStart('e2e-posts-getme'),
					node(
						'Get Me (OAuth1)',
						T.posts,
						1,
						{
							authentication: 'platformOAuth1Api',
							resource: 'user',
							operation: 'getMe',
							userFields: ['created_at', 'description'],
						},
						[250, 0],
						{ credentials: credRef(CRED.oauth1) },
					),
					node(
						'Get Me (OAuth2)',
						T.posts,
						1,
						{ authentication: 'platformOAuth2Api', resource: 'user', operation: 'getMe' },
						[500, 0],
						{ credentials: credRef(CRED.oauth2) },
					),
					node(
						'Get Me (Connect)',
						T.posts,
						1,
						{ authentication: 'platformOAuth1ConnectApi', resource: 'user', operation: 'getMe' },
						[750, 0],
						{ credentials: credRef(CRED.connect) },
					),
				],
				chain(['Start', 'Get Me (OAuth1)', 'Get Me (OAuth2)', 'Get Me (Connect)']),
				{ active: true },
			),
		],
		publish: () => ['e2ePostsGetMe001'],
		async run(ctx) {
			const { assert } = ctx;
			const since = ctx.seq();
			const items = await ctx.call('e2e-posts-getme');
			assert.equal(items.length, 1);
			assert.equal(items[0].id, ctx.keys.userId);
			assert.equal(items[0].username, ctx.keys.username);
			const rows = ctx.assertAllAuthValid(since);
			const me = rows.filter((r) => r.path === '/2/users/me');
			assert.equal(me.length, 3, `expected 3 GET /2/users/me, got ${me.length}`);
			assert.equal(me[0].auth.kind, 'oauth1');
			assert.equal(me[0].query['user.fields'], 'created_at,description');
			assert.equal(me[1].auth.kind, 'oauth2');
			assert.equal(me[2].auth.kind, 'oauth1');
		},
	},
];
