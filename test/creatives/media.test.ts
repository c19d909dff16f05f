import nock from 'nock';

import { ADS_BASE } from '../helpers/context';
import { A, build, failure, node, queryOf, rl, run } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('Media Library', () => {
	it('adds an uploaded media key with names', async () => {
		nock(ADS_BASE)
			.post(`${A}/media_library`)
			.query(true)
			.reply(201, { data: { media_key: '13_9', media_type: 'VIDEO' } });
		const { out, requests } = await run({
			resource: 'mediaLibrary',
			operation: 'create',
			mediaKey: ' 13_9 ',
			additionalFields: { name: 'Teaser', title: 'Spring', description: 'New range' },
		});
		expect(queryOf(requests[0].url)).toEqual({
			media_key: '13_9',
			name: 'Teaser',
			title: 'Spring',
			description: 'New range',
		});
		expect(out[0].json.media_type).toBe('VIDEO');
	});

	it.each([
		['name', 101, /Name: at most 100 characters/],
		['file_name', 256, /File Name: at most 255 characters/],
		['title', 71, /Title: at most 70 characters/],
		['description', 201, /Description: at most 200 characters/],
	])('refuses a %s of %i characters before any request', async (field, length, message) => {
		const built = build({
			resource: 'mediaLibrary',
			operation: 'create',
			mediaKey: '3_1',
			additionalFields: { [field]: 'x'.repeat(length) },
		});
		expect((await failure(node.execute.call(built.context))).message).toMatch(message);
		expect(built.requests).toHaveLength(0);
	});

	it('updates a media library object by its media key', async () => {
		nock(ADS_BASE)
			.put(`${A}/media_library/3_1`)
			.query({ name: 'Hero' })
			.reply(200, { data: { media_key: '3_1', name: 'Hero' } });
		const { out } = await run({
			resource: 'mediaLibrary',
			operation: 'update',
			mediaKey: rl('3_1'),
			updateFields: { name: 'Hero' },
		});
		expect(out[0].json.name).toBe('Hero');
	});

	it('refuses a media key locator that is not a media key', async () => {
		const built = build({ resource: 'mediaLibrary', operation: 'get', mediaKey: rl('3-1') });
		expect((await failure(node.execute.call(built.context))).message).toMatch(/Media Key.*item 1/);
		expect(built.requests).toHaveLength(0);
	});

	it('lists by media type and term with count up to 50, then gets and deletes', async () => {
		const built = build({
			resource: 'mediaLibrary',
			operation: 'getMany',
			returnAll: true,
			filters: { mediaType: 'IMAGE', q: 'hero' },
		});
		nock(ADS_BASE)
			.get(`${A}/media_library`)
			.query({ count: '50', media_type: 'IMAGE', q: 'hero' })
			.reply(200, { data: [{ media_key: '3_1' }], next_cursor: 'n' })
			.get(`${A}/media_library`)
			.query({ count: '50', media_type: 'IMAGE', q: 'hero', cursor: 'n' })
			.reply(200, { data: [{ media_key: '3_2' }], next_cursor: null })
			.get(`${A}/media_library/3_1`)
			.reply(200, { data: { media_key: '3_1' } })
			.delete(`${A}/media_library/3_1`)
			.reply(200, { data: { media_key: '3_1', deleted: true } });
		const [out] = await node.execute.call(built.context);
		expect(out.map((o) => o.json.media_key)).toEqual(['3_1', '3_2']);
		expect(
			(await run({ resource: 'mediaLibrary', operation: 'get', mediaKey: rl('3_1') })).out[0].json
				.media_key,
		).toBe('3_1');
		expect(
			(await run({ resource: 'mediaLibrary', operation: 'delete', mediaKey: rl('3_1') })).out[0]
				.json.deleted,
		).toBe(true);
	});
});

describe('Account Media', () => {
	it('lists by creative types and ids, sorted', async () => {
		const built = build({
			resource: 'accountMedia',
			operation: 'getMany',
			returnAll: false,
			limit: 10,
			filters: { creativeTypes: ['PREROLL', 'BANNER'], accountMediaIds: 'a1' },
			options: { sortBy: 'created_at' },
		});
		nock(ADS_BASE)
			.get(`${A}/account_media`)
			.query(true)
			.reply(200, { data: [{ id: 'a1', creative_type: 'PREROLL' }], next_cursor: null });
		const [out] = await node.execute.call(built.context);
		expect(out[0].json.creative_type).toBe('PREROLL');
		expect(queryOf(built.requests[0].url)).toEqual({
			count: '10',
			creative_types: 'PREROLL,BANNER',
			account_media_ids: 'a1',
			sort_by: 'created_at-asc',
		});
	});

	it('refuses a sort attribute that is not a name', async () => {
		const built = build({
			resource: 'accountMedia',
			operation: 'getMany',
			returnAll: true,
			options: { sortBy: 'created_at; drop' },
		});
		expect((await failure(node.execute.call(built.context))).message).toMatch(
			/Sort By: "created_at; drop" is not an attribute name/,
		);
		expect(built.requests).toHaveLength(0);
	});

	it('gets and soft-deletes account media', async () => {
		nock(ADS_BASE)
			.get(`${A}/account_media/a1`)
			.query({ with_deleted: 'true' })
			.reply(200, { data: { id: 'a1', deleted: true } })
			.delete(`${A}/account_media/a1`)
			.reply(200, { data: { id: 'a1', deleted: true } });
		expect(
			(
				await run({
					resource: 'accountMedia',
					operation: 'get',
					accountMediaId: rl('a1'),
					options: { withDeleted: true },
				})
			).out[0].json.deleted,
		).toBe(true);
		expect(
			(await run({ resource: 'accountMedia', operation: 'delete', accountMediaId: rl('a1') }))
				.out[0].json.id,
		).toBe('a1');
	});
});

describe('Preroll Call-to-Action', () => {
	it('creates, updates, lists, gets and deletes', async () => {
		nock(ADS_BASE)
			.post(`${A}/preroll_call_to_actions`)
			.query({
				line_item_id: '8v7jo',
				call_to_action: 'SHOP',
				call_to_action_url: 'https://shop.example',
			})
			.reply(201, { data: { id: 'r1' } })
			.put(`${A}/preroll_call_to_actions/r1`)
			.query({ call_to_action: 'WATCH_NOW' })
			.reply(200, { data: { id: 'r1', call_to_action: 'WATCH_NOW' } })
			.get(`${A}/preroll_call_to_actions`)
			.query({ count: '2', line_item_ids: '8v7jo' })
			.reply(200, { data: [{ id: 'r1' }], next_cursor: null })
			.get(`${A}/preroll_call_to_actions/r1`)
			.reply(200, { data: { id: 'r1' } })
			.delete(`${A}/preroll_call_to_actions/r1`)
			.reply(200, { data: { id: 'r1', deleted: true } });
		const base = { resource: 'prerollCta' };
		expect(
			(
				await run({
					...base,
					operation: 'create',
					lineItemId: '8v7jo',
					call_to_action: 'SHOP',
					call_to_action_url: 'https://shop.example',
				})
			).out[0].json.id,
		).toBe('r1');
		expect(
			(
				await run({
					...base,
					operation: 'update',
					prerollCtaId: rl('r1'),
					updateFields: { call_to_action: 'WATCH_NOW' },
				})
			).out[0].json.call_to_action,
		).toBe('WATCH_NOW');
		expect(
			(
				await run({
					...base,
					operation: 'getMany',
					returnAll: false,
					limit: 2,
					filters: { lineItemIds: '8v7jo' },
				})
			).out,
		).toHaveLength(1);
		expect((await run({ ...base, operation: 'get', prerollCtaId: rl('r1') })).out[0].json.id).toBe(
			'r1',
		);
		expect(
			(await run({ ...base, operation: 'delete', prerollCtaId: rl('r1') })).out[0].json.deleted,
		).toBe(true);
	});

	it('refuses a URL that is not one and an unknown call to action', async () => {
		const url = build({
			resource: 'prerollCta',
			operation: 'create',
			lineItemId: 'l1',
			call_to_action: 'SHOP',
			call_to_action_url: 'shop',
		});
		expect((await failure(node.execute.call(url.context))).message).toMatch(
			/Call-to-Action URL: must be a URL/,
		);
		const cta = build({
			resource: 'prerollCta',
			operation: 'create',
			lineItemId: 'l1',
			call_to_action: 'BUY',
			call_to_action_url: 'https://a.b',
		});
		expect((await failure(node.execute.call(cta.context))).message).toMatch(
			/Call to Action: must be one of GO_TO/,
		);
		expect([...url.requests, ...cta.requests]).toHaveLength(0);
	});
});

describe('With Total Count (account media, poll cards, video conversation cards, preroll call-to-actions)', () => {
	it.each([
		['accountMedia', 'account_media'],
		['pollCard', 'cards/poll'],
		['videoConversationCard', 'cards/video_conversation'],
		['prerollCta', 'preroll_call_to_actions'],
	])(
		'%s: asks for total_count with the first page only (never with a cursor) and adds it to every item',
		async (resource, path) => {
			nock(ADS_BASE)
				.get(`${A}/${path}`)
				.query({ count: '1000', with_total_count: 'true' })
				.reply(200, { data: [{ id: 'x1' }], next_cursor: 'c2', total_count: 2 })
				.get(`${A}/${path}`)
				.query({ count: '1000', cursor: 'c2' })
				.reply(200, { data: [{ id: 'x2' }], next_cursor: null });
			const { out, requests } = await run({
				resource,
				operation: 'getMany',
				returnAll: true,
				options: { withTotalCount: true },
			});
			expect(requests).toHaveLength(2);
			expect(out.map((o) => o.json)).toEqual([
				{ id: 'x1', total_count: 2 },
				{ id: 'x2', total_count: 2 },
			]);
			expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
		},
	);

	it('is not offered, and not sent, where the endpoint does not take it', async () => {
		const props = node.description.properties;
		const offered = (resource: string) =>
			props.some(
				(p) =>
					p.name === 'options' &&
					p.displayOptions?.show?.resource?.includes(resource) &&
					p.displayOptions?.show?.operation?.includes('getMany') &&
					JSON.stringify(p.options).includes('withTotalCount'),
			);
		expect(
			['accountMedia', 'pollCard', 'videoConversationCard', 'prerollCta'].filter(offered),
		).toHaveLength(4);
		expect(['card', 'mediaLibrary', 'draftPost', 'scheduledPost'].filter(offered)).toEqual([]);
		nock(ADS_BASE)
			.get(`${A}/cards`)
			.query({ count: '200' })
			.reply(200, { data: [{ id: 'c1' }], next_cursor: null });
		const { out } = await run({
			resource: 'card',
			operation: 'getMany',
			returnAll: true,
			options: { withTotalCount: true },
		});
		expect(out[0].json).toEqual({ id: 'c1' });
	});
});
