'use strict';
/**
 * The example workflows (examples/*.json) inside n8n, as `npm start` imports them (sample URLs pointing
 * at the sandbox): the schedule / manual ones run with `n8n execute --id --rawOutput`, the trigger one is
 * activated and fired with a signed event.
 */
const path = require('node:path');
const F = require('../lib/fixtures');
const H = require('../lib/host');

function examples(ctx) {
	return F.loadExamples(path.join(H.ROOT, 'examples')).map((wf) => {
		const copy = JSON.parse(JSON.stringify(wf).split('https://sandbox.example/').join(`${ctx.sandboxUrl}/`));
		delete copy.file;
		return copy;
	});
}
const byId = (ctx, id) => examples(ctx).find((w) => w.id === id);

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
			for (const i of items) assert.ok(['CREATE_SUCCESS', 'UPDATE_SUCCESS', 'NO_CHANGE'].includes(i.status), JSON.stringify(i));
			const puts = ctx.records(since, `/12/product_catalogs/${catalog.id}/products`).filter((r) => r.method === 'PUT');
			assert.equal(puts.length, 1);
			assert.deepEqual(puts[0].body.products.map((p) => p.id), ['SKU-1001', 'SKU-1002', 'SKU-1003']);
			for (const r of ctx.records(since).filter((x) => x.path.startsWith('/12/'))) assert.ok(r.auth && r.auth.valid && r.auth.kind === 'oauth1', `#${r.seq} ${r.method} ${r.path}: ${JSON.stringify(r.auth)}`);
		},
	},
];

module.exports.push({
	name: 'examples: new post -> website card -> scheduled ad post (trigger example, signed event)',
	needs: ['platformTriggerPosts', 'adsCreatives:card.create', 'adsCreatives:scheduledPost.create'],
	modes: ['regular'],
	workflows: (ctx) => [byId(ctx, 'exPostToAdPost01')].filter(Boolean),
	publish: () => ['exPostToAdPost01'],
	timeoutMs: 180000,
	async run(ctx) {
		const { assert, sandbox } = ctx;
		const webhookId = F.uuidFrom('example:post-to-ad-post:trigger');
		const hook = await ctx.waitFor('the example trigger to register its webhook', () => [...sandbox.db.webhooks.values()].find((w) => w.url.includes(webhookId) && [...sandbox.db.subscriptions.values()].some((s) => s.webhook_id === w.id)), { timeoutMs: 60000 });
		const since = ctx.seq();
		const before = sandbox.db.ads.scheduled.size;
		const [e] = await sandbox.emit({ event_type: 'post.create', text: 'Our autumn collection is here', webhook_id: hook.id });
		assert.equal(e.deliveries[0].status, 200);
		const scheduled = await ctx.waitFor('the scheduled ad post', () => sandbox.db.ads.scheduled.size > before && [...sandbox.db.ads.scheduled.values()].pop(), { timeoutMs: 60000 });
		assert.equal(scheduled.text, 'Our autumn collection is here');
		assert.equal(scheduled.user_id, ctx.keys.userId);
		assert.ok(new Date(scheduled.scheduled_at) > new Date(), 'scheduled in the future');
		const card = [...sandbox.db.ads.cards.values()].find((c) => c.card_uri === scheduled.card_uri);
		assert.ok(card, `the scheduled post carries the new card's URI (${scheduled.card_uri})`);
		assert.equal(card.card_type, 'IMAGE_WEBSITE');
		assert.equal(card.components.find((c) => c.type === 'DETAILS').destination.url, 'https://shop.example.com/new');
		const rows = ctx.records(since).filter((r) => r.path.startsWith('/12/'));
		assert.ok(rows.length >= 2, 'card and scheduled post requests');
		for (const r of rows) assert.ok(r.auth && r.auth.valid && r.auth.kind === 'oauth1', `#${r.seq} ${r.method} ${r.path}: ${JSON.stringify(r.auth)}`);
	},
});
