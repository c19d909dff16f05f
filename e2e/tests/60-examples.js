'use strict';
/**
 * The example workflows (examples/*.json) inside n8n, as `npm start` imports them (sample URLs pointing
 * at the sandbox): the schedule / manual ones run with `n8n execute --id --rawOutput`, the trigger one is
 * activated and fired with a signed event.
 */
const crypto = require('node:crypto');
const F = require('../lib/fixtures');
const { session } = require('../lib/rest');

const byId = (ctx, id) => F.sandboxExample(ctx.sandboxUrl, id);

/** The items of the last node that ran, from `n8n execute --rawOutput`. */
function lastNodeItems(run) {
	const runData = run.data.resultData.runData;
	const last = run.data.resultData.lastNodeExecuted;
	const task = runData[last][runData[last].length - 1];
	return task.data.main[0].map((i) => i.json);
}

module.exports = [
	{
		name: 'examples: nightly product push runs (n8n execute) and pushes the products',
		needs: ['adsCatalog:product.push', 'adsCatalog:catalog.getMany'],
		modes: ['regular'],
		workflows: (ctx) => [byId(ctx, 'exNightlyPush001')].filter(Boolean),
		timeoutMs: 240000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			const catalog = sandbox.seedCatalog();
			const since = ctx.seq();
			const run = await ctx.inst.execute('exNightlyPush001');
			const items = lastNodeItems(run);
			assert.equal(items.length, 3, JSON.stringify(items).slice(0, 500));
			for (const i of items)
				assert.ok(
					['CREATE_SUCCESS', 'UPDATE_SUCCESS', 'NO_CHANGE'].includes(i.status),
					JSON.stringify(i),
				);
			const puts = ctx
				.records(since, `/12/product_catalogs/${catalog.id}/products`)
				.filter((r) => r.method === 'PUT');
			assert.equal(puts.length, 1);
			assert.deepEqual(
				puts[0].body.products.map((p) => p.id),
				['SKU-1001', 'SKU-1002', 'SKU-1003'],
			);
			for (const r of ctx.records(since).filter((x) => x.path.startsWith('/12/')))
				assert.ok(
					r.auth && r.auth.valid && r.auth.kind === 'oauth1',
					`#${r.seq} ${r.method} ${r.path}: ${JSON.stringify(r.auth)}`,
				);
			// Test Now in the editor (a manual run): ends at the no-op, sends nothing to the catalog.
			const s = await session(ctx.inst.port);
			const manualSince = ctx.seq();
			const before = (await s.executions('exNightlyPush001')).length;
			await s.call('POST', '/rest/workflows/exNightlyPush001/run', {
				triggerToStartFrom: { name: 'Test Now' },
			});
			const manual = await ctx.waitFor(
				'the Test Now run to finish',
				async () => {
					const list = await s.executions('exNightlyPush001');
					return (
						list.length > before &&
						list.find((e) => e.mode === 'manual' && !['running', 'new'].includes(e.status))
					);
				},
				{ timeoutMs: 60000, intervalMs: 1000 },
			);
			assert.equal(manual.status, 'success', JSON.stringify(manual));
			assert.deepEqual(
				ctx.records(manualSince).filter((r) => r.path.startsWith('/12/')),
				[],
				'Test Now sends nothing to the advertising interface',
			);
		},
	},
];

module.exports.push({
	name: 'examples: thread from a list of texts runs (n8n execute) and posts each part as a reply to the one before',
	needs: ['platformPosts:post.createThread'],
	modes: ['regular'],
	workflows: (ctx) => [byId(ctx, 'exThreadList0001')].filter(Boolean),
	timeoutMs: 120000,
	async run(ctx) {
		const { assert } = ctx;
		const example = byId(ctx, 'exThreadList0001');
		const set = example.nodes.find((n) => n.name === 'Thread Parts');
		const parts = JSON.parse(
			set.parameters.assignments.assignments[0].value.replace(/^=\{\{\s*|\s*\}\}$/g, ''),
		);
		const since = ctx.seq();
		const run = await ctx.inst.execute('exThreadList0001');
		const items = lastNodeItems(run);
		assert.equal(items.length, 1, JSON.stringify(items).slice(0, 500));
		assert.equal(items[0].complete, true, JSON.stringify(items[0]).slice(0, 800));
		const creates = ctx
			.records(since, '/2/tweets')
			.filter((r) => r.method === 'POST' && r.path === '/2/tweets');
		assert.deepEqual(
			creates.map((r) => r.body.text),
			parts,
		);
		const ids = creates.map((r) => r.response.data.id);
		assert.deepEqual(items[0].part_ids, ids);
		for (let i = 1; i < ids.length; i++)
			assert.equal(creates[i].body.reply.in_reply_to_tweet_id, ids[i - 1]);
		for (const r of creates) assert.ok(r.auth && r.auth.valid && r.auth.kind === 'oauth2');
	},
});

module.exports.push({
	name: "examples: new post with an image -> card built from the post's own image -> scheduled ad post (trigger example, signed event)",
	needs: ['platformTriggerPosts', 'adsCreatives:card.create', 'adsCreatives:scheduledPost.create'],
	modes: ['regular'],
	workflows: (ctx) => [byId(ctx, 'exPostToAdPost01')].filter(Boolean),
	publish: () => ['exPostToAdPost01'],
	timeoutMs: 180000,
	async run(ctx) {
		const { assert, sandbox } = ctx;
		const webhookId = F.uuidFrom('example:post-to-ad-post:trigger');
		const hook = await ctx.waitFor(
			'the example trigger to register its webhook',
			() =>
				[...sandbox.db.webhooks.values()].find(
					(w) =>
						w.url.includes(webhookId) &&
						[...sandbox.db.subscriptions.values()].some((s) => s.webhook_id === w.id),
				),
			{ timeoutMs: 60000 },
		);
		const since = ctx.seq();
		const before = sandbox.db.ads.scheduled.size;
		const [e] = await sandbox.emit({
			event_type: 'post.create',
			text: 'Our autumn collection is here',
			webhook_id: hook.id,
			media: true,
		});
		assert.equal(e.deliveries[0].status, 200);
		const scheduled = await ctx.waitFor(
			'the scheduled ad post',
			() => sandbox.db.ads.scheduled.size > before && [...sandbox.db.ads.scheduled.values()].pop(),
			{ timeoutMs: 60000 },
		);
		assert.equal(scheduled.text, 'Our autumn collection is here');
		assert.equal(scheduled.user_id, ctx.keys.userId);
		assert.ok(new Date(scheduled.scheduled_at) > new Date(), 'scheduled in the future');
		const card = [...sandbox.db.ads.cards.values()].find((c) => c.card_uri === scheduled.card_uri);
		assert.ok(card, `the scheduled post carries the new card's URI (${scheduled.card_uri})`);
		assert.equal(card.card_type, 'IMAGE_WEBSITE');
		assert.equal(
			card.components.find((c) => c.type === 'DETAILS').destination.url,
			'https://shop.example.com/new',
		);
		// The card's media key was issued by the sandbox for bytes it received: the post's own image,
		// downloaded from includes.media, uploaded and added to the media library (not the post's key).
		const key = card.components.find((c) => c.type === 'MEDIA').media_key;
		const postKey = JSON.parse(sandbox.db.events[sandbox.db.events.length - 1].raw).data.payload
			.attachments.media_keys[0];
		assert.notEqual(key, postKey);
		const upload = [...sandbox.db.media.values()].find((m) => m.media_key === key);
		assert.ok(
			upload && upload.state === 'succeeded',
			`the card's key ${key} is a finished upload: ${JSON.stringify(upload)}`,
		);
		assert.equal(
			upload.sha256,
			crypto.createHash('sha256').update(sandbox.samplePng).digest('hex'),
			'the uploaded bytes are the post image',
		);
		assert.equal(upload.media_category, 'tweet_image');
		assert.ok(sandbox.db.ads.mediaLibrary.has(key), 'the image was added to the media library');
		const rows = ctx.records(since).filter((r) => r.path.startsWith('/12/'));
		assert.ok(rows.length >= 2, 'card and scheduled post requests');
		for (const r of rows)
			assert.ok(
				r.auth && r.auth.valid && r.auth.kind === 'oauth1',
				`#${r.seq} ${r.method} ${r.path}: ${JSON.stringify(r.auth)}`,
			);
	},
});

const { T, CRED, node, chain, workflow, webhookStart, credRef } = require('../lib/fixtures');

const videoWorkflows = (ctx) => [
	workflow(
		'e2eVideoCardBin1',
		'e2e video card from a binary video',
		[
			webhookStart('e2e-video-card-binary'),
			node(
				'Download Video',
				'n8n-nodes-base.httpRequest',
				4.2,
				{
					url: `${ctx.sandboxUrl}/_sandbox/sample.mp4`,
					options: {
						response: { response: { responseFormat: 'file', outputPropertyName: 'data' } },
					},
				},
				[250, 0],
			),
			node(
				'Video Card',
				T.creatives,
				1,
				{
					authentication: 'platformOAuth1Api',
					accountId: {
						__rl: true,
						mode: 'id',
						value: "={{ $('Start').first().json.body.accountId }}",
					},
					resource: 'videoConversationCard',
					operation: 'create',
					videoSource: 'binary',
					videoBinaryPropertyName: 'data',
					name: 'E2E binary video card',
					first_cta: '#Yes',
					first_cta_tweet: 'Yes please',
					thank_you_text: 'Thanks!',
					title: 'Like it?',
					additionalFields: {},
				},
				[500, 0],
				{ credentials: credRef(CRED.oauth1) },
			),
		],
		chain(['Start', 'Download Video', 'Video Card']),
		{ active: true },
	),
];

module.exports.push({
	name: 'media: a video conversation card built from a binary video (uploaded as amplify_video, added to the media library)',
	needs: ['adsCreatives:videoConversationCard.create'],
	modes: ['regular'],
	workflows: videoWorkflows,
	publish: (ctx) => videoWorkflows(ctx).map((w) => w.id),
	timeoutMs: 180000,
	async run(ctx) {
		const { assert, sandbox } = ctx;
		const [card] = await ctx.call('e2e-video-card-binary', {
			accountId: sandbox.keys.adsAccountId,
		});
		assert.ok(card && card.card_uri, `the card was created: ${JSON.stringify(card).slice(0, 400)}`);
		const stored = [...sandbox.db.ads.vcCards.values()].find(
			(c) => c.name === 'E2E binary video card',
		);
		assert.ok(stored, 'the video conversation card exists');
		const upload = [...sandbox.db.media.values()].find((m) => m.media_key === stored.media_key);
		assert.ok(
			upload && upload.state === 'succeeded',
			`the card's video key is a finished upload: ${JSON.stringify(upload)}`,
		);
		assert.equal(upload.media_category, 'amplify_video');
		assert.equal(
			upload.sha256,
			crypto.createHash('sha256').update(sandbox.sampleMp4).digest('hex'),
			'the uploaded bytes are the downloaded video',
		);
		assert.ok(
			sandbox.db.ads.mediaLibrary.has(stored.media_key),
			'the video was added to the media library',
		);
	},
});
