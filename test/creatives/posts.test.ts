import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { ADS_BASE } from '../helpers/context';
import { A, build, failure, node, queryOf, rl, run } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const inAnHour = () => new Date(Date.now() + 3600_000);

describe('Draft Post', () => {
	it('creates a draft with media keys as a comma list', async () => {
		nock(ADS_BASE)
			.post(`${A}/draft_tweets`)
			.query(true)
			.reply(201, { data: { id: '99', media_keys: ['3_1', '3_2'] } });
		const { out, requests } = await run({
			resource: 'draftPost',
			operation: 'create',
			asUserId: '12',
			text: '',
			additionalFields: { media_keys: '3_1, 3_2', card_uri: 'card://5' },
		});
		expect(queryOf(requests[0].url)).toEqual({
			as_user_id: '12',
			media_keys: '3_1,3_2',
			card_uri: 'card://5',
		});
		expect(out[0].json.id).toBe('99');
	});

	const bad: Array<[string, IDataObject, RegExp]> = [
		[
			'5 images',
			{ additionalFields: { media_keys: '3_1,3_2,3_3,3_4,3_5' } },
			/Media: at most 4 images/,
		],
		[
			'a video with an image',
			{ additionalFields: { media_keys: '13_1,3_2' } },
			/Media: a GIF or a video must be the only media/,
		],
		[
			'two GIFs',
			{ additionalFields: { media_keys: '16_1,16_2' } },
			/Media: a GIF or a video must be the only media/,
		],
		['neither text nor media', { text: '' }, /Text: is required when there is no media/],
		[
			'a user id that is a name',
			{ asUserId: '@shop' },
			/Post As \(User ID\): a user ID is 1-19 digits/,
		],
		[
			'a card URI that is not one',
			{ additionalFields: { card_uri: 'https://card' } },
			/Card: a card URI looks like/,
		],
	];
	it.each(bad)('refuses %s before any request', async (_label, change, message) => {
		const built = build({
			resource: 'draftPost',
			operation: 'create',
			asUserId: '12',
			text: 'Hi',
			additionalFields: {},
			...change,
		});
		const error = await failure(node.execute.call(built.context));
		expect(error.message).toMatch(message);
		expect(error.message).toContain('item 1');
		expect(built.requests).toHaveLength(0);
	});

	it('lists drafts of a user and gets one', async () => {
		nock(ADS_BASE)
			.get(`${A}/draft_tweets`)
			.query({ count: '200', user_id: '12' })
			.reply(200, { data: [{ id: '1' }], next_cursor: null })
			.get(`${A}/draft_tweets/1`)
			.reply(200, { data: { id: '1' } });
		expect(
			(
				await run({
					resource: 'draftPost',
					operation: 'getMany',
					returnAll: true,
					filters: { userId: '12' },
				})
			).out,
		).toHaveLength(1);
		expect(
			(await run({ resource: 'draftPost', operation: 'get', draftPostId: rl('1') })).out[0].json.id,
		).toBe('1');
	});
});

describe('Scheduled Post', () => {
	it('schedules a post with the card of a previous step, nullcast by default', async () => {
		nock(ADS_BASE)
			.post(`${A}/scheduled_tweets`)
			.query(true)
			.reply(201, { data: { id: 's1', scheduled_status: 'SCHEDULED' } });
		const at = inAnHour();
		const { out, requests } = await run({
			resource: 'scheduledPost',
			operation: 'create',
			asUserId: '12',
			scheduledAt: at.toISOString(),
			text: 'Soon',
			additionalFields: { card_uri: 'card://99' },
		});
		expect(queryOf(requests[0].url)).toEqual({
			as_user_id: '12',
			scheduled_at: at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
			text: 'Soon',
			card_uri: 'card://99',
			nullcast: 'true',
		});
		expect(out[0].json.id).toBe('s1');
	});

	it('refuses scheduled_at in the past before any request', async () => {
		const built = build({
			resource: 'scheduledPost',
			operation: 'create',
			asUserId: '12',
			scheduledAt: '2020-01-01T00:00:00Z',
			text: 'x',
			additionalFields: {},
		});
		expect((await failure(node.execute.call(built.context))).message).toMatch(
			/Scheduled At: must be in the future/,
		);
		expect(built.requests).toHaveLength(0);
	});

	it('is never retried on a 5xx (a create)', async () => {
		nock(ADS_BASE)
			.post(`${A}/scheduled_tweets`)
			.query(true)
			.times(3)
			.reply(503, { errors: [{ code: 'SERVICE_UNAVAILABLE', message: 'down' }] });
		const built = build({
			resource: 'scheduledPost',
			operation: 'create',
			asUserId: '12',
			scheduledAt: inAnHour().toISOString(),
			text: 'x',
			additionalFields: {},
		});
		await failure(node.execute.call(built.context));
		expect(built.requests).toHaveLength(1);
	});

	it('updates the time and text of a pending post, and refuses a past time', async () => {
		const at = inAnHour();
		nock(ADS_BASE)
			.put(`${A}/scheduled_tweets/5`)
			.query({ text: 'Later', scheduled_at: at.toISOString().replace(/\.\d{3}Z$/, 'Z') })
			.reply(200, { data: { id: '5', text: 'Later' } });
		const { out } = await run({
			resource: 'scheduledPost',
			operation: 'update',
			scheduledPostId: rl('5'),
			updateFields: { text: 'Later', scheduled_at: at.toISOString() },
		});
		expect(out[0].json.text).toBe('Later');
		const past = build({
			resource: 'scheduledPost',
			operation: 'update',
			scheduledPostId: rl('5'),
			updateFields: { scheduled_at: '2020-01-01T00:00:00Z' },
		});
		expect((await failure(node.execute.call(past.context))).message).toMatch(
			/Scheduled At: must be in the future/,
		);
		expect(past.requests).toHaveLength(0);
	});

	it('lists, gets and deletes', async () => {
		nock(ADS_BASE)
			.get(`${A}/scheduled_tweets`)
			.query({ count: '50' })
			.reply(200, { data: [{ id: '5' }], next_cursor: null })
			.get(`${A}/scheduled_tweets/5`)
			.reply(200, { data: { id: '5' } })
			.delete(`${A}/scheduled_tweets/5`)
			.reply(200, { data: { id: '5' } });
		expect(
			(await run({ resource: 'scheduledPost', operation: 'getMany', returnAll: false, limit: 50 }))
				.out,
		).toHaveLength(1);
		expect(
			(await run({ resource: 'scheduledPost', operation: 'get', scheduledPostId: rl('5') })).out[0]
				.json.id,
		).toBe('5');
		expect(
			(await run({ resource: 'scheduledPost', operation: 'delete', scheduledPostId: rl('5') }))
				.out[0].json.id,
		).toBe('5');
	});
});

describe('Post as Ad Account', () => {
	it('creates a promoted-only post with a card and video fields', async () => {
		nock(ADS_BASE)
			.post(`${A}/tweet`)
			.query(true)
			.reply(200, { data: { id_str: '777', text: 'Hi' } });
		const { out, requests } = await run({
			resource: 'adPost',
			operation: 'create',
			asUserId: '12',
			text: 'Hi',
			additionalFields: {
				card_uri: 'card://5',
				trim_user: true,
				conversation_settings: 'FOLLOWING',
				video_title: 'Teaser',
				video_cta: 'WATCH_NOW',
				video_cta_value: 'https://a.example',
			},
		});
		expect(queryOf(requests[0].url)).toEqual({
			as_user_id: '12',
			text: 'Hi',
			card_uri: 'card://5',
			nullcast: 'true',
			trim_user: 'true',
			conversation_settings: 'FOLLOWING',
			video_title: 'Teaser',
			video_cta: 'WATCH_NOW',
			video_cta_value: 'https://a.example',
		});
		expect(out[0].json.id_str).toBe('777');
	});

	it('sends tweet_mode (compat or extended) and refuses another value before any request', async () => {
		nock(ADS_BASE)
			.post(`${A}/tweet`)
			.query((q) => q.tweet_mode === 'extended')
			.reply(200, { data: { id_str: '9', full_text: 'Hi' } });
		const { out } = await run({
			resource: 'adPost',
			operation: 'create',
			asUserId: '12',
			text: 'Hi',
			additionalFields: { tweet_mode: 'extended' },
		});
		expect(out[0].json.full_text).toBe('Hi');
		const built = build({
			resource: 'adPost',
			operation: 'create',
			asUserId: '12',
			text: 'Hi',
			additionalFields: { tweet_mode: 'full' },
		});
		expect((await failure(node.execute.call(built.context))).message).toBe(
			'Invalid input in item 1: Text Mode: must be compat or extended',
		);
		expect(built.requests).toHaveLength(0);
	});

	it('sends nullcast false for an organic post', async () => {
		nock(ADS_BASE)
			.post(`${A}/tweet`)
			.query((q) => q.nullcast === 'false')
			.reply(200, { data: { id_str: '1' } });
		await run({
			resource: 'adPost',
			operation: 'create',
			asUserId: '12',
			text: 'Hi',
			additionalFields: { nullcast: false },
		});
	});

	it('refuses a video title of 71 characters and a video description of 201', async () => {
		for (const [field, length, message] of [
			['video_title', 71, /Video Title: at most 70/],
			['video_description', 201, /Video Description: at most 200/],
		] as const) {
			const built = build({
				resource: 'adPost',
				operation: 'create',
				asUserId: '12',
				text: 'Hi',
				additionalFields: { [field]: 'x'.repeat(length) },
			});
			expect((await failure(node.execute.call(built.context))).message).toMatch(message);
			expect(built.requests).toHaveLength(0);
		}
	});

	it('renames a post given by URL, and refuses a name of 81 characters', async () => {
		nock(ADS_BASE)
			.put(`${A}/tweets/1346889436626259968/name`)
			.query({ name: 'Spring' })
			.reply(200, { data: { id_str: '1346889436626259968', name: 'Spring' } });
		const { out } = await run({
			resource: 'adPost',
			operation: 'rename',
			postId: rl('https://x.com/shop/status/1346889436626259968', 'url'),
			name: 'Spring',
		});
		expect(out[0].json.name).toBe('Spring');
		const built = build({
			resource: 'adPost',
			operation: 'rename',
			postId: rl('1'),
			name: 'n'.repeat(81),
		});
		expect((await failure(node.execute.call(built.context))).message).toMatch(
			/Name: at most 80 characters/,
		);
		expect(built.requests).toHaveLength(0);
	});
});
