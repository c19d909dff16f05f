import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import nock from 'nock';

import { ADS_BASE, TEST_SECRETS } from '../helpers/context';
import { CATALOG, envelope, items, locator, product, putReply, run, runFailure } from './helpers';

const PATH = `/12/product_catalogs/${CATALOG}/products`;

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const params = (options: IDataObject = {}, extra: IDataObject = {}) => ({
	resource: 'product',
	operation: 'push',
	catalogId: locator(CATALOG),
	mapping: 'auto',
	options,
	...extra,
});

/** Intercepts every products PUT, records the bodies and answers CREATE_SUCCESS. */
function recordPuts(times = 100) {
	const bodies: Array<{ products: IDataObject[] }> = [];
	nock(ADS_BASE)
		.put(PATH)
		.times(times)
		.reply(200, (_uri, body) => {
			bodies.push(body as { products: IDataObject[] });
			return putReply(body as { products: IDataObject[] });
		});
	return bodies;
}

describe('Product > Push: batching', () => {
	it('splits 26 products into 25 + 1 and pairs each result with its item', async () => {
		const bodies = recordPuts();
		const list = Array.from({ length: 26 }, (_, i) => product(i));
		const { output, requests } = await run(params({ concurrency: 1 }), items(list));
		expect(bodies.map((b) => b.products.length)).toEqual([25, 1]);
		expect(bodies[0].products.map((p) => p.id)).toEqual(list.slice(0, 25).map((p) => p.id));
		expect(bodies[1].products[0]).toEqual(list[25]);
		expect(output).toHaveLength(26);
		output.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			expect(item.json).toEqual({
				id: `SKU-${i}`,
				product_key: `key-SKU-${i}`,
				status: 'CREATE_SUCCESS',
				errors: [],
				warnings: [],
			});
		});
		// OAuth 1.0a signed, JSON body, no secret on the wire.
		expect(requests[0].headers.authorization).toMatch(/^OAuth .*oauth_signature=/);
		expect(requests[0].headers['content-type']).toBe('application/json');
		for (const secret of [TEST_SECRETS.consumerSecret, TEST_SECRETS.accessTokenSecret]) {
			expect(JSON.stringify(requests)).not.toContain(secret);
		}
	});

	it('sends nothing for 0 items', async () => {
		const bodies = recordPuts();
		const { output, requests } = await run(params(), []);
		expect(output).toEqual([]);
		expect(requests).toHaveLength(0);
		expect(bodies).toHaveLength(0);
	});

	it('sends exactly 25 in one request and 50 in two', async () => {
		const bodies = recordPuts();
		await run(params(), items(Array.from({ length: 25 }, (_, i) => product(i))));
		expect(bodies.map((b) => b.products.length)).toEqual([25]);
		bodies.length = 0;
		await run(params(), items(Array.from({ length: 50 }, (_, i) => product(i))));
		expect(bodies.map((b) => b.products.length).sort()).toEqual([25, 25]);
	});

	it('pairs results by id when the service answers in another order, and keeps its statuses', async () => {
		nock(ADS_BASE)
			.put(PATH)
			.reply(200, (_uri, body) => {
				const sent = (body as { products: IDataObject[] }).products;
				const statuses = ['UPDATE_SUCCESS', 'NO_CHANGE', 'CREATE_SUCCESS'];
				return envelope({
					products_response: sent
						.map((p, i) => ({
							warnings: i === 1 ? ['unknown attributes ignored'] : [],
							errors: [],
							product_key: `k${String(p.id)}`,
							id: p.id,
							status: statuses[i],
						}))
						.reverse(),
				});
			});
		const { output } = await run(params(), items([product(1), product(2), product(3)]));
		expect(output.map((o) => [o.json.id, o.json.status, o.json.product_key])).toEqual([
			['SKU-1', 'UPDATE_SUCCESS', 'kSKU-1'],
			['SKU-2', 'NO_CHANGE', 'kSKU-2'],
			['SKU-3', 'CREATE_SUCCESS', 'kSKU-3'],
		]);
		expect(output[1].json.warnings).toEqual(['unknown attributes ignored']);
	});

	it('never has more batches in flight than the concurrency option, and sends every product once', async () => {
		let inFlight = 0;
		let peak = 0;
		const seen: string[] = [];
		nock(ADS_BASE)
			.put(PATH)
			.times(20)
			.reply(function (_uri, body, callback) {
				inFlight++;
				peak = Math.max(peak, inFlight);
				for (const p of (body as { products: IDataObject[] }).products) seen.push(String(p.id));
				void sleep(5).then(() => {
					inFlight--;
					callback(null, [200, putReply(body as { products: IDataObject[] })]);
				});
			});
		const { output } = await run(
			params({ concurrency: 3 }),
			items(Array.from({ length: 250 }, (_, i) => product(i))),
		);
		expect(peak).toBe(3);
		expect(seen).toHaveLength(250);
		expect(new Set(seen).size).toBe(250);
		expect(output.every((o) => o.json.status === 'CREATE_SUCCESS')).toBe(true);
	});

	it('caps the concurrency at 10', async () => {
		let inFlight = 0;
		let peak = 0;
		nock(ADS_BASE)
			.put(PATH)
			.times(20)
			.reply(function (_uri, body, callback) {
				inFlight++;
				peak = Math.max(peak, inFlight);
				void sleep(5).then(() => {
					inFlight--;
					callback(null, [200, putReply(body as { products: IDataObject[] })]);
				});
			});
		await run(
			params({ concurrency: 50 }),
			items(Array.from({ length: 500 }, (_, i) => product(i))),
		);
		expect(peak).toBe(10);
	});

	it('retries a batch refused with 429 or 503 without sending any product twice in another batch', async () => {
		const received: string[] = [];
		let calls = 0;
		nock(ADS_BASE)
			.put(PATH)
			.times(10)
			.reply((_uri, body) => {
				calls++;
				if (calls === 1)
					return [
						429,
						{ errors: [{ code: 'TOO_MANY_REQUESTS', message: 'Rate limit' }] },
						{ 'x-rate-limit-reset': String(Math.floor(Date.now() / 1000)) },
					];
				if (calls === 2)
					return [503, { errors: [{ code: 'SERVICE_UNAVAILABLE', message: 'Over capacity' }] }];
				for (const p of (body as { products: IDataObject[] }).products) received.push(String(p.id));
				return [200, putReply(body as { products: IDataObject[] })];
			});
		const list = Array.from({ length: 60 }, (_, i) => product(i));
		const { output } = await run(params({ concurrency: 2 }), items(list));
		expect(calls).toBe(5);
		expect(received.sort()).toEqual(list.map((p) => String(p.id)).sort());
		expect(output.every((o) => o.json.status === 'CREATE_SUCCESS')).toBe(true);
	});
});

describe('Product > Push: validation table (bad item → message, nothing sent)', () => {
	const long = (n: number) => 'x'.repeat(n);
	const cases: Array<[string, IDataObject, RegExp]> = [
		['id missing', { id: undefined }, /"id" is required/],
		['id empty cell', { id: '  ' }, /"id" is required/],
		['title missing', { title: undefined }, /"title" is required/],
		['title of 151 characters', { title: long(151) }, /title: is longer than 150 characters/],
		['description missing', { description: null }, /"description" is required/],
		[
			'description of 5001 characters',
			{ description: long(5001) },
			/description: is longer than 5000 characters/,
		],
		[
			'description with HTML',
			{ description: 'Great <b>shirt</b>' },
			/description: must be plain text/,
		],
		[
			'description with an HTML entity',
			{ description: 'Fish &amp; chips' },
			/description: must be plain text/,
		],
		[
			'availability not in the list',
			{ availability: 'available' },
			/availability: must be one of: in stock, available for order, preorder, out of stock, discontinued/,
		],
		['availability missing', { availability: undefined }, /"availability" is required/],
		[
			'condition not in the list',
			{ condition: 'mint' },
			/condition: must be one of: new, used, refurbished/,
		],
		['gender not in the list', { gender: 'boys' }, /gender: must be one of: female, male, unisex/],
		[
			'age_group not in the list',
			{ age_group: 'senior' },
			/age_group: must be one of: adult, all ages/,
		],
		['price missing', { price: undefined }, /"price" is required/],
		[
			'price with a decimal comma',
			{ price: '19,99 EUR' },
			/price: .*comma: write the amount with "\." as the decimal point/,
		],
		[
			'price without currency',
			{ price: '19.99' },
			/price: .*not a price: write a number, a space and a 3-letter ISO 4217/,
		],
		['price with a currency sign', { price: '$19.99' }, /price: .*not a price/],
		[
			'price with an unknown currency',
			{ price: '19.99 ABC' },
			/price: "ABC" in "19.99 ABC" is not an ISO 4217 currency code/,
		],
		[
			'price with a lower-case currency',
			{ price: '19.99 usd' },
			/price: "usd" .* is not an ISO 4217 currency code/,
		],
		[
			'sale_price not lower than price',
			{ sale_price: '19.99 USD' },
			/sale_price: \(19\.99 USD\) must be lower than price \(19\.99 USD\)/,
		],
		[
			'sale_price higher than price',
			{ sale_price: '25.00 USD' },
			/sale_price: .*must be lower than price/,
		],
		[
			'sale_price in another currency',
			{ sale_price: '9.99 EUR' },
			/sale_price: is in EUR but price is in USD: use the same currency/,
		],
		['sale_price badly formatted', { sale_price: '9,99 USD' }, /sale_price: .*decimal point/],
		[
			'link with http',
			{ link: 'http://shop.example/p/1' },
			/link: "http:\/\/shop\.example\/p\/1" must use https/,
		],
		['link not a URL', { link: 'shop.example/p/1' }, /link: "shop\.example\/p\/1" is not a URL/],
		[
			'image_link not a URL',
			{ image_link: 'shop.example/i.jpg' },
			/image_link: "shop\.example\/i\.jpg" is not a URL/,
		],
		[
			'image_link with ftp',
			{ image_link: 'ftp://shop.example/i.jpg' },
			/image_link: .*must be an http or https URL/,
		],
		[
			'mobile_link with http',
			{ mobile_link: 'http://m.shop.example/p/1' },
			/mobile_link: .*must use https/,
		],
		[
			'11 additional images',
			{
				additional_image_link: Array.from(
					{ length: 11 },
					(_, i) => `https://shop.example/${i}.jpg`,
				).join(','),
			},
			/additional_image_link: holds 11 images: at most 10 are allowed/,
		],
		[
			'an additional image that is not a URL',
			{ additional_image_link: 'https://shop.example/1.jpg,shop.example/2.jpg' },
			/additional_image_link: "shop\.example\/2\.jpg" is not a URL/,
		],
		['no brand, gtin or mpn', { brand: undefined }, /brand: one of brand, gtin or mpn is required/],
		[
			'inventory 0 while in stock',
			{ inventory: 0 },
			/inventory: must be at least 1 when availability is "in stock"/,
		],
		[
			'inventory negative',
			{ availability: 'out of stock', inventory: -2 },
			/inventory: must not be negative/,
		],
		['inventory not whole', { inventory: 2.5 }, /inventory: must be a whole number/],
		['inventory text', { inventory: 'many' }, /inventory: must be a whole number/],
		[
			'sale_price_effective_date not a range',
			{ sale_price: '9.99 USD', sale_price_effective_date: '2026-11-27T00:00+01:00' },
			/sale_price_effective_date: .*is not a range <start>\/<end>/,
		],
		[
			'sale_price_effective_date as plain dates',
			{ sale_price: '9.99 USD', sale_price_effective_date: '2026-11-27/2026-11-30' },
			/sale_price_effective_date: .*is not a range/,
		],
		[
			'sale_price_effective_date ending before it starts',
			{
				sale_price: '9.99 USD',
				sale_price_effective_date: '2026-11-30T00:00+01:00/2026-11-27T00:00+01:00',
			},
			/sale_price_effective_date: the start must be before the end/,
		],
		['color as hex code', { color: '#FF0000' }, /color: must be a color name, not a hex code/],
	];

	it.each(cases.map(([name, overrides, message]) => ({ name, overrides, message })))(
		'$name',
		async ({ overrides, message }) => {
			const bodies = recordPuts();
			const bad = product(1, overrides);
			for (const [k, v] of Object.entries(overrides)) if (v === undefined) delete bad[k];
			const { output, requests } = await run(params({ onError: 'continue' }), items([bad]));
			expect(requests).toHaveLength(0);
			expect(bodies).toHaveLength(0);
			expect(output).toHaveLength(1);
			expect(output[0].pairedItem).toEqual({ item: 0 });
			expect(output[0].json.status).toBe('INVALID');
			expect((output[0].json.errors as string[]).join('\n')).toMatch(message);
			expect(output[0].json.error).toBe((output[0].json.errors as string[])[0]);
		},
	);

	it('variants (same title, different size) need item_group_id', async () => {
		const bodies = recordPuts();
		const list = [
			product(1, { title: 'Shirt', size: 'M' }),
			product(2, { title: 'Shirt', size: 'L' }),
			product(3),
		];
		const { output } = await run(params({ onError: 'continue' }), items(list));
		expect(output[0].json.status).toBe('INVALID');
		expect(output[0].json.error).toMatch(
			/item_group_id: is required for variants: this product shares its title with "SKU-2"/,
		);
		expect(output[1].json.status).toBe('INVALID');
		expect(output[2].json.status).toBe('CREATE_SUCCESS');
		expect(bodies[0].products.map((p) => p.id)).toEqual(['SKU-3']);
		// With item_group_id they are valid.
		bodies.length = 0;
		const grouped = list.map((p, i) => (i < 2 ? { ...p, item_group_id: 'shirt' } : p));
		const again = await run(params({ onError: 'continue' }), items(grouped));
		expect(again.output.map((o) => o.json.status)).toEqual([
			'CREATE_SUCCESS',
			'CREATE_SUCCESS',
			'CREATE_SUCCESS',
		]);
	});

	it('accepts http image links (only link and mobile_link must use https)', async () => {
		const bodies = recordPuts();
		const images = {
			image_link: 'http://cdn.shop.example/i/1.jpg',
			additional_image_link: 'http://cdn.shop.example/a.jpg,https://cdn.shop.example/b.jpg',
		};
		const { output, requests } = await run(params(), items([product(1, images)]));
		expect(requests).toHaveLength(1);
		expect(output[0].json.status).toBe('CREATE_SUCCESS');
		expect(bodies[0].products[0]).toMatchObject(images);
	});

	it('accepts spreadsheet-shaped rows: numbers as text, empty cells, image arrays, other columns', async () => {
		const bodies = recordPuts();
		const row = {
			row_number: 2,
			id: 1001,
			title: ' Blue shirt ',
			description: 'Cotton',
			availability: 'in stock',
			condition: 'new',
			price: '10.00 EUR',
			sale_price: '8.50 EUR',
			sale_price_effective_date: '2026-11-27T00:00+01:00/2026-11-30T23:59+01:00',
			link: 'https://shop.example/p/1001',
			image_link: 'https://shop.example/i/1001.jpg',
			additional_image_link: ['https://shop.example/a.jpg', 'https://shop.example/b.jpg'],
			gtin: 4006381333931,
			brand: '',
			mpn: null,
			inventory: '3',
			item_group_key: 'ignored',
		};
		const { output } = await run(params(), items([row]));
		expect(output[0].json.status).toBe('CREATE_SUCCESS');
		expect(bodies[0].products[0]).toEqual({
			id: '1001',
			title: 'Blue shirt',
			description: 'Cotton',
			availability: 'in stock',
			condition: 'new',
			price: '10.00 EUR',
			sale_price: '8.50 EUR',
			sale_price_effective_date: '2026-11-27T00:00+01:00/2026-11-30T23:59+01:00',
			link: 'https://shop.example/p/1001',
			image_link: 'https://shop.example/i/1001.jpg',
			additional_image_link: 'https://shop.example/a.jpg,https://shop.example/b.jpg',
			gtin: '4006381333931',
			inventory: 3,
		});
	});

	it('maps field by field from the UI', async () => {
		const bodies = recordPuts();
		const list = [
			{ sku: 'A1', name: 'Lamp', cost: '30.00 GBP' },
			{ sku: 'A2', name: 'Desk', cost: '120.50 GBP' },
		];
		const { output } = await run(
			(i) => ({
				...params(),
				mapping: 'manual',
				productId: list[i].sku,
				productTitle: list[i].name,
				productDescription: `A ${list[i].name.toLowerCase()}`,
				availability: 'preorder',
				condition: 'new',
				price: list[i].cost,
				link: `https://shop.example/${list[i].sku}`,
				imageLink: `https://shop.example/${list[i].sku}.png`,
				additionalFields: {
					mpn: `MPN-${list[i].sku}`,
					primaryShade: 'red',
					custom_label_0: 'winter',
				},
			}),
			items(list),
		);
		expect(output.map((o) => o.json.status)).toEqual(['CREATE_SUCCESS', 'CREATE_SUCCESS']);
		expect(bodies[0].products[1]).toEqual({
			id: 'A2',
			title: 'Desk',
			description: 'A desk',
			availability: 'preorder',
			condition: 'new',
			price: '120.50 GBP',
			link: 'https://shop.example/A2',
			image_link: 'https://shop.example/A2.png',
			mpn: 'MPN-A2',
			color: 'red',
			custom_label_0: 'winter',
		});
	});
});

describe('Product > Push: duplicate ids', () => {
	it('reports every item that shares an id and sends none of them', async () => {
		const bodies = recordPuts();
		const list = [product(1), product(2), product(1, { title: 'Other' }), product(3)];
		const { output } = await run(params({ onError: 'continue' }), items(list));
		expect(bodies).toHaveLength(1);
		expect(bodies[0].products.map((p) => p.id)).toEqual(['SKU-2', 'SKU-3']);
		expect(output.map((o) => o.json.status)).toEqual([
			'DUPLICATE_ID',
			'CREATE_SUCCESS',
			'DUPLICATE_ID',
			'CREATE_SUCCESS',
		]);
		expect(output[0].json.error).toMatch(
			/id "SKU-1" appears in items 1, 3: the service ignores every instance of a repeated id, so none was sent/,
		);
		expect(output.map((o) => o.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
	});

	it('treats 7 and "7" as the same id', async () => {
		recordPuts();
		const { output } = await run(
			params({ onError: 'continue' }),
			items([product(1, { id: 7 }), product(2, { id: '7' })]),
		);
		expect(output.map((o) => o.json.status)).toEqual(['DUPLICATE_ID', 'DUPLICATE_ID']);
	});

	it('fails before sending anything when stopping on errors', async () => {
		const bodies = recordPuts();
		const error = await runFailure(params(), items([product(1), product(1)]));
		expect(error.message).toMatch(
			/Invalid product in item 1 \(id "SKU-1"\): id "SKU-1" appears in items 1, 2/,
		);
		expect(bodies).toHaveLength(0);
	});
});

describe('Product > Push: stop at the first error vs continue', () => {
	it('stop (default): an invalid item fails the node before any request, naming the item', async () => {
		const bodies = recordPuts();
		const error = await runFailure(
			params(),
			items([
				product(1),
				product(2, { price: '5 dollars' }),
				product(3, { link: 'http://x.example' }),
			]),
		);
		expect(error.constructor.name).toBe('NodeOperationError');
		expect(error.message).toMatch(
			/^Invalid product in item 2 \(id "SKU-2"\): price: "5 dollars" is not a price/,
		);
		expect(error.description).toMatch(/2 of 3 items are invalid; nothing was sent/);
		expect(bodies).toHaveLength(0);
	});

	it('continue: valid items are sent, invalid ones carry their messages', async () => {
		const bodies = recordPuts();
		const { output } = await run(
			params({ onError: 'continue' }),
			items([product(1), product(2, { price: '5 dollars', title: '' }), product(3)]),
		);
		expect(bodies[0].products.map((p) => p.id)).toEqual(['SKU-1', 'SKU-3']);
		expect(output[1].json).toMatchObject({ id: 'SKU-2', status: 'INVALID', product_key: null });
		expect(output[1].json.errors).toEqual(
			expect.arrayContaining([expect.stringMatching(/^title:/), expect.stringMatching(/^price:/)]),
		);
	});

	it('continueOnFail is honoured like continue', async () => {
		recordPuts();
		const { output } = await run(
			params(),
			items([product(1, { condition: 'broken' }), product(2)]),
			{ continueOnFail: true },
		);
		expect(output.map((o) => o.json.status)).toEqual(['INVALID', 'CREATE_SUCCESS']);
	});

	const refuseSecond = () => {
		const bodies: Array<{ products: IDataObject[] }> = [];
		nock(ADS_BASE)
			.put(PATH)
			.times(5)
			.reply(200, (_uri, body) => {
				const b = body as { products: IDataObject[] };
				bodies.push(b);
				return envelope({
					products_response: b.products.map((p) =>
						p.id === 'SKU-1'
							? {
									warnings: ['w'],
									errors: ['image_link could not be fetched'],
									product_key: null,
									id: p.id,
									status: 'ERROR',
								}
							: {
									warnings: [],
									errors: [],
									product_key: `k${String(p.id)}`,
									id: p.id,
									status: 'CREATE_SUCCESS',
								},
					),
				});
			});
		return bodies;
	};

	it('stop: a product the service refuses stops the node after its batch; later batches are not sent', async () => {
		const bodies = refuseSecond();
		const error = await runFailure(
			params({ concurrency: 1 }),
			items(Array.from({ length: 60 }, (_, i) => product(i))),
		);
		expect(error.message).toBe(
			'The service refused the product in item 2 (id "SKU-1"): image_link could not be fetched',
		);
		expect(bodies).toHaveLength(1);
	});

	it('continue: the refused product carries ERROR with errors and warnings; the rest is pushed', async () => {
		const bodies = refuseSecond();
		const { output } = await run(
			params({ onError: 'continue', concurrency: 1 }),
			items(Array.from({ length: 60 }, (_, i) => product(i))),
		);
		expect(bodies.map((b) => b.products.length)).toEqual([25, 25, 10]);
		expect(output[1].json).toEqual({
			id: 'SKU-1',
			product_key: null,
			status: 'ERROR',
			errors: ['image_link could not be fetched'],
			warnings: ['w'],
			error: 'image_link could not be fetched',
		});
		expect(output.filter((o) => o.json.status === 'CREATE_SUCCESS')).toHaveLength(59);
	});

	it('continue: a batch the service refuses as a whole marks its items and the other batches still go', async () => {
		let call = 0;
		nock(ADS_BASE)
			.put(PATH)
			.times(2)
			.reply((_uri, body) => {
				call++;
				if (call === 1)
					return [
						400,
						{
							errors: [{ code: 'INVALID_PARAMETER', message: 'Bad batch', parameter: 'products' }],
							request: { params: {} },
						},
					];
				return [200, putReply(body as { products: IDataObject[] })];
			});
		const { output } = await run(
			params({ onError: 'continue', concurrency: 1 }),
			items(Array.from({ length: 30 }, (_, i) => product(i))),
		);
		expect(
			output
				.slice(0, 25)
				.every((o) => o.json.status === 'ERROR' && /Bad batch/.test(String(o.json.error))),
		).toBe(true);
		expect(output[0].json.httpCode).toBe('400');
		expect(output.slice(25).every((o) => o.json.status === 'CREATE_SUCCESS')).toBe(true);
	});

	it('stop: a batch refused as a whole fails the node with the service message', async () => {
		nock(ADS_BASE)
			.put(PATH)
			.reply(404, {
				errors: [{ code: 'NOT_FOUND', message: 'Product catalog 1 not found' }],
				request: { params: {} },
			});
		const error = await runFailure(params(), items([product(1)]));
		expect(error.message).toMatch(/The batch with items 1-1 failed: Product catalog 1 not found/);
		expect(JSON.stringify(error)).not.toContain(TEST_SECRETS.accessTokenSecret);
	});
});
