import nock from 'nock';

import { SEGMENT_BYTES, videoDurationSeconds } from '../../nodes/shared/media';
import { BASE } from '../helpers/context';
import { PNG, run, runFailing, setupNock } from '../posts/helpers';
import { fileItem, mockUpload, mp4 } from './helpers';

/** n8n-workflow's sleep, recorded instead of waited for. */
const slept: number[] = [];
jest.mock('n8n-workflow', () => {
	const actual = jest.requireActual('n8n-workflow');
	return { ...actual, sleep: jest.fn(async (ms: number) => void slept.push(ms)) };
});

setupNock();
beforeEach(() => {
	slept.length = 0;
});

const upload = (purpose: string, extra: Record<string, unknown> = {}) => ({
	resource: 'media',
	operation: 'upload',
	purpose,
	binaryPropertyName: 'data',
	...extra,
});

describe('Media → Upload', () => {
	it('uploads an image in one segment and outputs id, media key, type, size and state, passing the binary through', async () => {
		const record = mockUpload('900', '3_900');
		const item = fileItem(PNG, 'image/png', 'photo.png');
		const { output } = await run(upload('post'), [item]);
		expect(record.init).toEqual({
			media_type: 'image/png',
			total_bytes: PNG.length,
			media_category: 'tweet_image',
		});
		expect(record.segments).toEqual([{ index: 0, size: PNG.length }]);
		expect(output).toEqual([
			{
				json: {
					id: '900',
					media_key: '3_900',
					type: 'image',
					media_type: 'image/png',
					media_category: 'tweet_image',
					file_name: 'photo.png',
					size: PNG.length,
					processing_state: 'succeeded',
				},
				binary: item.binary,
				pairedItem: { item: 0 },
			},
		]);
		expect(nock.isDone()).toBe(true);
	});

	it('uploads a 20 MB ad video in 4 MB segments as amplify_video and polls STATUS with the interval the service names', async () => {
		const size = 20 * 1024 * 1024;
		const record = mockUpload('77', '13_77', {
			appends: 5,
			states: [
				{ state: 'in_progress', check_after_secs: 5, progress_percent: 40 },
				{ state: 'in_progress', check_after_secs: 4 },
				{ state: 'succeeded' },
			],
		});
		const { output } = await run(upload('ads'), [fileItem(mp4(30, size), 'video/mp4', 'ad.mp4')]);
		expect(record.init).toEqual({
			media_type: 'video/mp4',
			total_bytes: size,
			media_category: 'amplify_video',
		});
		expect(record.segments).toEqual(
			[0, 1, 2, 3, 4].map((index) => ({ index, size: SEGMENT_BYTES })),
		);
		expect(slept).toEqual([2000, 5000, 4000]);
		expect(output[0].json).toMatchObject({
			id: '77',
			media_key: '13_77',
			type: 'video',
			media_category: 'amplify_video',
			size,
			processing_state: 'succeeded',
		});
		expect(output[0].binary?.data.fileName).toBe('ad.mp4');
		expect(nock.isDone()).toBe(true);
	});

	it('fails with the service reason when processing fails, naming the file and the media id', async () => {
		mockUpload('8', '13_8', {
			states: [
				{
					state: 'failed',
					error: { code: 1, name: 'InvalidMedia', message: 'Unsupported video format' },
				},
			],
		});
		const { error } = await runFailing(upload('post'), [fileItem(mp4(5), 'video/mp4', 'clip.mp4')]);
		expect(error.message).toBe(
			'The service could not process the media "clip.mp4" (data) in item 1: InvalidMedia: Unsupported video format',
		);
		expect(error.description).toContain('Media ID 8');
	});

	it('stops waiting at the Max Processing Wait option and names the media id', async () => {
		mockUpload('9', '13_9', { states: [{ state: 'in_progress', check_after_secs: 3 }] });
		const { error } = await runFailing(upload('post', { options: { maxProcessingWait: 4 } }), [
			fileItem(mp4(5), 'video/mp4', 'slow.mp4'),
		]);
		expect(error.message).toBe(
			'The media "slow.mp4" (data) in item 1 was still processing after 2 seconds (1 checks)',
		);
		expect(error.description).toContain('Media ID 9');
		expect(slept).toEqual([2000]);
	});

	it.each([
		['post', 'image/jpeg', 'a.jpg', 'tweet_image'],
		['post', 'image/gif', 'a.gif', 'tweet_gif'],
		['post', 'video/mp4', 'a.mp4', 'tweet_video'],
		['dm', 'image/png', 'a.png', 'dm_image'],
		['dm', 'image/gif', 'a.gif', 'dm_gif'],
		['dm', 'video/quicktime', 'a.mov', 'dm_video'],
		['ads', 'video/mp4', 'a.mp4', 'amplify_video'],
		['ads', 'image/png', 'a.png', 'tweet_image'],
		['subtitles', 'application/x-subrip', 'a.srt', 'subtitles'],
		['subtitles', 'application/octet-stream', 'captions.srt', 'subtitles'],
	])(
		'purpose %s with %s uploads with the %s category',
		async (purpose, mimeType, fileName, category) => {
			const record = mockUpload('5', '3_5');
			const data = mimeType.startsWith('video/')
				? mp4(10)
				: Buffer.from('1\n00:00:01,000 --> 00:00:02,000\nhi\n');
			await run(upload(purpose), [fileItem(data, mimeType, fileName)]);
			expect(record.init?.media_category).toBe(category);
		},
	);

	it.each([
		[
			'an unsupported type',
			upload('post'),
			fileItem(Buffer.from('%PDF-1.4'), 'application/pdf', 'doc.pdf'),
			/"doc.pdf" \(data\) in item 1 is of type application\/pdf, which cannot be uploaded/,
		],
		[
			'a GIF over 15 MB',
			upload('post'),
			fileItem(Buffer.alloc(15 * 1024 * 1024 + 1), 'image/gif', 'big.gif'),
			/"big.gif" \(data\) in item 1 is larger than 15 MB, the limit for GIFs/,
		],
		[
			'a video too long for a post',
			upload('post'),
			fileItem(mp4(141), 'video/mp4', 'long.mp4'),
			/"long.mp4" \(data\) in item 1 is 141 seconds long; videos in posts can be at most 140 seconds/,
		],
		[
			'a video too long for an ad',
			upload('ads'),
			fileItem(mp4(601), 'video/mp4', 'long.mp4'),
			/videos for ads can be at most 600 seconds/,
		],
		[
			'alt text on a video',
			upload('post', { altText: 'x' }),
			fileItem(mp4(5), 'video/mp4', 'v.mp4'),
			/"v.mp4" \(data\) in item 1 is a video; this field takes image or gif/,
		],
		[
			'subtitles that are an image',
			upload('subtitles'),
			fileItem(PNG, 'image/png', 'a.png'),
			/^"a.png" \(data\) in item 1 is of type image\/png, which cannot be uploaded as subtitles$/,
		],
		[
			'subtitles in another caption format',
			upload('subtitles'),
			fileItem(
				Buffer.from('<tt xmlns="http://www.w3.org/ns/ttml"></tt>'),
				'application/ttml+xml',
				'a.ttml',
			),
			/"a.ttml" \(data\) in item 1 is of type application\/ttml\+xml, which cannot be uploaded as subtitles/,
		],
		[
			'plain text that is no subtitle file',
			upload('subtitles'),
			fileItem(Buffer.from('just some notes'), 'text/plain', 'notes.txt'),
			/"notes.txt" \(data\) in item 1 is of type text\/plain, which cannot be uploaded as subtitles/,
		],
	])('refuses %s before any request', async (_what, parameters, item, message) => {
		const { error, requests } = await runFailing(parameters, [item]);
		expect(error.message).toMatch(message);
		expect(requests).toHaveLength(0);
	});

	const SRT = Buffer.from('1\n00:00:01,000 --> 00:00:02,000\nhi\n');
	const VTT = Buffer.from('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhi\n');
	it.each([
		['application/x-subrip', 'a.srt', SRT, 'text/srt'],
		['text/srt', 'a.srt', SRT, 'text/srt'],
		['application/srt', 'captions', SRT, 'text/srt'],
		['text/plain', 'a.srt', SRT, 'text/srt'],
		['application/octet-stream', 'captions.srt', SRT, 'text/srt'],
		['text/plain', 'captions', SRT, 'text/srt'],
		['text/vtt', 'a.vtt', VTT, 'text/vtt'],
		['text/vtt; charset=utf-8', 'a.vtt', VTT, 'text/vtt'],
		['text/plain', 'a.vtt', VTT, 'text/vtt'],
		['application/octet-stream', 'a.vtt', VTT, 'text/vtt'],
		['text/plain', 'captions', Buffer.from(`\uFEFF${VTT.toString()}`), 'text/vtt'],
	])(
		"subtitles given as %s (%s) are sent as the service's %s",
		async (mimeType, fileName, data, wire) => {
			const record = mockUpload('6', '3_6');
			const { output } = await run(upload('subtitles'), [fileItem(data, mimeType, fileName)]);
			expect(record.init).toEqual({
				media_type: wire,
				total_bytes: data.length,
				media_category: 'subtitles',
			});
			expect(output[0].json).toMatchObject({ type: 'subtitles', media_type: wire });
		},
	);

	it('sends an image/jpg file as image/jpeg, the type the service takes', async () => {
		const record = mockUpload('7', '3_7');
		await run(upload('post'), [fileItem(PNG, 'image/jpg', 'a.jpg')]);
		expect(record.init?.media_type).toBe('image/jpeg');
	});

	it('accepts a 140-second video for a post and a 10-minute video as an ad video', async () => {
		mockUpload('1', '13_1');
		await run(upload('post'), [fileItem(mp4(140), 'video/mp4', 'ok.mp4')]);
		mockUpload('2', '13_2');
		await run(upload('ads'), [fileItem(mp4(600), 'video/mp4', 'ok.mp4')]);
		expect(nock.isDone()).toBe(true);
	});

	it('sets the alt text of an image after the upload', async () => {
		mockUpload('4', '3_4');
		nock(BASE)
			.post('/2/media/metadata', { id: '4', metadata: { alt_text: { text: 'A red bike' } } })
			.reply(200, { data: { id: '4' } });
		const { output } = await run(upload('post', { altText: 'A red bike' }), [
			fileItem(PNG, 'image/png', 'bike.png'),
		]);
		expect(output[0].json).toMatchObject({ id: '4', media_key: '3_4', alt_text: 'A red bike' });
	});

	it('refuses the app-only bearer before any request', async () => {
		const { error, requests } = await runFailing(
			upload('post'),
			[fileItem(PNG, 'image/png', 'a.png')],
			{ authentication: 'platformBearerApi' },
		);
		expect(error.message).toBe(
			'Upload media needs OAuth2 (User Context), OAuth1 Keys (User Context) or OAuth1 Connect Account (User Context) authentication',
		);
		expect(requests).toHaveLength(0);
	});
});

describe('Media → Get Status', () => {
	it('returns the processing state of an upload', async () => {
		nock(BASE)
			.get('/2/media/upload')
			.query({ command: 'STATUS', media_id: '77' })
			.reply(200, {
				data: {
					id: '77',
					media_key: '13_77',
					processing_info: { state: 'in_progress', check_after_secs: 5 },
				},
			});
		const { output } = await run({ resource: 'media', operation: 'getStatus', mediaId: ' 77 ' });
		expect(output[0].json).toMatchObject({
			id: '77',
			media_key: '13_77',
			processing_state: 'in_progress',
		});
	});

	it('refuses a media id that is not digits before any request', async () => {
		const { error, requests } = await runFailing({
			resource: 'media',
			operation: 'getStatus',
			mediaId: '13_77',
		});
		expect(error.message).toMatch(/Media ID: "13_77" is not a media ID/);
		expect(requests).toHaveLength(0);
	});
});

describe('Direct Message → Send with a binary', () => {
	it('uploads with the dm category and outputs the media id and key', async () => {
		const record = mockUpload('31', '3_31');
		nock(BASE)
			.post('/2/dm_conversations/with/42/messages', {
				text: 'hi',
				attachments: [{ media_id: '31' }],
			})
			.reply(201, { data: { dm_event_id: 'e1' } });
		const { output } = await run(
			{
				resource: 'directMessage',
				operation: 'send',
				participant: { __rl: true, mode: 'id', value: '42' },
				text: 'hi',
				attachment: 'binary',
				binaryPropertyName: 'data',
			},
			[fileItem(PNG, 'image/png', 'a.png')],
		);
		expect(record.init?.media_category).toBe('dm_image');
		expect(output[0].json).toMatchObject({ dm_event_id: 'e1', media_id: '31', media_key: '3_31' });
	});
});

describe('video duration', () => {
	it('reads the duration from the movie header, and nothing from other bytes', () => {
		expect(videoDurationSeconds(mp4(42))).toBe(42);
		expect(videoDurationSeconds(PNG)).toBeUndefined();
	});
});
