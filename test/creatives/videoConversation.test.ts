import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { ADS_BASE } from '../helpers/context';
import { A, build, failure, node, queryOf, rl, run } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const card = {
	resource: 'videoConversationCard',
	operation: 'create',
	name: 'Vote',
	media_key: '13_1',
	first_cta: '#Yes',
	first_cta_tweet: 'I said yes',
	thank_you_text: 'Thanks!',
	title: 'Do you like it?',
	additionalFields: {},
};

describe('Video Conversation Card', () => {
	it('creates a card with its CTAs as query parameters', async () => {
		nock(ADS_BASE)
			.post(`${A}/cards/video_conversation`)
			.query(true)
			.reply(201, { data: { id: 'v1', card_type: 'VIDEO_CONVERSATION' } });
		const { out, requests } = await run({
			...card,
			additionalFields: {
				second_cta: '#No',
				second_cta_tweet: 'I said no',
				thank_you_url: 'https://example.com/thanks',
			},
		});
		expect(queryOf(requests[0].url)).toEqual({
			name: 'Vote',
			media_key: '13_1',
			first_cta: '#Yes',
			first_cta_tweet: 'I said yes',
			thank_you_text: 'Thanks!',
			title: 'Do you like it?',
			second_cta: '#No',
			second_cta_tweet: 'I said no',
			thank_you_url: 'https://example.com/thanks',
		});
		expect(out[0].json.id).toBe('v1');
	});

	it('accepts a second CTA instead of a title', async () => {
		nock(ADS_BASE)
			.post(`${A}/cards/video_conversation`)
			.query(true)
			.reply(201, { data: { id: 'v1' } });
		const { requests } = await run({
			...card,
			title: '',
			additionalFields: { second_cta: 'No', second_cta_tweet: 'no' },
		});
		expect(queryOf(requests[0].url).title).toBeUndefined();
	});

	const bad: Array<[string, IDataObject, RegExp]> = [
		[
			'a CTA of 21 characters (the # not counted)',
			{ first_cta: `#${'a'.repeat(21)}` },
			/First CTA: at most 20 characters/,
		],
		['a CTA of two words', { first_cta: '#yes please' }, /First CTA: one hashtag word/],
		[
			'a thank-you text of 24 characters',
			{ thank_you_text: 't'.repeat(24) },
			/Thank-You Text: at most 23 characters/,
		],
		['a title of 24 characters', { title: 't'.repeat(24) }, /Title: at most 23 characters/],
		['neither a title nor a second CTA', { title: '' }, /Title: give a title or a second CTA/],
		[
			'a second CTA without its post text',
			{ additionalFields: { second_cta: '#No' } },
			/Second CTA Post Text: is required with the second CTA/,
		],
		[
			'a fourth CTA post text without its CTA',
			{ additionalFields: { fourth_cta_tweet: 'x' } },
			/Fourth CTA: is required with its post text/,
		],
		['no first CTA post text', { first_cta_tweet: '' }, /First CTA Post Text/],
		[
			'a video media key that is not one',
			{ media_key: 'video.mp4' },
			/Video Media Key: a media key looks like/,
		],
	];
	it.each(bad)('refuses %s before any request', async (_label, change, message) => {
		const built = build({ ...card, ...change });
		const error = await failure(node.execute.call(built.context));
		expect(`${error.message}\n${error.description ?? ''}`).toMatch(message);
		expect(built.requests).toHaveLength(0);
	});

	it('updates only the fields given, with the same rules', async () => {
		nock(ADS_BASE)
			.put(`${A}/cards/video_conversation/v1`)
			.query({ thank_you_text: 'Merci' })
			.reply(200, { data: { id: 'v1', thank_you_text: 'Merci' } });
		const { out } = await run({
			resource: 'videoConversationCard',
			operation: 'update',
			videoConversationCardId: rl('v1'),
			updateFields: { thank_you_text: 'Merci' },
		});
		expect(out[0].json.thank_you_text).toBe('Merci');
		const built = build({
			resource: 'videoConversationCard',
			operation: 'update',
			videoConversationCardId: rl('v1'),
			updateFields: { third_cta: '#Maybe' },
		});
		expect((await failure(node.execute.call(built.context))).message).toMatch(
			/Third CTA Post Text: is required with the third CTA/,
		);
		const empty = build({
			resource: 'videoConversationCard',
			operation: 'update',
			videoConversationCardId: rl('v1'),
			updateFields: {},
		});
		expect((await failure(node.execute.call(empty.context))).message).toMatch(/nothing to update/);
		expect([...built.requests, ...empty.requests]).toHaveLength(0);
	});

	it('lists, gets and hard-deletes', async () => {
		nock(ADS_BASE)
			.get(`${A}/cards/video_conversation`)
			.query({ count: '5', with_deleted: 'true' })
			.reply(200, { data: [{ id: 'v1' }], next_cursor: null })
			.get(`${A}/cards/video_conversation/v1`)
			.reply(200, { data: { id: 'v1' } })
			.delete(`${A}/cards/video_conversation/v1`)
			.reply(200, { data: { id: 'v1', deleted: true } });
		const list = await run({
			resource: 'videoConversationCard',
			operation: 'getMany',
			returnAll: false,
			limit: 5,
			options: { withDeleted: true },
		});
		expect(list.out.map((o) => o.json.id)).toEqual(['v1']);
		const got = await run({
			resource: 'videoConversationCard',
			operation: 'get',
			videoConversationCardId: rl('v1'),
		});
		expect(got.out[0].json.id).toBe('v1');
		const gone = await run({
			resource: 'videoConversationCard',
			operation: 'delete',
			videoConversationCardId: rl('v1'),
		});
		expect(gone.out[0].json.deleted).toBe(true);
	});
});
