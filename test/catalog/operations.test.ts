import nock from 'nock';

import { ADS_BASE } from '../helpers/context';
import { CATALOG, envelope, items, locator, run, runFailure } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const base = `/12/product_catalogs/${CATALOG}`;

describe('Product > Get Many', () => {
	it('filters by item_group_key, asks count=100 per page and follows next_cursor for Return All', async () => {
		nock(ADS_BASE)
			.get(`${base}/products`)
			.query({ item_group_key: 'g1', count: '100' })
			.reply(200, envelope([{ id: 'a' }, { id: 'b' }], { next_cursor: 'n2' }))
			.get(`${base}/products`)
			.query({ item_group_key: 'g1', count: '100', cursor: 'n2' })
			.reply(200, envelope([{ id: 'c' }], { next_cursor: null }));
		const { output } = await run({
			resource: 'product',
			operation: 'getMany',
			catalogId: locator(CATALOG),
			returnAll: true,
			filters: { itemGroupKey: 'g1' },
		});
		expect(output.map((o) => o.json.id)).toEqual(['a', 'b', 'c']);
	});

	it('asks only as many as the limit (count between 1 and 100)', async () => {
		nock(ADS_BASE)
			.get(`${base}/products`)
			.query({ count: '3' })
			.reply(200, envelope([{ id: 'a' }, { id: 'b' }, { id: 'c' }], { next_cursor: 'more' }));
		const { output, requests } = await run({
			resource: 'product',
			operation: 'getMany',
			catalogId: locator(CATALOG),
			returnAll: false,
			limit: 3,
		});
		expect(output).toHaveLength(3);
		expect(requests).toHaveLength(1);
	});

	it('pages of at most 100 for a limit of 150', async () => {
		const page = (n: number, from: number) =>
			Array.from({ length: n }, (_, i) => ({ id: `p${from + i}` }));
		nock(ADS_BASE)
			.get(`${base}/products`)
			.query({ count: '100' })
			.reply(200, envelope(page(100, 0), { next_cursor: 'x' }))
			.get(`${base}/products`)
			.query({ count: '50', cursor: 'x' })
			.reply(200, envelope(page(50, 100), { next_cursor: 'y' }));
		const { output } = await run({
			resource: 'product',
			operation: 'getMany',
			catalogId: locator(CATALOG),
			returnAll: false,
			limit: 150,
		});
		expect(output).toHaveLength(150);
	});
});

describe('Product > Delete', () => {
	it('takes keys from the input items, 30 keys → 25 + 5, one result per key paired with its item', async () => {
		const bodies: string[][] = [];
		nock(ADS_BASE)
			.delete(`${base}/products`)
			.times(2)
			.reply(200, (_uri, body) => {
				const keys = (body as { product_keys: string[] }).product_keys;
				bodies.push(keys);
				return envelope({
					delete_products: keys.map((k) =>
						k === 'k7'
							? { product_key: k, failed_product_key: k, message: 'Product not found' }
							: { product_key: k, failed_product_key: null, message: null },
					),
				});
			});
		const input = items(Array.from({ length: 30 }, (_, i) => ({ product_key: `k${i}` })));
		const { output } = await run(
			{
				resource: 'product',
				operation: 'delete',
				catalogId: locator(CATALOG),
				keySource: 'items',
				keyField: 'product_key',
			},
			input,
		);
		expect(bodies.map((b) => b.length)).toEqual([25, 5]);
		expect(output).toHaveLength(30);
		expect(output[7]).toEqual({
			json: {
				product_key: 'k7',
				deleted: false,
				failed_product_key: 'k7',
				message: 'Product not found',
			},
			pairedItem: { item: 7 },
		});
		expect(output[29]).toEqual({
			json: { product_key: 'k29', deleted: true, failed_product_key: null, message: null },
			pairedItem: { item: 29 },
		});
	});

	it('takes keys from a list, removing repeats', async () => {
		let sent: string[] = [];
		nock(ADS_BASE)
			.delete(`${base}/products`)
			.reply(200, (_uri, body) => {
				sent = (body as { product_keys: string[] }).product_keys;
				return envelope({
					delete_products: sent.map((k) => ({
						product_key: k,
						failed_product_key: null,
						message: null,
					})),
				});
			});
		const { output } = await run({
			resource: 'product',
			operation: 'delete',
			catalogId: locator(CATALOG),
			keySource: 'list',
			productKeys: 'a, b\nc,a',
		});
		expect(sent).toEqual(['a', 'b', 'c']);
		expect(output.map((o) => o.json.product_key)).toEqual(['a', 'b', 'c']);
		expect(output.every((o) => o.pairedItem && (o.pairedItem as { item: number }).item === 0)).toBe(
			true,
		);
	});

	it('fails without keys, before any request', async () => {
		const error = await runFailure(
			{
				resource: 'product',
				operation: 'delete',
				catalogId: locator(CATALOG),
				keySource: 'items',
				keyField: 'product_key',
			},
			items([{ other: 1 }]),
		);
		expect(error.message).toBe('No input item has a product key in the chosen field');
	});
});

describe('Product Set', () => {
	const set = (extra = {}) => ({
		id: '77',
		name: 'Shoes',
		description: null,
		type: 'MANUAL',
		product_ids: ['SKU-1'],
		processing_status: 'DONE',
		filters: [],
		...extra,
	});

	it('Get returns the set with processing_status', async () => {
		nock(ADS_BASE).get(`${base}/product_sets/77`).reply(200, envelope(set()));
		const { output } = await run({
			resource: 'productSet',
			operation: 'get',
			catalogId: locator(CATALOG),
			productSetId: locator('77'),
		});
		expect(output[0].json).toMatchObject({ id: '77', processing_status: 'DONE' });
	});

	it('Create MANUAL sends the product keys as JSON', async () => {
		let sent: unknown;
		nock(ADS_BASE)
			.post(`${base}/product_sets`)
			.reply(201, (_uri, body) => {
				sent = body;
				return envelope(set());
			});
		await run({
			resource: 'productSet',
			operation: 'create',
			catalogId: locator(CATALOG),
			name: 'Shoes',
			setType: 'MANUAL',
			productKeys: 'k1, k2',
			setDescription: 'All shoes',
		});
		expect(sent).toEqual({
			name: 'Shoes',
			type: 'MANUAL',
			description: 'All shoes',
			product_keys: ['k1', 'k2'],
		});
	});

	it('Create FILTERED sends the filters and shows PROCESSING', async () => {
		let sent: unknown;
		nock(ADS_BASE)
			.post(`${base}/product_sets`)
			.reply(201, (_uri, body) => {
				sent = body;
				return envelope(set({ type: 'FILTERED', processing_status: 'PROCESSING' }));
			});
		const filters = {
			filter: [
				{ attribute: 'price', operator: 'LESS_THAN', value: '50.00 USD' },
				{ attribute: 'custom_label_0', operator: 'CONTAINS', value: 'summer' },
			],
		};
		const { output } = await run({
			resource: 'productSet',
			operation: 'create',
			catalogId: locator(CATALOG),
			name: 'Cheap',
			setType: 'FILTERED',
			filters,
		});
		expect(sent).toEqual({ name: 'Cheap', type: 'FILTERED', filters: filters.filter });
		expect(output[0].json.processing_status).toBe('PROCESSING');
	});

	it.each([
		[
			{ attribute: 'price', operator: 'LESS_THAN', value: '50' },
			/Filter 1 in item 1 \(price\): "50" is not a price/,
		],
		[{ attribute: 'sale_price', operator: 'GREATER_THAN', value: '5,00 EUR' }, /decimal point/],
		[{ attribute: 'inventory', operator: 'GREATER_THAN', value: 'lots' }, /not a whole number/],
		[{ attribute: 'color', operator: 'EQUAL_TO', value: 'red' }, /unknown attribute "color"/],
		[{ attribute: 'product_type', operator: 'LIKE', value: 'x' }, /unknown operator "LIKE"/],
		[{ attribute: 'product_type', operator: 'MATCH', value: ' ' }, /the value is empty/],
	])('Create FILTERED checks the filter %o before sending', async (filter, message) => {
		const error = await runFailure({
			resource: 'productSet',
			operation: 'create',
			catalogId: locator(CATALOG),
			name: 'X',
			setType: 'FILTERED',
			filters: { filter: [filter] },
		});
		expect(error.message).toMatch(message);
	});

	it('Create MANUAL without keys fails before sending', async () => {
		const error = await runFailure({
			resource: 'productSet',
			operation: 'create',
			catalogId: locator(CATALOG),
			name: 'X',
			setType: 'MANUAL',
			productKeys: ' ',
		});
		expect(error.message).toMatch(/A MANUAL product set needs product keys/);
	});

	it('Update of a MANUAL set sends only the given fields', async () => {
		let sent: unknown;
		nock(ADS_BASE)
			.get(`${base}/product_sets/77`)
			.reply(200, envelope(set()))
			.put(`${base}/product_sets/77`)
			.reply(200, (_uri, body) => {
				sent = body;
				return envelope(set({ name: 'Boots' }));
			});
		const { output } = await run({
			resource: 'productSet',
			operation: 'update',
			catalogId: locator(CATALOG),
			productSetId: locator('77'),
			updateFields: { name: 'Boots', productKeys: 'k1\nk3' },
		});
		expect(sent).toEqual({ name: 'Boots', product_keys: ['k1', 'k3'] });
		expect(output[0].json.name).toBe('Boots');
	});

	it('Update of a FILTERED set says why not, without sending the update', async () => {
		nock(ADS_BASE)
			.get(`${base}/product_sets/78`)
			.reply(200, envelope(set({ id: '78', type: 'FILTERED' })));
		const error = await runFailure({
			resource: 'productSet',
			operation: 'update',
			catalogId: locator(CATALOG),
			productSetId: locator('78'),
			updateFields: { name: 'X' },
		});
		expect(error.message).toBe(
			'Product set 78 is a FILTERED set: the service cannot update FILTERED sets',
		);
		expect(error.description).toMatch(/create a new set with the new filters/);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('Update with nothing to update fails before any request', async () => {
		const error = await runFailure({
			resource: 'productSet',
			operation: 'update',
			catalogId: locator(CATALOG),
			productSetId: locator('77'),
			updateFields: {},
		});
		expect(error.message).toMatch(/^Invalid input in item 1: input: nothing to update/);
	});

	it('Delete deletes the set', async () => {
		nock(ADS_BASE).delete(`${base}/product_sets/77`).reply(200, envelope(set()));
		const { output } = await run({
			resource: 'productSet',
			operation: 'delete',
			catalogId: locator(CATALOG),
			productSetId: locator('77'),
		});
		expect(output[0].json).toMatchObject({ deleted: true, id: '77' });
	});
});

describe('Scheduled Feed', () => {
	const feed = {
		id: '5',
		product_catalog_id: CATALOG,
		feed_url: 'https://shop.example/feed.csv',
		feed_format: 'CSV',
		frequency: 'WEEKLY',
		repeat: 'MONDAY',
		start_time: '02:30',
		time_zone: 'Europe/Berlin',
	};
	const create = (extra = {}) => ({
		resource: 'scheduledFeed',
		operation: 'create',
		catalogId: locator(CATALOG),
		feedUrl: 'https://shop.example/feed.csv',
		feedFormat: 'CSV',
		frequency: 'WEEKLY',
		weekday: 'MONDAY',
		everyHours: '6',
		startTime: '02:30',
		timeZone: 'Europe/Berlin',
		...extra,
	});

	it('Get Many lists feeds', async () => {
		nock(ADS_BASE)
			.get(`${base}/scheduled_feeds`)
			.reply(200, envelope([feed], { next_cursor: null }));
		const { output } = await run({
			resource: 'scheduledFeed',
			operation: 'getMany',
			catalogId: locator(CATALOG),
			returnAll: true,
		});
		expect(output.map((o) => o.json)).toEqual([feed]);
	});

	it('Create WEEKLY sends the weekday as repeat, all in the query', async () => {
		nock(ADS_BASE)
			.post(`${base}/scheduled_feeds`)
			.query({
				feed_url: 'https://shop.example/feed.csv',
				feed_format: 'CSV',
				frequency: 'WEEKLY',
				repeat: 'MONDAY',
				start_time: '02:30',
				time_zone: 'Europe/Berlin',
			})
			.reply(201, envelope(feed));
		const { output } = await run(create());
		expect(output[0].json).toEqual(feed);
	});

	it('Create HOURLY sends the hours; DAILY sends no repeat', async () => {
		nock(ADS_BASE)
			.post(`${base}/scheduled_feeds`)
			.query((q) => q.frequency === 'HOURLY' && q.repeat === '6')
			.reply(201, envelope(feed))
			.post(`${base}/scheduled_feeds`)
			.query((q) => q.frequency === 'DAILY' && !('repeat' in q))
			.reply(201, envelope(feed));
		await run(create({ frequency: 'HOURLY' }));
		await run(create({ frequency: 'DAILY' }));
		expect(nock.pendingMocks()).toEqual([]);
	});

	it.each([
		[
			{ everyHours: '5', frequency: 'HOURLY' },
			/Repeat: HOURLY feeds need one of 1, 2, 3, 4, 6, 8, 12 hours/,
		],
		[{ startTime: '25:00' }, /Start Time: must be HH:MM/],
		[{ startTime: '2:30' }, /Start Time: must be HH:MM/],
		[{ timeZone: 'Mars/Olympus' }, /Time Zone: "Mars\/Olympus" is not an IANA time zone name/],
		[{ timeZone: '+02:00' }, /Time Zone: .*is not an IANA time zone name/],
		[{ feedUrl: 'ftp://shop.example/feed.csv' }, /Feed URL: must be the http\(s\) URL/],
		[{ feedFormat: 'JSON' }, /Feed Format/],
	])('Create refuses %o before sending', async (extra, message) => {
		const error = await runFailure(create(extra));
		expect(error.message).toMatch(message);
	});

	it('Update sends only the changed fields; WEEKLY needs a weekday', async () => {
		nock(ADS_BASE)
			.put(`${base}/scheduled_feeds/5`)
			.query({ frequency: 'WEEKLY', repeat: 'FRIDAY', time_zone: 'America/New_York' })
			.reply(200, envelope({ ...feed, repeat: 'FRIDAY' }));
		const { output } = await run({
			resource: 'scheduledFeed',
			operation: 'update',
			catalogId: locator(CATALOG),
			feedId: '5',
			updateFields: { frequency: 'WEEKLY', weekday: 'FRIDAY', timeZone: 'America/New_York' },
		});
		expect(output[0].json.repeat).toBe('FRIDAY');
		const error = await runFailure({
			resource: 'scheduledFeed',
			operation: 'update',
			catalogId: locator(CATALOG),
			feedId: '5',
			updateFields: { frequency: 'WEEKLY' },
		});
		expect(error.message).toMatch(/Repeat: WEEKLY feeds need a weekday/);
	});

	it('Update with nothing to update fails', async () => {
		const error = await runFailure({
			resource: 'scheduledFeed',
			operation: 'update',
			catalogId: locator(CATALOG),
			feedId: '5',
			updateFields: {},
		});
		expect(error.message).toMatch(/nothing to update/);
	});

	it('Delete deletes the feed', async () => {
		nock(ADS_BASE).delete(`${base}/scheduled_feeds/5`).reply(200, envelope(feed));
		const { output } = await run({
			resource: 'scheduledFeed',
			operation: 'delete',
			catalogId: locator(CATALOG),
			feedId: '5',
		});
		expect(output[0].json).toMatchObject({ deleted: true, id: '5' });
	});
});
