import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { ADS_BASE } from '../helpers/context';
import { A, build, failure, node, queryOf, rl, run } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const websiteCard = {
	resource: 'card',
	operation: 'create',
	name: 'Launch',
	mode: 'builder',
	mediaType: 'MEDIA',
	mediaKeys: '3_111',
	action: 'DETAILS',
	title: 'Our launch',
	websiteUrl: 'https://example.com/launch',
};

const cardBody = { id: 'c1', card_uri: 'card://99', name: 'Launch' };

describe('Card → Create', () => {
	it('builds MEDIA + DETAILS and posts JSON signed with OAuth 1.0a', async () => {
		let sent: IDataObject = {};
		nock(ADS_BASE)
			.post(`${A}/cards`, (b) => {
				sent = b;
				return true;
			})
			.reply(200, { data: cardBody, request: { params: {} } });
		const built = build(websiteCard);
		const [out] = await node.execute.call(built.context);
		expect(sent).toEqual({
			name: 'Launch',
			components: [
				{ type: 'MEDIA', media_key: '3_111' },
				{
					type: 'DETAILS',
					title: 'Our launch',
					destination: { type: 'WEBSITE', url: 'https://example.com/launch' },
				},
			],
		});
		expect(built.requests[0].headers['content-type']).toMatch(/application\/json/);
		expect(built.requests[0].headers.authorization).toMatch(/^OAuth .*oauth_signature=/);
		expect(out[0].json.card_uri).toBe('card://99');
		expect(out[0].pairedItem).toEqual({ item: 0 });
	});

	it('builds SWIPEABLE_MEDIA + BUTTON with an app destination', async () => {
		let sent: IDataObject = {};
		nock(ADS_BASE)
			.post(`${A}/cards`, (b) => {
				sent = b;
				return true;
			})
			.reply(200, { data: cardBody });
		await run({
			...websiteCard,
			mediaType: 'SWIPEABLE_MEDIA',
			mediaKeys: '3_1, 13_2',
			action: 'BUTTON',
			label: 'SHOP',
			app: {
				country_code: 'US',
				partneraplay_app_id: 'com.shop',
				partneraplay_deep_link: 'shop://home',
				partnerb_app_store_identifier: '',
			},
		});
		expect(sent.components).toEqual([
			{ type: 'SWIPEABLE_MEDIA', media_keys: ['3_1', '13_2'] },
			{
				type: 'BUTTON',
				label: { type: 'ENUM', value: 'SHOP' },
				destination: {
					type: 'APP',
					country_code: 'US',
					partneraplay_app_id: 'com.shop',
					partneraplay_deep_link: 'shop://home',
				},
			},
		]);
	});

	it('sends slides of a multi-destination carousel from raw JSON', async () => {
		let sent: IDataObject = {};
		nock(ADS_BASE)
			.post(`${A}/cards`, (b) => {
				sent = b;
				return true;
			})
			.reply(200, { data: cardBody });
		const slide = (k: string, url: string) => [
			{ type: 'MEDIA', media_key: k },
			{ type: 'DETAILS', title: 'T', destination: { type: 'WEBSITE', url } },
		];
		const slides = [slide('3_1', 'https://a.example'), slide('3_2', 'https://b.example')];
		await run({
			resource: 'card',
			operation: 'create',
			name: 'Carousel',
			mode: 'json',
			cardJson: JSON.stringify({ slides }),
		});
		expect(sent).toEqual({ name: 'Carousel', slides });
	});

	const bad: Array<[string, IDataObject, RegExp]> = [
		[
			'1 swipeable media key',
			{ mediaType: 'SWIPEABLE_MEDIA', mediaKeys: '3_1' },
			/Media Items.*: needs 2 to 6 media keys/,
		],
		[
			'7 swipeable media keys',
			{ mediaType: 'SWIPEABLE_MEDIA', mediaKeys: '3_1,3_2,3_3,3_4,3_5,3_6,3_7' },
			/Media Items.*: needs 2 to 6 media keys/,
		],
		['a name of 81 characters', { name: 'n'.repeat(81) }, /Name: at most 80 characters/],
		[
			'a deep link without its store id',
			{
				action: 'BUTTON',
				label: 'INSTALL',
				app: {
					country_code: 'US',
					partnerb_app_store_identifier: '123',
					partneraplay_deep_link: 'app://x',
				},
			},
			/Store A Deep Link.*: needs its store app ID/,
		],
		[
			'a store B deep link without its store id',
			{
				action: 'BUTTON',
				label: 'INSTALL',
				app: { country_code: 'US', partneraplay_app_id: 'a.b', partnerb_deep_link: 'app://x' },
			},
			/Store B Deep Link.*: needs its store app ID/,
		],
		[
			'a button without a store id',
			{ action: 'BUTTON', label: 'INSTALL', app: { country_code: 'US' } },
			/at least one store app ID is required/,
		],
		[
			'a country code that is not ISO alpha-2',
			{
				action: 'BUTTON',
				label: 'INSTALL',
				app: { country_code: 'USA', partneraplay_app_id: 'a.b' },
			},
			/Country Code.*: an ISO 3166-1 alpha-2 code/,
		],
		[
			'a website that is not a URL',
			{ websiteUrl: 'not a url' },
			/Destination.*must be a URL|url.*must be a URL/,
		],
		['a media key that is not one', { mediaKeys: 'abc' }, /Media Key.*: a media key looks like/],
	];
	it.each(bad)('refuses %s before any request', async (_label, change, message) => {
		const built = build({ ...websiteCard, ...change });
		const error = await failure(node.execute.call(built.context));
		expect(error.message).toMatch(message);
		expect(error.message).toContain('item 1');
		expect(built.requests).toHaveLength(0);
	});

	it('refuses a BUTTON with a WEBSITE destination (raw JSON mode)', async () => {
		const built = build({
			resource: 'card',
			operation: 'create',
			name: 'x',
			mode: 'json',
			cardJson: JSON.stringify({
				components: [
					{ type: 'MEDIA', media_key: '3_1' },
					{
						type: 'BUTTON',
						label: { type: 'ENUM', value: 'SHOP' },
						destination: { type: 'WEBSITE', url: 'https://a.b' },
					},
				],
			}),
		});
		const error = await failure(node.execute.call(built.context));
		expect(error.message).toMatch(/a BUTTON needs an APP destination, not WEBSITE/);
		expect(built.requests).toHaveLength(0);
	});

	it('refuses raw JSON with both components and slides, and JSON that does not parse', async () => {
		const both = build({
			resource: 'card',
			operation: 'create',
			name: 'x',
			mode: 'json',
			cardJson: '{"components":[],"slides":[]}',
		});
		const error = await failure(node.execute.call(both.context));
		expect(`${error.message}\n${error.description}`).toMatch(
			/Components: give exactly one of components or slides/,
		);
		const broken = build({
			resource: 'card',
			operation: 'create',
			name: 'x',
			mode: 'json',
			cardJson: '{"components": [',
		});
		expect((await failure(node.execute.call(broken.context))).message).toMatch(
			/Card JSON is not valid JSON/,
		);
		expect([...both.requests, ...broken.requests]).toHaveLength(0);
	});

	it('fails only the bad item when Continue On Fail is on', async () => {
		nock(ADS_BASE).post(`${A}/cards`).reply(200, { data: cardBody });
		const built = build((i) => ({ ...websiteCard, name: i === 0 ? 'n'.repeat(81) : 'Fine' }), {
			items: [{}, {}],
			continueOnFail: true,
		});
		const [out] = await node.execute.call(built.context);
		expect(out).toHaveLength(2);
		expect(out[0].json.error).toMatch(/item 1: Name: at most 80 characters/);
		expect(out[1].json.card_uri).toBe('card://99');
		expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(built.requests).toHaveLength(1);
	});

	it('is never retried on a 5xx (a create)', async () => {
		nock(ADS_BASE)
			.post(`${A}/cards`)
			.times(3)
			.reply(503, { errors: [{ code: 'SERVICE_UNAVAILABLE', message: 'down' }] });
		const built = build(websiteCard);
		await failure(node.execute.call(built.context));
		expect(built.requests).toHaveLength(1);
	});

	it('refuses an ad account id that is not one, before any request', async () => {
		const built = build({ ...websiteCard, accountId: rl('../x') });
		expect((await failure(node.execute.call(built.context))).message).toMatch(/Ad Account.*item 1/);
		expect(built.requests).toHaveLength(0);
	});
});

describe('Card → Get, Update, Delete', () => {
	it('gets a card (data is an array holding it) with deleted ones on request', async () => {
		nock(ADS_BASE)
			.get(`${A}/cards/c1`)
			.query({ with_deleted: 'true' })
			.reply(200, { data: [{ ...cardBody, deleted: true }] });
		const { out } = await run({
			resource: 'card',
			operation: 'get',
			cardId: rl('c1'),
			options: { withDeleted: true },
		});
		expect(out[0].json).toMatchObject({ id: 'c1', deleted: true });
	});

	it('updates only the name and keeps the components', async () => {
		let sent: IDataObject = {};
		nock(ADS_BASE)
			.put(`${A}/cards/c1`, (b) => {
				sent = b;
				return true;
			})
			.reply(200, { data: [{ ...cardBody, name: 'Renamed' }] });
		const { out } = await run({
			resource: 'card',
			operation: 'update',
			cardId: rl('c1', 'list'),
			name: 'Renamed',
			mode: 'keep',
		});
		expect(sent).toEqual({ name: 'Renamed' });
		expect(out[0].json.name).toBe('Renamed');
	});

	it('replaces the components with the builder', async () => {
		let sent: IDataObject = {};
		nock(ADS_BASE)
			.put(`${A}/cards/c1`, (b) => {
				sent = b;
				return true;
			})
			.reply(200, { data: [cardBody] });
		await run({ ...websiteCard, operation: 'update', cardId: rl('c1'), name: '', mode: 'builder' });
		expect(sent).toEqual({
			components: [
				{ type: 'MEDIA', media_key: '3_111' },
				{
					type: 'DETAILS',
					title: 'Our launch',
					destination: { type: 'WEBSITE', url: 'https://example.com/launch' },
				},
			],
		});
	});

	it('refuses an update with nothing to change', async () => {
		const built = build({
			resource: 'card',
			operation: 'update',
			cardId: rl('c1'),
			name: '',
			mode: 'keep',
		});
		expect((await failure(node.execute.call(built.context))).message).toMatch(/nothing to update/);
		expect(built.requests).toHaveLength(0);
	});

	it('deletes a card (soft) and returns it with deleted true', async () => {
		nock(ADS_BASE)
			.delete(`${A}/cards/c1`)
			.reply(200, { data: [{ ...cardBody, deleted: true }] });
		const { out } = await run({ resource: 'card', operation: 'delete', cardId: rl('c1') });
		expect(out[0].json.deleted).toBe(true);
	});

	it('deletes an image conversation card', async () => {
		nock(ADS_BASE)
			.delete(`${A}/cards/image_conversation/4i0ya`)
			.reply(200, { data: { id: '4i0ya', card_type: 'IMAGE_CONVERSATION', deleted: true } });
		const { out } = await run({
			resource: 'card',
			operation: 'deleteImageConversation',
			imageConversationCardId: rl('4i0ya'),
		});
		expect(out[0].json.card_type).toBe('IMAGE_CONVERSATION');
	});
});

describe('Card → Get Many and by URI', () => {
	it('lists with a limit via cursor, count within 1-200, and sends the filters', async () => {
		const built = build({
			resource: 'card',
			operation: 'getMany',
			returnAll: false,
			limit: 3,
			filters: { q: 'Spring', cardTypes: ['IMAGE_WEBSITE', 'VIDEO_WEBSITE'], cardIds: 'a, b' },
			options: { withDeleted: true, sortBy: 'created_at', sortDirection: 'desc' },
		});
		nock(ADS_BASE)
			.get(`${A}/cards`)
			.query(true)
			.reply(200, { data: [{ id: 'a' }, { id: 'b' }], next_cursor: 'c' })
			.get(`${A}/cards`)
			.query(true)
			.reply(200, { data: [{ id: 'c' }, { id: 'd' }], next_cursor: 'd' });
		const [out] = await node.execute.call(built.context);
		expect(out.map((i) => i.json.id)).toEqual(['a', 'b', 'c']);
		expect(queryOf(built.requests[0].url)).toEqual({
			count: '3',
			q: 'Spring',
			card_types: 'IMAGE_WEBSITE,VIDEO_WEBSITE',
			card_id: 'a,b',
			with_deleted: 'true',
			sort_by: 'created_at-desc',
		});
		expect(queryOf(built.requests[1].url)).toMatchObject({ count: '1', cursor: 'c' });
	});

	it('Return All pages with the endpoint maximum (200) until next_cursor is null', async () => {
		const built = build({ resource: 'card', operation: 'getMany', returnAll: true });
		nock(ADS_BASE)
			.get(`${A}/cards`)
			.query({ count: '200' })
			.reply(200, { data: [{ id: 'a' }], next_cursor: 'n' })
			.get(`${A}/cards`)
			.query({ count: '200', cursor: 'n' })
			.reply(200, { data: [{ id: 'b' }], next_cursor: null });
		const [out] = await node.execute.call(built.context);
		expect(out.map((i) => i.json.id)).toEqual(['a', 'b']);
	});

	it('refuses 201 card IDs and a name prefix over 80 characters', async () => {
		const ids = Array.from({ length: 201 }, (_, i) => `c${i}`).join(',');
		const many = build({
			resource: 'card',
			operation: 'getMany',
			returnAll: true,
			filters: { cardIds: ids },
		});
		expect((await failure(node.execute.call(many.context))).message).toMatch(
			/Card IDs: at most 200 values/,
		);
		const long = build({
			resource: 'card',
			operation: 'getMany',
			returnAll: true,
			filters: { q: 'q'.repeat(81) },
		});
		expect((await failure(node.execute.call(long.context))).message).toMatch(
			/Name Prefix: at most 80 characters/,
		);
		expect([...many.requests, ...long.requests]).toHaveLength(0);
	});

	it('gets cards of any type by URI', async () => {
		nock(ADS_BASE)
			.get(`${A}/cards/all`)
			.query({ card_uris: 'card://1,card://2' })
			.reply(200, {
				data: [
					{ id: 'x', card_type: 'IMAGE_APP_DOWNLOAD' },
					{ id: 'y', card_type: 'VIDEO_POLLS' },
				],
			});
		const { out } = await run({
			resource: 'card',
			operation: 'getByUris',
			cardUris: 'card://1, card://2',
		});
		expect(out.map((o) => o.json.card_type)).toEqual(['IMAGE_APP_DOWNLOAD', 'VIDEO_POLLS']);
	});

	it('refuses a card URI that is not one', async () => {
		const built = build({
			resource: 'card',
			operation: 'getByUris',
			cardUris: 'card://1, https://x',
		});
		expect((await failure(node.execute.call(built.context))).message).toMatch(
			/Card URIs: "https:\/\/x" is not a card URI/,
		);
		expect(built.requests).toHaveLength(0);
	});
});
