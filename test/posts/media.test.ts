import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { MAX_STATUS_POLLS, SEGMENT_BYTES } from '../../nodes/shared/media';
import { BASE } from '../helpers/context';
import { PNG, binaryItem, run, runFailing, setupNock } from './helpers';

/** n8n-workflow's sleep, recorded instead of waited for (the node waits what the service names). */
const slept: number[] = [];
jest.mock('n8n-workflow', () => {
	const actual = jest.requireActual('n8n-workflow');
	return {
		...actual,
		sleep: jest.fn(async (ms: number) => {
			slept.push(ms);
		}),
	};
});

setupNock();
beforeEach(() => {
	slept.length = 0;
});

const createWith = (binaryProperties: string) => ({
	resource: 'post',
	operation: 'create',
	text: 'v',
	additionalFields: { binaryProperties },
});

describe('media upload', () => {
	it('uploads a video in segments, polls STATUS with the interval the service names, then posts', async () => {
		const video = Buffer.alloc(SEGMENT_BYTES + 10, 7);
		const appended: Array<{ index: number; size: number }> = [];
		let init: IDataObject = {};
		nock(BASE)
			.post('/2/media/upload/initialize', (b) => {
				init = b;
				return true;
			})
			.reply(200, { data: { id: '7', media_key: '13_7', expires_after_secs: 86400 } })
			.post('/2/media/upload/7/append', (b) => {
				appended.push({ index: b.segment_index, size: Buffer.from(b.media, 'base64').length });
				return true;
			})
			.times(2)
			.reply(200, {})
			.post('/2/media/upload/7/finalize')
			.reply(200, { data: { id: '7', processing_info: { state: 'pending', check_after_secs: 3 } } })
			.get('/2/media/upload')
			.query({ command: 'STATUS', media_id: '7' })
			.reply(200, {
				data: {
					processing_info: { state: 'in_progress', check_after_secs: 5, progress_percent: 50 },
				},
			})
			.get('/2/media/upload')
			.query({ command: 'STATUS', media_id: '7' })
			.reply(200, { data: { processing_info: { state: 'succeeded' } } })
			.post('/2/tweets', { text: 'v', media: { media_ids: ['7'] } })
			.reply(201, { data: { id: '2', text: 'v' } });
		const { output, requests } = await run(createWith('data'), [binaryItem(video, 'video/mp4')]);
		expect(init).toEqual({
			media_type: 'video/mp4',
			total_bytes: SEGMENT_BYTES + 10,
			media_category: 'tweet_video',
		});
		expect(appended).toEqual([
			{ index: 0, size: SEGMENT_BYTES },
			{ index: 1, size: 10 },
		]);
		expect(slept).toEqual([3000, 5000]);
		expect(requests.filter((r) => r.method === 'GET')).toHaveLength(2);
		expect(output).toEqual([
			{
				json: {
					id: '2',
					text: 'v',
					attached_media: [
						{
							id: '7',
							media_key: '13_7',
							type: 'video',
							binary_property: 'data',
							file_name: 'file.mp4',
						},
					],
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(nock.isDone()).toBe(true);
	});

	it('uploads a GIF with the tweet_gif category', async () => {
		let category = '';
		nock(BASE)
			.post('/2/media/upload/initialize', (b) => {
				category = b.media_category;
				return true;
			})
			.reply(200, { data: { id: '9' } })
			.post('/2/media/upload/9/append')
			.reply(200, {})
			.post('/2/media/upload/9/finalize')
			.reply(200, { data: { processing_info: { state: 'succeeded' } } })
			.post('/2/tweets')
			.reply(201, { data: { id: '3' } });
		await run(createWith('data'), [binaryItem(PNG, 'image/gif')]);
		expect(category).toBe('tweet_gif');
		expect(slept).toEqual([]);
	});

	it('fails clearly when processing fails, and posts nothing', async () => {
		nock(BASE)
			.post('/2/media/upload/initialize')
			.reply(200, { data: { id: '8' } })
			.post('/2/media/upload/8/append')
			.reply(200, {})
			.post('/2/media/upload/8/finalize')
			.reply(200, { data: { processing_info: { state: 'pending', check_after_secs: 1 } } })
			.get('/2/media/upload')
			.query({ command: 'STATUS', media_id: '8' })
			.reply(200, {
				data: {
					processing_info: {
						state: 'failed',
						error: { code: 1, name: 'InvalidMedia', message: 'Unsupported video format' },
					},
				},
			});
		const post = nock(BASE)
			.post('/2/tweets')
			.reply(201, { data: { id: 'never' } });
		const { error } = await runFailing(createWith('data'), [binaryItem(PNG, 'video/mp4')]);
		expect(error.message).toBe(
			'The service could not process the media "file.mp4" (data) in item 1: InvalidMedia: Unsupported video format',
		);
		expect(error.description).toContain('Media ID 8');
		expect(post.isDone()).toBe(false);
	});

	it('gives up after a bounded number of STATUS checks and names the media id', async () => {
		nock(BASE)
			.post('/2/media/upload/initialize')
			.reply(200, { data: { id: '6' } })
			.post('/2/media/upload/6/append')
			.reply(200, {})
			.post('/2/media/upload/6/finalize')
			.reply(200, { data: { processing_info: { state: 'pending', check_after_secs: 0 } } })
			.get('/2/media/upload')
			.query(true)
			.times(MAX_STATUS_POLLS + 5)
			.reply(200, { data: { processing_info: { state: 'in_progress', check_after_secs: 0 } } });
		const { error, requests } = await runFailing(createWith('data'), [
			binaryItem(PNG, 'video/mp4'),
		]);
		expect(requests.filter((r) => r.method === 'GET')).toHaveLength(MAX_STATUS_POLLS);
		expect(error.message).toContain('was still processing');
		expect(error.description).toContain('Media ID 6');
	});

	it('bounds the total wait even when the service names long intervals', async () => {
		nock(BASE)
			.post('/2/media/upload/initialize')
			.reply(200, { data: { id: '5' } })
			.post('/2/media/upload/5/append')
			.reply(200, {})
			.post('/2/media/upload/5/finalize')
			.reply(200, { data: { processing_info: { state: 'pending', check_after_secs: 3600 } } })
			.get('/2/media/upload')
			.query(true)
			.times(20)
			.reply(200, { data: { processing_info: { state: 'in_progress', check_after_secs: 3600 } } });
		const { error } = await runFailing(createWith('data'), [binaryItem(PNG, 'video/mp4')]);
		// Each wait is capped at 60 s and all waits at 600 s.
		expect(slept.every((ms) => ms === 60_000)).toBe(true);
		expect(slept.reduce((a, b) => a + b, 0)).toBe(600_000);
		expect(error.message).toContain('was still processing after 600 seconds');
	});

	it('refuses an image over 5 MB before any request', async () => {
		const { error, requests } = await runFailing(createWith('data'), [
			binaryItem(Buffer.alloc(5 * 1024 * 1024 + 1), 'image/jpeg'),
		]);
		expect(error.message).toContain('larger than 5 MB');
		expect(requests).toHaveLength(0);
	});
});
