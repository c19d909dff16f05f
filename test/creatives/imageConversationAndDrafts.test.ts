import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { ADS_BASE } from '../helpers/context';
import { A, build, failure, node, queryOf, rl, run } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

/** Runs the parameters and expects a refusal naming `message` and item 1, with no request sent. */
async function refusedBeforeAnyRequest(parameters: IDataObject, message: RegExp) {
	const built = build(parameters);
	const error = await failure(node.execute.call(built.context));
	expect(error.message).toMatch(message);
	expect(error.message).toContain('item 1');
	expect(built.requests).toHaveLength(0);
}

describe('Card → Get Card by ID', () => {
	it('gets one card of any type from cards/all, deleted ones on request', async () => {
		nock(ADS_BASE)
			.get(`${A}/cards/all/p1x`)
			.query({ with_deleted: 'true' })
			.reply(200, { data: { id: 'p1x', card_type: 'TEXT_POLLS', deleted: true } });
		const { out } = await run({
			resource: 'card',
			operation: 'getById',
			anyCardId: rl('p1x'),
			options: { withDeleted: true },
		});
		expect(out).toHaveLength(1);
		expect(out[0].json).toEqual({ id: 'p1x', card_type: 'TEXT_POLLS', deleted: true });
	});

	it('sends no with_deleted unless asked', async () => {
		nock(ADS_BASE)
			.get(`${A}/cards/all/c1`)
			.query({})
			.reply(200, { data: { id: 'c1', card_type: 'IMAGE_WEBSITE' } });
		const { out } = await run({ resource: 'card', operation: 'getById', anyCardId: rl('c1') });
		expect(out[0].json.card_type).toBe('IMAGE_WEBSITE');
	});

	it('refuses an ID that is not a card ID before any request', async () => {
		await refusedBeforeAnyRequest(
			{ resource: 'card', operation: 'getById', anyCardId: rl('card://1') },
			/Card/,
		);
	});
});

const imageCard = {
	resource: 'imageConversationCard',
	operation: 'create',
	name: 'Pick',
	media_key: '3_1',
	first_cta: '#Red',
	first_cta_tweet: 'I pick red',
	thank_you_text: 'Thanks!',
	title: 'Which colour?',
	additionalFields: {},
};

describe('Image Conversation Card', () => {
	it('creates a card with its fields as query parameters', async () => {
		nock(ADS_BASE)
			.post(`${A}/cards/image_conversation`)
			.query(true)
			.reply(201, { data: { id: 'i1', card_type: 'IMAGE_CONVERSATION' } });
		const { out, requests } = await run({
			...imageCard,
			additionalFields: {
				second_cta: '#Blue',
				second_cta_tweet: 'I pick blue',
				unlocked_image_media_key: '3_2',
			},
		});
		expect(requests[0].method).toBe('POST');
		expect(queryOf(requests[0].url)).toEqual({
			name: 'Pick',
			media_key: '3_1',
			first_cta: '#Red',
			first_cta_tweet: 'I pick red',
			thank_you_text: 'Thanks!',
			title: 'Which colour?',
			second_cta: '#Blue',
			second_cta_tweet: 'I pick blue',
			unlocked_image_media_key: '3_2',
		});
		expect(out[0].json.id).toBe('i1');
	});

	const bad: Array<[string, IDataObject, RegExp]> = [
		['a video as the image', { media_key: '13_1' }, /Image Media Key: an image of the media/],
		['no name', { name: '' }, /Name: (is )?required/i],
		['a title of 24 characters', { title: 't'.repeat(24) }, /Title: at most 23 characters/],
		['neither a title nor a second CTA', { title: '' }, /Title: give a title or a second CTA/],
		[
			'a CTA of 21 characters',
			{ first_cta: `#${'c'.repeat(21)}` },
			/First CTA: at most 20 characters/,
		],
		[
			'a second CTA without its post text',
			{ additionalFields: { second_cta: '#Blue' } },
			/Second CTA Post Text: is required with the second CTA/,
		],
		[
			'a thank-you URL that is not one',
			{ additionalFields: { thank_you_url: 'thanks' } },
			/Thank-You URL: must be a URL/,
		],
	];
	it.each(bad)('refuses %s before any request', async (_label, change, message) => {
		await refusedBeforeAnyRequest({ ...imageCard, ...change }, message);
	});

	it('updates only the fields given, and refuses an update with nothing to change', async () => {
		nock(ADS_BASE)
			.put(`${A}/cards/image_conversation/i1`)
			.query({ title: 'Red or blue?' })
			.reply(200, { data: { id: 'i1', title: 'Red or blue?' } });
		const { out } = await run({
			resource: 'imageConversationCard',
			operation: 'update',
			imageConversationCardId: rl('i1'),
			updateFields: { title: 'Red or blue?' },
		});
		expect(out[0].json.title).toBe('Red or blue?');
		await refusedBeforeAnyRequest(
			{
				resource: 'imageConversationCard',
				operation: 'update',
				imageConversationCardId: rl('i1'),
				updateFields: {},
			},
			/nothing to update/,
		);
	});

	it('lists with the filters and total count, gets one and soft-deletes one', async () => {
		nock(ADS_BASE)
			.get(`${A}/cards/image_conversation`)
			.query({ count: '5', card_ids: 'i1,i2', q: 'Pi', with_total_count: 'true' })
			.reply(200, { data: [{ id: 'i1' }], next_cursor: null, total_count: 1 })
			.get(`${A}/cards/image_conversation/i1`)
			.query({ with_deleted: 'true' })
			.reply(200, { data: { id: 'i1', deleted: true } })
			.delete(`${A}/cards/image_conversation/i2`)
			.reply(200, { data: { id: 'i2', card_type: 'IMAGE_CONVERSATION', deleted: true } });
		const listed = await run({
			resource: 'imageConversationCard',
			operation: 'getMany',
			returnAll: false,
			limit: 5,
			filters: { cardIds: 'i1, i2', q: 'Pi' },
			options: { withTotalCount: true },
		});
		expect(listed.out.map((o) => o.json)).toEqual([{ id: 'i1', total_count: 1 }]);
		const got = await run({
			resource: 'imageConversationCard',
			operation: 'get',
			imageConversationCardId: rl('i1'),
			options: { withDeleted: true },
		});
		expect(got.out[0].json.deleted).toBe(true);
		const deleted = await run({
			resource: 'imageConversationCard',
			operation: 'delete',
			imageConversationCardId: rl('i2'),
		});
		expect(deleted.out[0].json).toMatchObject({ id: 'i2', deleted: true });
		expect(nock.isDone()).toBe(true);
	});
});

describe('Draft Post → Update, Delete and the Name of saved workflows', () => {
	it('updates the given fields of a draft as query parameters', async () => {
		nock(ADS_BASE)
			.put(`${A}/draft_tweets/99`)
			.query(true)
			.reply(200, { data: { id: '99', text: 'New' } });
		const { out, requests } = await run({
			resource: 'draftPost',
			operation: 'update',
			draftPostId: rl('99'),
			updateFields: { text: 'New', media_keys: '3_1, 3_2', nullcast: false },
		});
		expect(queryOf(requests[0].url)).toEqual({
			text: 'New',
			media_keys: '3_1,3_2',
			nullcast: 'false',
		});
		expect(out[0].json.text).toBe('New');
	});

	const bad: Array<[string, IDataObject, RegExp]> = [
		['nothing to change', {}, /nothing to update/],
		['5 images', { media_keys: '3_1,3_2,3_3,3_4,3_5' }, /Media: at most 4 images/],
		['a user ID that is a name', { as_user_id: '@shop' }, /Post As \(User ID\): a user ID/],
		['a card URI that is not one', { card_uri: 'https://card' }, /Card: a card URI looks like/],
	];
	it.each(bad)('refuses an update with %s before any request', async (_label, fields, message) => {
		await refusedBeforeAnyRequest(
			{ resource: 'draftPost', operation: 'update', draftPostId: rl('99'), updateFields: fields },
			message,
		);
	});

	it('offers no Name on update', () => {
		const updateFields = node.description.properties.find(
			(p) =>
				p.name === 'updateFields' &&
				p.displayOptions?.show?.resource?.includes('draftPost') &&
				p.displayOptions?.show?.operation?.includes('update'),
		);
		const names = (updateFields?.options ?? []).map((o) => (o as { name: string }).name);
		expect(names).toContain('text');
		expect(names).not.toContain('name');
	});

	it('deletes a draft for good and says so', async () => {
		nock(ADS_BASE)
			.delete(`${A}/draft_tweets/99`)
			.reply(200, { data: { id: '99', text: 'Gone' } });
		const { out } = await run({
			resource: 'draftPost',
			operation: 'delete',
			draftPostId: rl('99'),
		});
		expect(out[0].json).toEqual({ id: '99', deleted: true, text: 'Gone' });
	});

	it('creates a draft without the Name a saved workflow set (drafts take no name)', async () => {
		nock(ADS_BASE)
			.post(`${A}/draft_tweets`)
			.query(true)
			.reply(201, { data: { id: '99', name: null } });
		const { requests } = await run({
			resource: 'draftPost',
			operation: 'create',
			asUserId: '12',
			text: 'Hi',
			// Also over the old 80-character limit: it is neither sent nor judged.
			additionalFields: { name: 'n'.repeat(81), nullcast: true },
		});
		expect(queryOf(requests[0].url)).toEqual({ as_user_id: '12', text: 'Hi', nullcast: 'true' });
	});

	it('still sends the Name of a scheduled post, which the service takes', async () => {
		nock(ADS_BASE)
			.post(`${A}/scheduled_tweets`)
			.query(true)
			.reply(201, { data: { id: 's1' } });
		const { requests } = await run({
			resource: 'scheduledPost',
			operation: 'create',
			asUserId: '12',
			scheduledAt: new Date(Date.now() + 3600_000).toISOString(),
			text: 'Later',
			additionalFields: { name: 'Launch' },
		});
		expect(queryOf(requests[0].url).name).toBe('Launch');
	});
});
