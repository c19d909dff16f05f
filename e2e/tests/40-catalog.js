'use strict';
/**
 * Ads Catalog inside n8n: catalog create (and the one-per-user refusal), a checked and batched product
 * push (25 per PUT, duplicates and invalid items never sent, per-item results, a 429 waited out), a
 * second push (NO_CHANGE), product listing, a product set and a scheduled feed. Every request carries a
 * valid OAuth 1.0a signature.
 */
const { T, CRED, node, chain, workflow, webhookStart, credRef } = require('../lib/fixtures');

const AUTH = { authentication: 'platformOAuth1Api' };
const creds = { credentials: credRef(CRED.oauth1) };
const catalogFromBody = {
	__rl: true,
	mode: 'id',
	value: "={{ $('Start').first().json.body.catalogId }}",
};

function product(i, extra = {}) {
	return Object.assign(
		{
			id: `sku-${String(i).padStart(3, '0')}`,
			title: `E2E product ${i}`,
			description: `Product number ${i}, plain text.`,
			availability: 'in stock',
			condition: 'new',
			price: `${10 + i}.50 USD`,
			link: `https://shop.example/p/${i}`,
			image_link: `https://shop.example/p/${i}.png`,
			brand: 'Acme',
			inventory: 5,
		},
		extra,
	);
}

const workflows = () => [
	workflow(
		'e2eCatalogCreate',
		'e2e catalog create',
		[
			webhookStart('e2e-catalog-create'),
			// Errors become output items ({error}), so that the test can read the node's message.
			node(
				'Create Catalog',
				T.catalog,
				1,
				Object.assign({}, AUTH, {
					resource: 'catalog',
					operation: 'create',
					name: '={{ $json.body.name }}',
				}),
				[250, 0],
				Object.assign({ onError: 'continueRegularOutput' }, creds),
			),
		],
		chain(['Start', 'Create Catalog']),
		{ active: true },
	),
	workflow(
		'e2eCatalogPush01',
		'e2e catalog push',
		[
			webhookStart('e2e-catalog-push'),
			node(
				'Split Out',
				'n8n-nodes-base.splitOut',
				1,
				{ fieldToSplitOut: 'body.products', options: {} },
				[250, 0],
			),
			node(
				'Push Products',
				T.catalog,
				1,
				Object.assign({}, AUTH, {
					resource: 'product',
					operation: 'push',
					catalogId: catalogFromBody,
					mapping: 'auto',
					options: { onError: 'continue' },
				}),
				[500, 0],
				creds,
			),
		],
		chain(['Start', 'Split Out', 'Push Products']),
		{ active: true },
	),
	workflow(
		'e2eCatalogRead01',
		'e2e catalog read',
		[
			webhookStart('e2e-catalog-read'),
			node(
				'Get Products',
				T.catalog,
				1,
				Object.assign({}, AUTH, {
					resource: 'product',
					operation: 'getMany',
					catalogId: catalogFromBody,
					returnAll: true,
				}),
				[250, 0],
				creds,
			),
		],
		chain(['Start', 'Get Products']),
		{ active: true },
	),
	workflow(
		'e2eCatalogSets01',
		'e2e catalog set and feed',
		[
			webhookStart('e2e-catalog-sets'),
			node(
				'Create Set',
				T.catalog,
				1,
				Object.assign({}, AUTH, {
					resource: 'productSet',
					operation: 'create',
					catalogId: catalogFromBody,
					name: 'E2E manual set',
					setType: 'MANUAL',
					productKeys: "={{ $('Start').first().json.body.productKeys }}",
				}),
				[250, 0],
				creds,
			),
			node(
				'Create Feed',
				T.catalog,
				1,
				Object.assign({}, AUTH, {
					resource: 'scheduledFeed',
					operation: 'create',
					catalogId: catalogFromBody,
					feedUrl: 'https://shop.example/feed.csv',
					feedFormat: 'CSV',
					frequency: 'WEEKLY',
					weekday: 'FRIDAY',
					startTime: '03:30',
					timeZone: 'Europe/Berlin',
				}),
				[500, 0],
				creds,
			),
		],
		chain(['Start', 'Create Set', 'Create Feed']),
		{ active: true },
	),
];

module.exports = [
	{
		name: 'catalog: create, batched push with per-item results, 429 waited out, NO_CHANGE, list, product set, feed',
		needs: [
			'adsCatalog:catalog.create',
			'adsCatalog:product.push',
			'adsCatalog:product.getMany',
			'adsCatalog:productSet.create',
			'adsCatalog:scheduledFeed.create',
		],
		modes: ['regular'],
		workflows,
		publish: () => workflows().map((w) => w.id),
		timeoutMs: 240000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			const since = ctx.seq();
			// Create, then the refusal of a second catalog for the same user.
			const [catalog] = await ctx.call('e2e-catalog-create', { name: 'E2E Shop' });
			assert.ok(catalog && catalog.id, `no catalog id: ${JSON.stringify(catalog)}`);
			assert.equal(sandbox.db.ads.catalogs.get(catalog.id).name, 'E2E Shop');
			const [second] = await ctx.call('e2e-catalog-create', { name: 'Second' });
			assert.ok(second.error, `a second catalog must be refused: ${JSON.stringify(second)}`);
			assert.match(
				JSON.stringify(second),
				/one/i,
				`the refusal should say one catalog per user: ${JSON.stringify(second).slice(0, 300)}`,
			);

			// 27 valid products, one invalid price, two sharing an id: 2 PUTs (25 + 2), one 429 on the way.
			const products = Array.from({ length: 27 }, (_, i) => product(i + 1));
			products.splice(5, 0, product(99, { price: '9,99 USD' }));
			products.push(product(50, { id: 'sku-dup' }), product(51, { id: 'sku-dup' }));
			sandbox.faults.rules.push({
				status: 429,
				remaining: 1,
				method: 'PUT',
				path: '/products$',
				resetAfterS: 1,
			});
			const pushSince = ctx.seq();
			const results = await ctx.call('e2e-catalog-push', { catalogId: catalog.id, products });
			assert.equal(results.length, 30, 'one output item per input item');
			const status = (s) => results.filter((r) => r.status === s).length;
			assert.equal(
				status('CREATE_SUCCESS'),
				27,
				`statuses: ${JSON.stringify(results.map((r) => r.status))}`,
			);
			assert.equal(results[5].status, 'INVALID', 'the invalid price is reported on its own item');
			assert.equal(results[28].status, 'DUPLICATE_ID');
			assert.equal(results[29].status, 'DUPLICATE_ID');
			const puts = ctx.records(pushSince, '/products').filter((r) => r.method === 'PUT');
			assert.equal(puts.filter((r) => r.status === 429).length, 1, 'the injected 429 was seen');
			const ok = puts.filter((r) => r.status === 200);
			assert.deepEqual(
				ok.map((r) => r.body.products.length).sort((a, b) => b - a),
				[25, 2],
				'batches of at most 25',
			);
			const sent = ok.flatMap((r) => r.body.products.map((p) => p.id));
			assert.ok(
				!sent.includes('sku-dup') && !sent.includes('sku-099'),
				'duplicates and invalid items are never sent',
			);
			assert.equal(new Set(sent).size, 27);

			// The same products again: NO_CHANGE.
			const again = await ctx.call('e2e-catalog-push', {
				catalogId: catalog.id,
				products: products.filter((p, i) => i !== 5 && !p.id.startsWith('sku-dup')),
			});
			assert.equal(
				again.filter((r) => r.status === 'NO_CHANGE').length,
				27,
				`second push: ${JSON.stringify(again.map((r) => r.status))}`,
			);

			const listed = await ctx.call('e2e-catalog-read', { catalogId: catalog.id });
			assert.equal(listed.length, 27, 'Get Many returns every product');
			assert.ok(
				listed.every((p) => p.product_key),
				'products carry their product_key',
			);

			const keys = listed.slice(0, 3).map((p) => p.product_key);
			const [feed] = await ctx.call('e2e-catalog-sets', {
				catalogId: catalog.id,
				productKeys: keys.join(','),
			});
			const sets = [...sandbox.db.ads.productSets.values()].filter((s) => s.catalog === catalog.id);
			assert.equal(sets.length, 1);
			assert.equal(sets[0].type, 'MANUAL');
			assert.deepEqual(
				sets[0].product_ids.sort(),
				listed
					.slice(0, 3)
					.map((p) => p.id)
					.sort(),
			);
			assert.equal(feed.frequency, 'WEEKLY');
			assert.equal(feed.repeat, 'FRIDAY');
			const feedRecord = ctx.records(since, '/scheduled_feeds').find((r) => r.method === 'POST');
			assert.equal(
				feedRecord.query.time_zone,
				'Europe/Berlin',
				'feed parameters go in the query string',
			);

			const rows = ctx.records(since).filter((r) => r.path.startsWith('/12/') && r.status !== 429);
			for (const r of rows)
				assert.ok(
					r.auth && r.auth.valid && r.auth.kind === 'oauth1',
					`#${r.seq} ${r.method} ${r.path}: ${JSON.stringify(r.auth)}`,
				);
		},
	},
];
