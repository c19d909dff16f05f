'use strict';
/**
 * Ads Creatives inside n8n: one workflow chains a poll card, a video conversation card, a draft post
 * carrying the poll, a post through the ad account carrying the video card, its rename, a preroll
 * call-to-action, a lookup of both cards by URI and the hard delete of the poll. A second workflow
 * proves that bad input (a 4-minute poll) fails before any request, with the field named.
 */
const { T, CRED, node, chain, workflow, webhookStart, credRef } = require('../lib/fixtures');

const SAMPLE_IMAGE_KEY = '3_1700000000000000001';
const SAMPLE_VIDEO_KEY = '13_1700000000000000002';
const AUTH = {
	authentication: 'platformOAuth1Api',
	accountId: { __rl: true, mode: 'list', value: "={{ $('Start').first().json.body.accountId }}" },
};
const creds = { credentials: credRef(CRED.oauth1) };
const body = (field) => `={{ $('Start').first().json.body.${field} }}`;
const cr = (name, params, x) =>
	node(name, T.creatives, 1, Object.assign({}, AUTH, params), [x, 0], creds);

const workflows = () => [
	workflow(
		'e2eCreativesFlow1',
		'e2e creatives flow',
		[
			webhookStart('e2e-creatives-flow'),
			cr(
				'Create Poll',
				{
					resource: 'pollCard',
					operation: 'create',
					name: 'E2E poll',
					durationInMinutes: 60,
					firstChoice: 'Red',
					secondChoice: 'Blue',
					thirdChoice: 'Green',
				},
				200,
			),
			cr(
				'Create Video Card',
				{
					resource: 'videoConversationCard',
					operation: 'create',
					name: 'E2E video card',
					media_key: SAMPLE_VIDEO_KEY,
					first_cta: '#Yes',
					first_cta_tweet: 'Yes please',
					thank_you_text: 'Thanks!',
					title: 'Like it?',
					additionalFields: {},
				},
				400,
			),
			cr(
				'Create Draft',
				{
					resource: 'draftPost',
					operation: 'create',
					asUserId: body('userId'),
					text: 'Vote now',
					additionalFields: {
						card_uri: "={{ $('Create Poll').first().json.card_uri }}",
						media_keys: SAMPLE_IMAGE_KEY,
					},
				},
				600,
			),
			cr(
				'Post As Account',
				{
					resource: 'adPost',
					operation: 'create',
					asUserId: body('userId'),
					text: 'Watch and answer',
					additionalFields: {
						card_uri: "={{ $('Create Video Card').first().json.card_uri }}",
						trim_user: true,
					},
				},
				800,
			),
			cr(
				'Rename Post',
				{
					resource: 'adPost',
					operation: 'rename',
					postId: { __rl: true, mode: 'id', value: '={{ $json.id_str }}' },
					name: 'E2E promoted post',
				},
				1000,
			),
			cr(
				'Create Preroll CTA',
				{
					resource: 'prerollCta',
					operation: 'create',
					lineItemId: 'e2eli1',
					call_to_action: 'WATCH_NOW',
					call_to_action_url: 'https://shop.example/watch',
				},
				1200,
			),
			cr(
				'Cards By URI',
				{
					resource: 'card',
					operation: 'getByUris',
					cardUris:
						"={{ $('Create Poll').first().json.card_uri + ',' + $('Create Video Card').first().json.card_uri }}",
				},
				1400,
			),
			node('One Item', 'n8n-nodes-base.limit', 1, { maxItems: 1 }, [1600, 0]),
			cr(
				'Delete Poll',
				{
					resource: 'pollCard',
					operation: 'delete',
					pollCardId: { __rl: true, mode: 'id', value: "={{ $('Create Poll').first().json.id }}" },
				},
				1800,
			),
		],
		chain([
			'Start',
			'Create Poll',
			'Create Video Card',
			'Create Draft',
			'Post As Account',
			'Rename Post',
			'Create Preroll CTA',
			'Cards By URI',
			'One Item',
			'Delete Poll',
		]),
		{ active: true },
	),
	workflow(
		'e2eCreativesBad01',
		'e2e creatives bad input',
		[
			webhookStart('e2e-creatives-bad'),
			node(
				'Create Poll',
				T.creatives,
				1,
				Object.assign({}, AUTH, {
					resource: 'pollCard',
					operation: 'create',
					name: 'Too short',
					durationInMinutes: body('minutes'),
					firstChoice: 'A',
					secondChoice: 'B',
				}),
				[250, 0],
				Object.assign({ onError: 'continueRegularOutput' }, creds),
			),
		],
		chain(['Start', 'Create Poll']),
		{ active: true },
	),
];

module.exports = [
	{
		name: 'creatives: poll and video cards, draft with the poll, post as the account with the video card, rename, preroll CTA, cards by URI, hard delete; bad input refused before any request',
		needs: [
			'adsCreatives:pollCard.create',
			'adsCreatives:videoConversationCard.create',
			'adsCreatives:draftPost.create',
			'adsCreatives:adPost.create',
			'adsCreatives:adPost.rename',
			'adsCreatives:prerollCta.create',
			'adsCreatives:card.getByUris',
			'adsCreatives:pollCard.delete',
		],
		modes: ['regular'],
		workflows,
		publish: () => workflows().map((w) => w.id),
		timeoutMs: 180000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			const accountId = sandbox.keys.adsAccountId;
			const since = ctx.seq();
			const [deleted] = await ctx.call('e2e-creatives-flow', {
				accountId,
				userId: ctx.keys.userId,
			});
			assert.ok(
				deleted && deleted.deleted === true,
				`the poll card is hard-deleted: ${JSON.stringify(deleted).slice(0, 300)}`,
			);
			const ads = sandbox.db.ads;
			assert.equal(ads.pollCards.size, 0, 'the poll card is gone (hard delete)');
			const video = [...ads.vcCards.values()].find((c) => c.name === 'E2E video card');
			assert.ok(video, 'the video conversation card exists');
			assert.equal(video.first_cta, '#Yes');
			const draft = [...ads.drafts.values()].find((d) => d.text === 'Vote now');
			assert.ok(
				draft && /^card:\/\/\d+$/.test(draft.card_uri),
				`the draft carries the poll's card URI: ${JSON.stringify(draft)}`,
			);
			assert.deepEqual(draft.media_keys, [SAMPLE_IMAGE_KEY]);
			const post = [...ads.adTweets.values()].find((t) => t.text === 'Watch and answer');
			assert.ok(post, 'the post through the ad account exists');
			assert.equal(post.card_uri, video.card_uri);
			assert.equal(post.nullcast, true, 'promoted-only by default');
			assert.equal(post.name, 'E2E promoted post', 'renamed');
			const cta = [...ads.prerollCtas.values()].find((c) => c.line_item_id === 'e2eli1');
			assert.ok(cta && cta.call_to_action === 'WATCH_NOW');
			const rows = ctx.records(since).filter((r) => r.path.startsWith('/12/'));
			const byUri = rows.find((r) => r.path.endsWith('/cards/all'));
			assert.ok(byUri && byUri.status === 200, 'cards looked up by URI');
			for (const r of rows)
				assert.ok(
					r.auth && r.auth.valid && r.auth.kind === 'oauth1',
					`#${r.seq} ${r.method} ${r.path}: ${JSON.stringify(r.auth)}`,
				);

			const badSince = ctx.seq();
			const [bad] = await ctx.call('e2e-creatives-bad', { accountId, minutes: 4 });
			assert.ok(bad && bad.error, `a 4-minute poll must fail: ${JSON.stringify(bad)}`);
			assert.match(bad.error, /Duration \(Minutes\): at least 5 minutes/);
			assert.equal(
				ctx.records(badSince).filter((r) => r.path.startsWith('/12/')).length,
				0,
				'no request for bad input',
			);
		},
	},
];
