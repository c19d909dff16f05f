import nock from 'nock';
import type { INodeProperties } from 'n8n-workflow';

import { ADS_BASE } from '../helpers/context';
import { A, build, node } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const props = node.description.properties;
const resources = (props.find((p) => p.name === 'resource')?.options ?? []).map(
	(o) => (o as { value: string }).value,
);

describe('AdsCreatives description', () => {
	it('offers every creatives resource the service offers and is usable as a tool', () => {
		expect(resources).toEqual([
			'card',
			'pollCard',
			'videoConversationCard',
			'imageConversationCard',
			'mediaLibrary',
			'accountMedia',
			'draftPost',
			'scheduledPost',
			'prerollCta',
			'adPost',
		]);
		expect(node.description.usableAsTool).toBe(true);
	});

	it.each(resources)(
		'%s: the ad account is a resource locator (From List, By ID) and every id is one too',
		(resource) => {
			const shown = (p: INodeProperties) => p.displayOptions?.show?.resource?.includes(resource);
			const account = props.find((p) => p.name === 'accountId' && shown(p));
			expect(account?.type).toBe('resourceLocator');
			expect(account?.modes?.map((m) => m.name)).toEqual(['list', 'id']);
			expect(account?.modes?.[0].typeOptions?.searchListMethod).toBe('searchAccounts');
			const ids = props.filter(
				(p) =>
					shown(p) &&
					/Id$|^mediaKey$/.test(p.name) &&
					p.name !== 'accountId' &&
					p.displayOptions?.show?.operation?.some((o) =>
						['get', 'delete', 'update'].includes(String(o)),
					),
			);
			for (const id of ids) {
				expect(id.type).toBe('resourceLocator');
				const method = id.modes?.find((m) => m.name === 'list')?.typeOptions?.searchListMethod;
				if (method) expect(Object.keys(node.methods.listSearch)).toContain(method);
			}
		},
	);

	it('every list operation has Return All, Limit and Max Rate Limit Wait', () => {
		for (const resource of resources.filter((r) => r !== 'adPost')) {
			const forList = (name: string) =>
				props.find(
					(p) =>
						p.name === name &&
						p.displayOptions?.show?.resource?.includes(resource) &&
						p.displayOptions?.show?.operation?.includes('getMany'),
				);
			expect(forList('returnAll')).toBeDefined();
			expect(forList('limit')).toBeDefined();
			expect(JSON.stringify(forList('options')?.options)).toContain('maxRateLimitWait');
		}
	});
});

describe('List searches', () => {
	const ctx = (account = 'acc1') =>
		build({}, { extra: { getCurrentNodeParameter: () => account } }).context;

	it('lists the ad accounts of the user', async () => {
		nock(ADS_BASE)
			.get('/12/accounts')
			.reply(200, {
				data: [
					{ id: 'acc1', name: 'Shop' },
					{ id: 'acc2', name: 'Other' },
				],
				next_cursor: 'n',
			});
		const result = await node.methods.listSearch.searchAccounts.call(ctx(), 'sho');
		expect(result.results).toEqual([{ name: 'Shop (acc1)', value: 'acc1' }]);
		expect(result.paginationToken).toBe('n');
	});

	it('says to enter the id when the service does not list accounts', async () => {
		nock(ADS_BASE)
			.get('/12/accounts')
			.reply(404, { errors: [{ code: 'NOT_FOUND', message: 'no' }] });
		const result = await node.methods.listSearch.searchAccounts.call(ctx());
		expect(result.results[0].name).toMatch(/Enter the ID/);
	});

	it('searches cards by name prefix through q', async () => {
		nock(ADS_BASE)
			.get(`${A}/cards`)
			.query({ count: '200', q: 'Spr' })
			.reply(200, { data: [{ id: 'c1', name: 'Spring' }], next_cursor: null });
		const result = await node.methods.listSearch.searchCards.call(ctx(), 'Spr');
		expect(result.results).toEqual([{ name: 'Spring (c1)', value: 'c1' }]);
	});

	it('lists media library objects by media key, and only a hint without an account', async () => {
		nock(ADS_BASE)
			.get(`${A}/media_library`)
			.query({ count: '50' })
			.reply(200, { data: [{ media_key: '3_1', name: 'Hero' }] });
		const result = await node.methods.listSearch.searchMediaLibrary.call(ctx());
		expect(result.results).toEqual([{ name: 'Hero (3_1)', value: '3_1' }]);
		expect((await node.methods.listSearch.searchMediaLibrary.call(ctx(''))).results).toEqual([
			{ name: 'Choose an Ad Account First', value: '' },
		]);
	});
});
