'use strict';
/**
 * Platform Posts > List inside n8n, a list's life: created with OAuth2, a member added by handle with
 * OAuth1 keys, its members read with the app-only bearer, its posts read (the member's post, author
 * beside it), then deleted; the list id passed from node to node by expressions.
 */
const { T, CRED, node, chain, workflow, webhookStart, credRef } = require('../lib/fixtures');

const LIST_NAME = 'E2E list';
const OTHER = '1000000002';
const fromCreate = { __rl: true, mode: 'id', value: "={{ $('Create List').first().json.id }}" };
const ls = (name, authentication, cred, params, x, extra = {}) =>
	node(
		name,
		T.posts,
		1.1,
		Object.assign({ authentication, resource: 'list' }, params),
		[x, 0],
		Object.assign({ credentials: credRef(cred) }, extra),
	);

const workflows = () => [
	workflow(
		'e2eListsLife0001',
		'e2e lists create, member, read, delete',
		[
			webhookStart('e2e-lists-life'),
			ls(
				'Create List',
				'platformOAuth2Api',
				CRED.oauth2,
				{ operation: 'create', name: LIST_NAME, description: 'Made by the e2e suite' },
				200,
			),
			ls(
				'Add Member',
				'platformOAuth1Api',
				CRED.oauth1,
				{
					operation: 'addMember',
					listId: fromCreate,
					user: { __rl: true, mode: 'username', value: 'other_person' },
				},
				400,
			),
			ls(
				'Get Members',
				'platformBearerApi',
				CRED.bearer,
				{ operation: 'getMembers', listId: fromCreate, userFields: ['verified'] },
				600,
			),
			ls(
				'Get Posts',
				'platformOAuth2Api',
				CRED.oauth2,
				{
					operation: 'getPosts',
					listId: fromCreate,
					limit: 5,
					tweetFields: ['author_id'],
					expansions: ['author_id'],
				},
				800,
			),
			ls(
				'Delete List',
				'platformOAuth2Api',
				CRED.oauth2,
				{ operation: 'delete', listId: fromCreate },
				1000,
				// Get Posts gives one item per post: the list is deleted once.
				{ executeOnce: true },
			),
		],
		chain(['Start', 'Create List', 'Add Member', 'Get Members', 'Get Posts', 'Delete List']),
		{ active: true },
	),
];

module.exports = [
	{
		name: 'lists: a list created, a member added by handle, its members and posts read, then deleted',
		needs: [
			'platformPosts:list.create',
			'platformPosts:list.addMember',
			'platformPosts:list.getMembers',
			'platformPosts:list.getPosts',
			'platformPosts:list.delete',
		],
		modes: ['regular'],
		workflows,
		publish: () => workflows().map((w) => w.id),
		timeoutMs: 120000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			const post = sandbox.publishPost({ text: 'A post of the list member', author_id: OTHER });
			const since = ctx.seq();
			const out = await ctx.call('e2e-lists-life', {});
			assert.equal(out.length, 1, 'Delete List ran once');
			const listId = String(out[0].id);
			assert.ok(/^\d{1,19}$/.test(listId), `a list id: ${JSON.stringify(out[0])}`);
			assert.equal(out[0].deleted, true);
			assert.equal(sandbox.db.lists.has(listId), false, 'the list is gone');

			const rows = ctx.records(since, '/2/lists');
			const created = rows.find((r) => r.method === 'POST' && r.path === '/2/lists');
			assert.ok(created && created.status === 200, 'the list was created');
			assert.equal(created.auth.kind, 'oauth2');
			assert.deepEqual(created.body, {
				name: LIST_NAME,
				description: 'Made by the e2e suite',
				private: false,
			});
			const added = rows.find(
				(r) => r.method === 'POST' && r.path === `/2/lists/${listId}/members`,
			);
			assert.ok(added && added.status === 200, 'the member was added');
			assert.equal(added.auth.kind, 'oauth1');
			assert.deepEqual(added.body, { user_id: OTHER });
			const members = rows.find(
				(r) => r.method === 'GET' && r.path === `/2/lists/${listId}/members`,
			);
			assert.ok(members && members.status === 200, 'the members were read');
			assert.equal(members.auth.kind, 'app');
			assert.deepEqual(
				members.response.data.map((u) => [u.id, u.username, u.verified]),
				[[OTHER, 'other_person', true]],
			);
			const posts = rows.find((r) => r.method === 'GET' && r.path === `/2/lists/${listId}/tweets`);
			assert.ok(posts && posts.status === 200, 'the posts were read');
			assert.equal(posts.query.max_results, '5');
			assert.equal(posts.response.data[0].id, post.id, 'the member post comes first');
			assert.equal(posts.response.includes.users[0].id, OTHER, 'its author beside it');
			const deletes = rows.filter((r) => r.method === 'DELETE' && r.path === `/2/lists/${listId}`);
			assert.equal(deletes.length, 1);
			assert.equal(deletes[0].status, 200, 'the list was deleted');
			ctx.assertAllAuthValid(since);
		},
	},
];
