import nock from 'nock';

import { AdsCatalog } from '../../nodes/AdsCatalog/AdsCatalog.node';
import { CREDENTIAL_TYPES } from '../../nodes/shared/transport';
import { ADS_BASE, createContext } from '../helpers/context';
import { CATALOG, envelope, locator, run, runFailure } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('node description', () => {
	it('is the Ads Catalog action node: OAuth 1.0a only, usable as a tool, four resources', () => {
		const d = new AdsCatalog().description;
		expect(d.name).toBe('adsCatalog');
		expect(d.displayName).toBe('Platform Ads Catalog');
		expect(d.usableAsTool).toBe(true);
		expect(d.icon).toEqual({
			light: 'file:../../icons/ads.svg',
			dark: 'file:../../icons/ads.dark.svg',
		});
		expect(d.credentials?.map((c) => c.name)).toEqual([
			'platformOAuth1Api',
			'platformOAuth1ConnectApi',
		]);
		const resource = d.properties.find((p) => p.name === 'resource');
		expect(resource?.options?.map((o) => (o as { value: string }).value)).toEqual([
			'catalog',
			'product',
			'productSet',
			'scheduledFeed',
		]);
		const catalogFields = d.properties.filter((p) => p.name === 'catalogId');
		// Every operation but Catalog > Create and Get Many works within a catalog chosen by a
		// locator: exactly one Catalog field is shown for each of them.
		const shownFor = (resource: string, operation: string) =>
			catalogFields.filter((f) => {
				const show = f.displayOptions?.show ?? {};
				return (
					(show.resource as string[]).includes(resource) &&
					(!show.operation || (show.operation as string[]).includes(operation))
				);
			}).length;
		const operations = d.properties.filter((p) => p.name === 'operation');
		let withCatalog = 0;
		for (const field of operations) {
			const resource = (field.displayOptions?.show?.resource as string[])[0];
			for (const { value } of field.options as Array<{ value: string }>) {
				const needsCatalog = !(resource === 'catalog' && ['create', 'getMany'].includes(value));
				expect([resource, value, shownFor(resource, value)]).toEqual([
					resource,
					value,
					needsCatalog ? 1 : 0,
				]);
				if (needsCatalog) withCatalog++;
			}
		}
		expect(withCatalog).toBeGreaterThan(10);
		for (const f of catalogFields) {
			expect(f.type).toBe('resourceLocator');
			expect(f.modes?.find((m) => m.name === 'list')?.typeOptions?.searchListMethod).toBe(
				'searchCatalogs',
			);
		}
		for (const f of d.properties.filter((p) => p.name === 'productSetId')) {
			expect(f.modes?.find((m) => m.name === 'list')?.typeOptions?.searchListMethod).toBe(
				'searchProductSets',
			);
		}
	});
});

describe('Catalog', () => {
	it('Get Many with Return All follows next_cursor', async () => {
		nock(ADS_BASE)
			.get('/12/product_catalogs')
			.query({ user_id: '42' })
			.reply(200, envelope([{ id: '1', name: 'A' }], { next_cursor: 'c2' }))
			.get('/12/product_catalogs')
			.query({ user_id: '42', cursor: 'c2' })
			.reply(200, envelope([{ id: '2', name: 'B' }], { next_cursor: null }));
		const { output, requests } = await run({
			resource: 'catalog',
			operation: 'getMany',
			userId: '42',
			returnAll: true,
		});
		expect(output.map((o) => o.json)).toEqual([
			{ id: '1', name: 'A' },
			{ id: '2', name: 'B' },
		]);
		expect(requests[0].headers.authorization).toMatch(/^OAuth /);
	});

	it('Get Many with a limit stops early', async () => {
		nock(ADS_BASE)
			.get('/12/product_catalogs')
			.reply(200, envelope([{ id: '1' }, { id: '2' }], { next_cursor: 'more' }));
		const { output, requests } = await run({
			resource: 'catalog',
			operation: 'getMany',
			returnAll: false,
			limit: 1,
		});
		expect(output).toHaveLength(1);
		expect(requests).toHaveLength(1);
	});

	it('Create sends name (and user_id) in the query', async () => {
		nock(ADS_BASE)
			.post('/12/product_catalogs')
			.query({ name: 'Shop', user_id: '1000000001' })
			.reply(201, envelope({ id: '9', name: 'Shop' }));
		const { output } = await run({
			resource: 'catalog',
			operation: 'create',
			name: ' Shop ',
			userId: '1000000001',
		});
		expect(output).toEqual([{ json: { id: '9', name: 'Shop' }, pairedItem: { item: 0 } }]);
	});

	it('Create says plainly that a user can have only one catalog', async () => {
		nock(ADS_BASE)
			.post('/12/product_catalogs')
			.query(true)
			.reply(400, {
				errors: [
					{
						code: 'INVALID_PARAMETER',
						message: 'A user can create only one product catalog',
						parameter: 'user_id',
					},
				],
				request: { params: {} },
			});
		const error = await runFailure({ resource: 'catalog', operation: 'create', name: 'Second' });
		expect(error.message).toBe(
			'This user already has a product catalog: the service allows only one per user',
		);
		expect(error.description).toMatch(/Use the existing catalog/);
	});

	it('Create refuses an empty name before any request', async () => {
		const error = await runFailure({ resource: 'catalog', operation: 'create', name: '  ' });
		expect(error.message).toMatch(/Invalid input in item 1: Name: must not be empty/);
	});

	it('Update renames (name in the query)', async () => {
		nock(ADS_BASE)
			.put(`/12/product_catalogs/${CATALOG}`)
			.query({ name: 'New' })
			.reply(200, envelope({ id: CATALOG, name: 'New' }));
		const { output } = await run({
			resource: 'catalog',
			operation: 'update',
			catalogId: locator(CATALOG, 'list'),
			name: 'New',
		});
		expect(output[0].json).toEqual({ id: CATALOG, name: 'New' });
	});

	it('Delete deletes the catalog and marks it deleted', async () => {
		nock(ADS_BASE)
			.delete(`/12/product_catalogs/${CATALOG}`)
			.reply(200, envelope({ id: CATALOG, name: 'Shop' }));
		const { output } = await run({
			resource: 'catalog',
			operation: 'delete',
			catalogId: locator(CATALOG),
		});
		expect(output[0].json).toEqual({ deleted: true, id: CATALOG, name: 'Shop' });
		const notice = new AdsCatalog().description.properties.find(
			(p) => p.type === 'notice' && p.displayOptions?.show?.resource?.[0] === 'catalog',
		);
		expect(notice?.displayName).toMatch(/permanent/);
	});

	it('refuses a catalog ID that is not an ID', async () => {
		const error = await runFailure({
			resource: 'catalog',
			operation: 'delete',
			catalogId: locator('../x'),
		});
		expect(error.message).toMatch(/"Catalog" in item 1 is not valid/);
	});

	it('continueOnFail turns a failure into an output item', async () => {
		nock(ADS_BASE)
			.delete(`/12/product_catalogs/${CATALOG}`)
			.reply(404, { errors: [{ code: 'NOT_FOUND', message: 'Product catalog not found' }] });
		const { output } = await run(
			{ resource: 'catalog', operation: 'delete', catalogId: locator(CATALOG) },
			[{ json: {} }],
			{ continueOnFail: true },
		);
		expect(output[0].json.error).toMatch(/Product catalog not found/);
		expect(output[0].pairedItem).toEqual({ item: 0 });
	});
});

describe('list search', () => {
	const ctx = (parameters = {}) =>
		createContext({
			parameters: { authentication: CREDENTIAL_TYPES.hmac, ...parameters },
			extra: { getCurrentNodeParameter: () => CATALOG },
		});

	it('searchCatalogs lists and filters catalogs, with the cursor as pagination token', async () => {
		nock(ADS_BASE)
			.get('/12/product_catalogs')
			.query({ cursor: 'p2' })
			.reply(
				200,
				envelope(
					[
						{ id: '1', name: 'Summer shop' },
						{ id: '2', name: 'Winter' },
					],
					{ next_cursor: 'p3' },
				),
			);
		const node = new AdsCatalog();
		const result = await node.methods.listSearch.searchCatalogs.call(ctx().context, 'summer', 'p2');
		expect(result).toEqual({
			results: [{ name: 'Summer shop (1)', value: '1' }],
			paginationToken: 'p3',
		});
	});

	it.each([
		[404, { errors: [{ code: 'ROUTE_NOT_FOUND', message: 'not found' }] }],
		[405, { type: 'about:blank', title: 'Method Not Allowed', status: 405 }],
	])(
		'searchProductSets explains that the service offers no list when it answers %s',
		async (status, body) => {
			nock(ADS_BASE).get(`/12/product_catalogs/${CATALOG}/product_sets`).reply(status, body);
			const result = await new AdsCatalog().methods.listSearch.searchProductSets.call(
				ctx().context,
			);
			expect(result).toEqual({
				results: [
					{ name: 'Listing Product Sets Is Not Offered by the Service: Enter the ID', value: '' },
				],
			});
		},
	);

	it('searchProductSets lists sets when the service has the endpoint', async () => {
		nock(ADS_BASE)
			.get(`/12/product_catalogs/${CATALOG}/product_sets`)
			.reply(200, envelope([{ id: '5', name: 'Shoes', type: 'MANUAL' }], { next_cursor: null }));
		const result = await new AdsCatalog().methods.listSearch.searchProductSets.call(ctx().context);
		expect(result.results).toEqual([{ name: 'Shoes (MANUAL)', value: '5' }]);
	});
});
