/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- credential type names in test parameters, not secrets */
import nock from 'nock';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { ADS_BASE, createContext } from '../helpers/context';
import { A, ACCOUNT, failure, node, queryOf, run } from '../creatives/helpers';
import { PNG } from '../posts/helpers';
import { fileItem, mockUpload, mp4 } from './helpers';

jest.mock('n8n-workflow', () => {
	const actual = jest.requireActual('n8n-workflow');
	return { ...actual, sleep: jest.fn(async () => undefined) };
});

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

function build(parameters: IDataObject, items: INodeExecutionData[]) {
	return createContext({
		parameters: { authentication: 'platformOAuth1Api', accountId: ACCOUNT, ...parameters },
		items,
	});
}

async function runWith(parameters: IDataObject, items: INodeExecutionData[]) {
	const built = build(parameters, items);
	const [out] = await node.execute.call(built.context);
	return { out, requests: built.requests };
}

const library = (record: IDataObject[]) =>
	nock(ADS_BASE)
		.post(`${A}/media_library`)
		.query((q) => {
			record.push(q);
			return true;
		})
		.reply(201, (uri) => ({
			data: {
				media_key: new URL(uri, ADS_BASE).searchParams.get('media_key'),
				media_type: 'VIDEO',
			},
		}));

describe('Ads Creatives with binary media', () => {
	it('Media Library → Add uploads a video as amplify_video and adds its key in one step', async () => {
		const upload = mockUpload('50', '13_50', { states: [{ state: 'succeeded' }] });
		const added: IDataObject[] = [];
		library(added);
		const { out } = await runWith(
			{
				resource: 'mediaLibrary',
				operation: 'create',
				source: 'binary',
				binaryPropertyName: 'data',
				additionalFields: { title: 'Spring' },
			},
			[fileItem(mp4(20), 'video/mp4', 'spring.mp4')],
		);
		expect(upload.init?.media_category).toBe('amplify_video');
		expect(added).toEqual([{ media_key: '13_50', title: 'Spring', file_name: 'spring.mp4' }]);
		expect(out[0].json).toMatchObject({ media_key: '13_50', media_id: '50' });
	});

	it('adds nothing to the media library when processing fails', async () => {
		mockUpload('51', '13_51', {
			states: [{ state: 'failed', error: { name: 'InvalidMedia', message: 'bad' } }],
		});
		const added: IDataObject[] = [];
		const scope = library(added);
		const built = build(
			{
				resource: 'mediaLibrary',
				operation: 'create',
				source: 'binary',
				binaryPropertyName: 'data',
			},
			[fileItem(mp4(5), 'video/mp4', 'bad.mp4')],
		);
		expect((await failure(node.execute.call(built.context))).message).toMatch(
			/could not process the media "bad.mp4"/,
		);
		expect(scope.isDone()).toBe(false);
	});

	it('Card → Create (builder) uploads the binary image, adds it to the library and uses its key', async () => {
		const upload = mockUpload('60', '3_60');
		const added: IDataObject[] = [];
		library(added);
		let card: IDataObject = {};
		nock(ADS_BASE)
			.post(`${A}/cards`, (b) => {
				card = b;
				return true;
			})
			.reply(201, { data: { id: 'c1', card_uri: 'card://1' } });
		const { out } = await runWith(
			{
				resource: 'card',
				operation: 'create',
				name: 'Spring',
				mode: 'builder',
				mediaType: 'MEDIA',
				mediaSource: 'binary',
				mediaBinaryProperties: 'data',
				action: 'DETAILS',
				title: 'Shop',
				websiteUrl: 'https://example.com',
			},
			[fileItem(PNG, 'image/png', 'hero.png')],
		);
		expect(upload.init?.media_category).toBe('tweet_image');
		expect(added[0].media_key).toBe('3_60');
		expect((card.components as IDataObject[])[0]).toEqual({ type: 'MEDIA', media_key: '3_60' });
		expect(out[0].json).toMatchObject({
			card_uri: 'card://1',
			uploaded_media: [{ media_key: '3_60', media_id: '60' }],
		});
	});

	it('Card → Create validates the whole card before uploading anything', async () => {
		const built = build(
			{
				resource: 'card',
				operation: 'create',
				name: 'Spring',
				mode: 'builder',
				mediaType: 'MEDIA',
				mediaSource: 'binary',
				mediaBinaryProperties: 'data',
				action: 'DETAILS',
				title: 'Shop',
				websiteUrl: 'not a url',
			},
			[fileItem(PNG, 'image/png', 'hero.png')],
		);
		expect((await failure(node.execute.call(built.context))).message).toMatch(/must be a URL/);
		expect(built.requests).toHaveLength(0);
	});

	it('Video Conversation Card → Create takes the video and the poster from binary fields (poster sent as its numeric id)', async () => {
		const video = mockUpload('70', '13_70', { states: [{ state: 'succeeded' }] });
		const added: IDataObject[] = [];
		library(added)
			.post(`${A}/media_library`)
			.query(true)
			.reply(201, { data: { media_key: '3_71' } });
		mockUpload('71', '3_71');
		nock(ADS_BASE)
			.post(`${A}/cards/video_conversation`)
			.query(true)
			.reply(201, { data: { id: 'v1', card_uri: 'card://2' } });
		const item = fileItem(mp4(15), 'video/mp4', 'clip.mp4');
		item.binary!.poster = {
			data: PNG.toString('base64'),
			mimeType: 'image/png',
			fileName: 'poster.png',
		};
		const { out, requests } = await runWith(
			{
				resource: 'videoConversationCard',
				operation: 'create',
				videoSource: 'binary',
				videoBinaryPropertyName: 'data',
				name: 'Clip',
				title: 'Pick one',
				first_cta: '#yes',
				first_cta_tweet: 'Yes!',
				thank_you_text: 'Thanks',
				additionalFields: { posterBinaryPropertyName: 'poster' },
			},
			[item],
		);
		expect(video.init?.media_category).toBe('amplify_video');
		const cardQuery = queryOf(
			requests.find((r) => r.url.includes('/cards/video_conversation'))!.url,
		);
		expect(cardQuery).toMatchObject({ media_key: '13_70', poster_media_key: '71' });
		expect(out[0].json.uploaded_media).toEqual([
			{ field: 'media_key', media_key: '13_70', media_id: '70' },
			{ field: 'poster_media_key', media_key: '3_71', media_id: '71' },
		]);
	});

	it('Video Conversation Card → Create refuses an image as the video before any request', async () => {
		const built = build(
			{
				resource: 'videoConversationCard',
				operation: 'create',
				videoSource: 'binary',
				videoBinaryPropertyName: 'data',
				name: 'Clip',
				title: 'T',
				first_cta: '#a',
				first_cta_tweet: 'A',
				thank_you_text: 'Thanks',
			},
			[fileItem(PNG, 'image/png', 'still.png')],
		);
		expect((await failure(node.execute.call(built.context))).message).toMatch(
			/"still.png" \(Video Input Binary Field "data"\) in item 1 is an image; this field takes video/,
		);
		expect(built.requests).toHaveLength(0);
	});

	it.each([
		['3_1234567890', '1234567890'],
		['1234567890', '1234567890'],
	])('sends poster_media_key %s as the long %s', async (given, sent) => {
		nock(ADS_BASE)
			.put(`${A}/cards/video_conversation/v1`)
			.query({ poster_media_key: sent })
			.reply(200, { data: { id: 'v1' } });
		const { out } = await run({
			resource: 'videoConversationCard',
			operation: 'update',
			videoConversationCardId: { __rl: true, mode: 'id', value: 'v1' },
			updateFields: { poster_media_key: given },
		});
		expect(out[0].json.id).toBe('v1');
	});

	it('Poll Card → Create uploads its media from a binary field', async () => {
		mockUpload('80', '3_80');
		const added: IDataObject[] = [];
		library(added);
		nock(ADS_BASE)
			.post(`${A}/cards/poll`)
			.query((q) => q.media_key === '3_80')
			.reply(201, { data: { id: 'p1', card_type: 'IMAGE_POLLS' } });
		const { out } = await runWith(
			{
				resource: 'pollCard',
				operation: 'create',
				name: 'Poll',
				durationInMinutes: 60,
				firstChoice: 'A',
				secondChoice: 'B',
				mediaSource: 'binary',
				mediaBinaryPropertyName: 'data',
			},
			[fileItem(PNG, 'image/png', 'poll.png')],
		);
		expect(added[0].media_key).toBe('3_80');
		expect(out[0].json.card_type).toBe('IMAGE_POLLS');
	});
});
