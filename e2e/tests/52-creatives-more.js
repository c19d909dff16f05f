'use strict';
/**
 * Ads Creatives inside n8n, the card of any type and the draft's life: an image conversation card is
 * made, read back with Get Card by ID (cards/all/:card_id), and its card URI from that answer goes on a
 * draft post (created with the Name an older workflow may hold, which is not sent), which is then
 * updated and deleted.
 */
const { T, CRED, node, chain, workflow, webhookStart, credRef } = require('../lib/fixtures');

const SAMPLE_IMAGE_KEY = '3_1700000000000000001';
const AUTH = {
	authentication: 'platformOAuth1Api',
	accountId: { __rl: true, mode: 'id', value: "={{ $('Start').first().json.body.accountId }}" },
};
const creds = { credentials: credRef(CRED.oauth1) };
const cr = (name, params, x) =>
	node(name, T.creatives, 1, Object.assign({}, AUTH, params), [x, 0], creds);
const id = (expression) => ({ __rl: true, mode: 'id', value: `={{ ${expression} }}` });

const workflows = () => [
	workflow(
		'e2eCreativesMore1',
		'e2e creatives card by id and draft update',
		[
			webhookStart('e2e-creatives-more'),
			cr(
				'Create Image Card',
				{
					resource: 'imageConversationCard',
					operation: 'create',
					name: 'E2E image card',
					media_key: SAMPLE_IMAGE_KEY,
					first_cta: '#Red',
					first_cta_tweet: 'I pick red',
					thank_you_text: 'Thanks!',
					title: 'Which colour?',
					additionalFields: {},
				},
				200,
			),
			cr(
				'Get Card by ID',
				{ resource: 'card', operation: 'getById', anyCardId: id('$json.id') },
				400,
			),
			cr(
				'Create Draft',
				{
					resource: 'draftPost',
					operation: 'create',
					asUserId: "={{ $('Start').first().json.body.userId }}",
					text: 'First draft',
					// What a workflow saved before drafts stopped sending a name holds.
					additionalFields: { name: 'E2E draft name' },
				},
				600,
			),
			cr(
				'Update Draft',
				{
					resource: 'draftPost',
					operation: 'update',
					draftPostId: id('$json.id'),
					updateFields: {
						text: 'Second draft',
						card_uri: "={{ $('Get Card by ID').first().json.card_uri }}",
					},
				},
				800,
			),
			cr(
				'Delete Draft',
				{ resource: 'draftPost', operation: 'delete', draftPostId: id('$json.id') },
				1000,
			),
		],
		chain([
			'Start',
			'Create Image Card',
			'Get Card by ID',
			'Create Draft',
			'Update Draft',
			'Delete Draft',
		]),
		{ active: true },
	),
];

module.exports = [
	{
		name: 'creatives more: image conversation card read back by Get Card by ID, its URI on a draft post that is updated and deleted; a saved draft Name is not sent',
		needs: [
			'adsCreatives:imageConversationCard.create',
			'adsCreatives:card.getById',
			'adsCreatives:draftPost.create',
			'adsCreatives:draftPost.update',
			'adsCreatives:draftPost.delete',
		],
		modes: ['regular'],
		workflows,
		publish: () => workflows().map((w) => w.id),
		timeoutMs: 120000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			const accountId = sandbox.keys.adsAccountId;
			const since = ctx.seq();
			const [deleted] = await ctx.call('e2e-creatives-more', {
				accountId,
				userId: ctx.keys.userId,
			});
			const ads = sandbox.db.ads;
			const card = [...ads.icCards.values()].find((c) => c.name === 'E2E image card');
			assert.ok(card, 'the image conversation card exists');

			const rows = ctx.records(since).filter((r) => r.path.startsWith('/12/'));
			const byId = rows.find((r) => r.method === 'GET' && r.path.endsWith(`/cards/all/${card.id}`));
			assert.ok(byId && byId.status === 200, 'the card was read back by its ID from cards/all');
			assert.equal(byId.response.data.card_type, 'IMAGE_CONVERSATION');

			const create = rows.find((r) => r.method === 'POST' && r.path.endsWith('/draft_tweets'));
			assert.ok(create && create.status === 201, 'the draft was created');
			assert.equal(create.query.name, undefined, 'a saved Name is not sent with a draft');
			const update = rows.find((r) => r.method === 'PUT' && /\/draft_tweets\/\d+$/.test(r.path));
			assert.ok(update && update.status === 200, 'the draft was updated');
			assert.deepEqual(update.query, { text: 'Second draft', card_uri: card.card_uri });

			assert.ok(
				deleted && deleted.deleted === true && deleted.text === 'Second draft',
				`the updated draft is deleted: ${JSON.stringify(deleted).slice(0, 300)}`,
			);
			assert.equal(deleted.card_uri, card.card_uri, 'the draft carried the card got by ID');
			assert.equal(ads.drafts.has(deleted.id), false, 'the draft is gone');
			for (const r of rows)
				assert.ok(
					r.auth && r.auth.valid && r.auth.kind === 'oauth1',
					`#${r.seq} ${r.method} ${r.path}: ${JSON.stringify(r.auth)}`,
				);
		},
	},
];
