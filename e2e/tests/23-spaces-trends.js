'use strict';
/**
 * Platform Posts > Space, Trend, Community, Usage and Compliance inside n8n (one workflow per family),
 * each with the credential kinds the service takes for it: a Space read with the app-only bearer and
 * its ticket buyers with OAuth2; trends of a listed place with the bearer and the user's own with
 * OAuth1 keys; a Community and a search; the post usage; a compliance job created and read back by
 * expression, and the label stream read until one event came.
 */
const { T, CRED, node, chain, workflow, webhookStart, credRef } = require('../lib/fixtures');

const KIND = {
	platformBearerApi: CRED.bearer,
	platformOAuth2Api: CRED.oauth2,
	platformOAuth1Api: CRED.oauth1,
};
const step = (name, resource, authentication, params, x, extra = {}) =>
	node(
		name,
		T.posts,
		1.1,
		Object.assign({ authentication, resource }, params),
		[x, 0],
		Object.assign({ credentials: credRef(KIND[authentication]) }, extra),
	);
const flow = (id, path, nodes) =>
	workflow(
		id,
		`e2e ${path}`,
		[webhookStart(path), ...nodes],
		chain(['Start', ...nodes.map((n) => n.name)]),
		{ active: true },
	);
const rl = (value) => ({ __rl: true, mode: 'id', value });

const SPACE = '1DXxyRYNejbKM';

const WORKFLOWS = {
	spaces: () =>
		flow('e2eSpacesGet0001', 'e2e-spaces', [
			step(
				'Get Space',
				'space',
				'platformBearerApi',
				{ operation: 'get', spaceId: rl(SPACE), spaceExpansions: ['creator_id'] },
				250,
			),
			step(
				'Get Buyers',
				'space',
				'platformOAuth2Api',
				{ operation: 'getBuyers', spaceId: rl(SPACE), returnAll: true },
				500,
			),
		]),
	trends: () =>
		flow('e2eTrendsPlace01', 'e2e-trends', [
			step(
				'Trends New York',
				'trend',
				'platformBearerApi',
				{ operation: 'getByPlace', place: '2459115', maxTrends: 3 },
				250,
			),
			step(
				'Personalized',
				'trend',
				'platformOAuth1Api',
				{ operation: 'getPersonalized' },
				500,
				// One read, not one per New York trend.
				{ executeOnce: true },
			),
		]),
	communities: () =>
		flow('e2eCommunity0001', 'e2e-communities', [
			step(
				'Get Community',
				'community',
				'platformBearerApi',
				{ operation: 'get', communityId: rl('1600000000000000001') },
				250,
			),
			step(
				'Search Communities',
				'community',
				'platformOAuth2Api',
				{ operation: 'search', query: 'automation', returnAll: false, limit: 5 },
				500,
			),
		]),
	usage: () =>
		flow('e2eUsageGet00001', 'e2e-usage', [
			step('Get Usage', 'usage', 'platformBearerApi', { operation: 'get', days: 3 }, 250),
		]),
	compliance: () =>
		flow('e2eComplianc0001', 'e2e-compliance', [
			step(
				'Create Job',
				'compliance',
				'platformBearerApi',
				{ operation: 'createJob', jobType: 'tweets', jobName: 'E2E job' },
				250,
			),
			step(
				'Get Job',
				'compliance',
				'platformBearerApi',
				{
					operation: 'getJob',
					complianceJobId: "={{ $('Create Job').first().json.id }}",
					jobFields: ['name', 'status'],
				},
				500,
			),
			step(
				'Read Labels',
				'compliance',
				'platformBearerApi',
				{ operation: 'readLabelStream', backfillMinutes: 1, maxEvents: 1, maxSeconds: 30 },
				750,
			),
		]),
};

const test = (family, name, needs, run) => ({
	name: `${family}: ${name}`,
	needs: needs.map((n) => `platformPosts:${n}`),
	modes: ['regular'],
	workflows: () => [WORKFLOWS[family]()],
	publish: () => [WORKFLOWS[family]().id],
	timeoutMs: 90000,
	run,
});

module.exports = [
	test(
		'spaces',
		'a Space read with the app-only bearer, its ticket buyers with OAuth2',
		['space.get', 'space.getBuyers'],
		async (ctx) => {
			const { assert } = ctx;
			const since = ctx.seq();
			const out = await ctx.call('e2e-spaces', {});
			assert.deepEqual(
				out.map((u) => u.username),
				['other_person', 'ticket_holder', 'early_bird'],
			);
			const rows = ctx.assertAllAuthValid(since);
			const space = rows.find((r) => r.path === `/2/spaces/${SPACE}`);
			assert.equal(space.auth.kind, 'app');
			assert.equal(space.query.expansions, 'creator_id');
			assert.equal(space.status, 200);
			const buyers = rows.find((r) => r.path === `/2/spaces/${SPACE}/buyers`);
			assert.equal(buyers.auth.kind, 'oauth2');
			assert.equal(buyers.status, 200);
		},
	),
	test(
		'trends',
		"New York's trends with the app-only bearer, the user's own with OAuth1 keys",
		['trend.getByPlace', 'trend.getPersonalized'],
		async (ctx) => {
			const { assert } = ctx;
			const since = ctx.seq();
			const out = await ctx.call('e2e-trends', {});
			assert.deepEqual(
				out.map((t) => t.trend_name),
				['#n8n', 'Workflow Automation', 'Open Source'],
			);
			const rows = ctx.assertAllAuthValid(since);
			const place = rows.find((r) => r.path === '/2/trends/by/woeid/2459115');
			assert.equal(place.auth.kind, 'app');
			assert.equal(place.query.max_trends, '3');
			const mine = rows.filter((r) => r.path === '/2/users/personalized_trends');
			assert.equal(mine.length, 1, 'Execute Once: one read');
			assert.equal(mine[0].auth.kind, 'oauth1');
		},
	),
	test(
		'communities',
		'a Community read with the app-only bearer, a search with OAuth2 (10 per page at least)',
		['community.get', 'community.search'],
		async (ctx) => {
			const { assert } = ctx;
			const since = ctx.seq();
			const out = await ctx.call('e2e-communities', {});
			assert.equal(out.length, 5);
			assert.ok(out.every((c) => /Automation Circle/.test(c.name)));
			const rows = ctx.assertAllAuthValid(since);
			assert.equal(rows.find((r) => r.path === '/2/communities/1600000000000000001').status, 200);
			const search = rows.find((r) => r.path === '/2/communities/search');
			assert.equal(search.auth.kind, 'oauth2');
			assert.equal(search.query.max_results, '10');
		},
	),
	test('usage', 'the post usage of the last 3 days', ['usage.get'], async (ctx) => {
		const { assert } = ctx;
		const since = ctx.seq();
		const out = await ctx.call('e2e-usage', {});
		assert.equal(out.length, 1);
		assert.equal(out[0].project_cap, 10000);
		assert.equal(typeof out[0].project_usage, 'number');
		const rows = ctx.assertAllAuthValid(since);
		assert.equal(rows[0].path, '/2/usage/tweets');
		assert.equal(rows[0].query.days, '3');
	}),
	test(
		'compliance',
		'a job created and read back by expression, the label stream read until one event came',
		['compliance.createJob', 'compliance.getJob', 'compliance.readLabelStream'],
		async (ctx) => {
			const { assert, sandbox } = ctx;
			sandbox.addLabelEvent({ post_id: '1790000000000000777', kind: 'notice' });
			const since = ctx.seq();
			const started = Date.now();
			const out = await ctx.call('e2e-compliance', {});
			assert.equal(out.length, 1);
			assert.equal(out[0].label_kind, 'public_tweet_notice');
			assert.deepEqual(out[0].tweet, { id: '1790000000000000777', author_id: '1000000002' });
			assert.ok(Date.now() - started < 25000, 'stopped at Max Events, not Max Duration');
			const rows = ctx.assertAllAuthValid(since);
			const created = rows.find((r) => r.method === 'POST' && r.path === '/2/compliance/jobs');
			assert.deepEqual(created.body, { type: 'tweets', name: 'E2E job' });
			const jobId = created.response.data.id;
			const read = rows.find((r) => r.path === `/2/compliance/jobs/${jobId}`);
			assert.equal(read.status, 200);
			assert.equal(read.response.data.name, 'E2E job');
			// The label stream's request is recorded by the sandbox only once its connection has
			// closed, which in n8n happened only after the run had ended (not yet explained):
			// its credential kind and query are held against the contract by the conformance test.
		},
	),
];
