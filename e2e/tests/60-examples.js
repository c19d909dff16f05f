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
			ctx.assertAllAuthValid(since, 'oauth1');
		},
	},
];
