/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- credential type names in test parameters, not secrets */
/**
 * Media → Get / Get Many by media key, Get Analytics, Add / Delete Subtitles and Upload (Single
 * Request), against the sandbox.
 */
import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { binaryItem, PNG } from './helpers';
import { runOn, startTestSandbox, type TestSandbox } from './sandboxNode';

let sb: TestSandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(async () => await sb.close());

const SRT = Buffer.from('1\n00:00:00,000 --> 00:00:01,000\nHello\n');

/** A processed video in the sandbox's store, as the chunked upload leaves one. */
function storedVideo(category = 'tweet_video'): IDataObject {
	const id = sb.newId();
	const video = {
		id,
		media_key: `13_${id}`,
		type: 'video',
		media_type: 'video/mp4',
		media_category: category,
		state: 'succeeded',
		width: 1280,
		height: 720,
		duration_ms: 15000,
	};
	sb.db.media.set(id, video);
	return video;
}

describe('Media → Upload (Single Request)', () => {
	it('sends the image in one request and returns what Upload returns; the media key then finds it', async () => {
		const { output, requests, error } = await runOn(
			sb,
			{ resource: 'media', operation: 'uploadSingle', purpose: 'dm' },
			{ items: [binaryItem(PNG, 'image/png')] },
		);
		expect(error).toBeUndefined();
		expect(requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
			'POST /2/media/upload',
		]);
		const json = output[0].json;
		expect(json).toMatchObject({
			type: 'image',
			media_type: 'image/png',
			media_category: 'dm_image',
			size: PNG.length,
			processing_state: 'succeeded',
		});
		// The bytes arrived whole: the sandbox's copy hashes like the file.
		const stored = sb.db.media.get(String(json.id))!;
		expect(stored.sha256).toBe(createHash('sha256').update(PNG).digest('hex'));
		expect(output[0].binary?.data).toBeDefined();

		const found = await runOn(
			sb,
			{ resource: 'media', operation: 'get', mediaKey: json.media_key, mediaFields: ['url'] },
			{ authentication: 'platformBearerApi' },
		);
		expect(found.output.map((i) => i.json)).toEqual([
			{ media_key: json.media_key, type: 'photo', url: stored.url },
		]);
	});

	it('uploads a subtitle file as text/srt in the subtitles category', async () => {
		const item = binaryItem(SRT, 'application/x-subrip');
		const { output, requests } = await runOn(
			sb,
			{ resource: 'media', operation: 'uploadSingle', purpose: 'subtitles' },
			{ items: [item] },
		);
		expect(JSON.parse(requests[0].body!)).toMatchObject({
			media_category: 'subtitles',
			media_type: 'text/srt',
		});
		expect(output[0].json).toMatchObject({ type: 'subtitles', media_category: 'subtitles' });
	});

	it('refuses a GIF before any request, naming Upload', async () => {
		const { error, requests } = await runOn(
			sb,
			{ resource: 'media', operation: 'uploadSingle', purpose: 'post' },
			{ items: [binaryItem(Buffer.from('GIF89a....'), 'image/gif')] },
		);
		expect(requests).toHaveLength(0);
		expect(error?.message).toMatch(
			/is a GIF; a single request uploads images and subtitle files only/,
		);
		expect(error?.description).toMatch(/Media → Upload/);
	});
});

describe('Media → Get Many', () => {
	it('returns the media found and an item with an error for each key the service does not know', async () => {
		const video = storedVideo();
		const { output, requests } = await runOn(
			sb,
			{
				resource: 'media',
				operation: 'getMany',
				mediaKeys: `${video.media_key}, 3_1, ${video.media_key}`,
				mediaFields: ['duration_ms', 'organic_metrics'],
			},
			{ authentication: 'platformBearerApi' },
		);
		expect(new URL(requests[0].url).searchParams.get('media_keys')).toBe(`${video.media_key},3_1`);
		expect(output.map((i) => i.json)).toEqual([
			// Organic metrics are the owner's: not shown to the app-only bearer token.
			{ media_key: video.media_key, type: 'video', duration_ms: 15000 },
			expect.objectContaining({ id: '3_1', error: expect.stringContaining('Could not find') }),
		]);
	});

	it('refuses a malformed key before any request, naming it and the item', async () => {
		const { error, requests } = await runOn(sb, {
			resource: 'media',
			operation: 'getMany',
			mediaKeys: '3_1, 1455952740635586573',
		});
		expect(requests).toHaveLength(0);
		expect(error?.message).toBe(
			'Invalid input in item 1: Media Keys: "1455952740635586573" is not a media key (digits, an underscore, digits, e.g. 3_1455952740635586573)',
		);
	});
});

describe('Media → Get Analytics', () => {
	it('asks for the window, granularity and metrics, and returns one item per media with its buckets', async () => {
		const video = storedVideo();
		const { output, requests, error } = await runOn(
			sb,
			{
				resource: 'media',
				operation: 'getAnalytics',
				mediaKeys: video.media_key,
				startTime: '2026-03-01T00:00:00',
				endTime: '2026-03-03T00:00:00',
				granularity: 'daily',
				analyticsFields: ['video_views', 'playback_complete'],
			},
			{ authentication: 'platformOAuth1Api' },
		);
		expect(error).toBeUndefined();
		const query = Object.fromEntries(new URL(requests[0].url).searchParams);
		expect(query).toEqual({
			media_keys: video.media_key,
			start_time: new Date('2026-03-01T00:00:00').toISOString(),
			end_time: new Date('2026-03-03T00:00:00').toISOString(),
			granularity: 'daily',
			'media_analytics.fields': 'video_views,playback_complete',
		});
		expect(output).toHaveLength(1);
		const buckets = output[0].json.timestamped_metrics as IDataObject[];
		expect(output[0].json.media_key).toBe(video.media_key);
		expect(buckets).toHaveLength(2);
		expect(Object.keys(buckets[0].metrics as IDataObject).sort()).toEqual([
			'playback_complete',
			'video_views',
		]);
	});

	it('refuses an end before the start, and the app-only bearer token, before any request', async () => {
		const base = {
			resource: 'media',
			operation: 'getAnalytics',
			mediaKeys: '13_1',
			startTime: '2026-03-02T00:00:00Z',
			endTime: '2026-03-01T00:00:00Z',
		};
		const backwards = await runOn(sb, base);
		expect(backwards.requests).toHaveLength(0);
		expect(backwards.error?.message).toBe(
			'Invalid input in item 1: End Time: must be after Start Time',
		);
		const bearer = await runOn(
			sb,
			{ ...base, endTime: '2026-03-03T00:00:00Z' },
			{ authentication: 'platformBearerApi' },
		);
		expect(bearer.requests).toHaveLength(0);
		expect(bearer.error?.message).toMatch(/Get media analytics needs OAuth2 \(User Context\)/);
	});
});

describe('Media → Add Subtitles / Delete Subtitles', () => {
	it('uploads a subtitle file, attaches it to the video in its language, and removes it again', async () => {
		const video = storedVideo('amplify_video');
		const added = await runOn(
			sb,
			{
				resource: 'media',
				operation: 'addSubtitles',
				mediaId: video.id,
				videoCategory: 'AmplifyVideo',
				languageCode: 'de',
				displayName: 'Deutsch',
			},
			{ items: [binaryItem(SRT, 'application/x-subrip')] },
		);
		expect(added.error).toBeUndefined();
		const paths = added.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`);
		expect(paths[0]).toBe('POST /2/media/upload/initialize');
		expect(paths[paths.length - 1]).toBe('POST /2/media/subtitles');
		const subtitlesId = String(added.output[0].json.subtitles_media_id);
		expect(JSON.parse(added.requests[added.requests.length - 1].body!)).toEqual({
			id: video.id,
			media_category: 'AmplifyVideo',
			subtitles: { id: subtitlesId, language_code: 'DE', display_name: 'Deutsch' },
		});
		expect(added.output[0].json).toMatchObject({
			media_id: video.id,
			language_code: 'DE',
			associated_subtitles: [{ id: subtitlesId, language_code: 'DE', display_name: 'Deutsch' }],
		});
		expect([...(video.subtitles as Map<string, IDataObject>).keys()]).toEqual(['DE']);

		const target = {
			resource: 'media',
			operation: 'deleteSubtitles',
			mediaId: video.id,
			videoCategory: 'AmplifyVideo',
			languageCode: 'DE',
		};
		const deleted = await runOn(sb, target, { authentication: 'platformOAuth1ConnectApi' });
		expect(deleted.output[0].json).toEqual({
			media_id: video.id,
			language_code: 'DE',
			deleted: true,
		});
		expect(JSON.parse(deleted.requests[0].body!)).toEqual({
			id: video.id,
			language_code: 'DE',
			media_category: 'AmplifyVideo',
		});
		expect((video.subtitles as Map<string, IDataObject>).size).toBe(0);
		// Nothing left to remove: the service's 404 reaches the user.
		const again = await runOn(sb, target);
		expect(again.error).toBeDefined();
	});

	it('attaches subtitles uploaded earlier by their media ID, without uploading', async () => {
		const video = storedVideo();
		const uploaded = await runOn(
			sb,
			{ resource: 'media', operation: 'uploadSingle', purpose: 'subtitles' },
			{ items: [binaryItem(SRT, 'application/x-subrip')] },
		);
		const { requests, error } = await runOn(sb, {
			resource: 'media',
			operation: 'addSubtitles',
			mediaId: video.id,
			subtitlesSource: 'mediaId',
			subtitlesMediaId: uploaded.output[0].json.id,
			languageCode: 'EN',
		});
		expect(error).toBeUndefined();
		expect(requests.map((r) => new URL(r.url).pathname)).toEqual(['/2/media/subtitles']);
		expect(JSON.parse(requests[0].body!).subtitles).toEqual({
			id: uploaded.output[0].json.id,
			language_code: 'EN',
		});
	});

	it('refuses a language code that is not two letters before any request', async () => {
		const { error, requests } = await runOn(sb, {
			resource: 'media',
			operation: 'deleteSubtitles',
			mediaId: '1',
			languageCode: 'eng',
		});
		expect(requests).toHaveLength(0);
		expect(error?.message).toBe(
			'Invalid input in item 1: Language Code: is not a two-letter language code (e.g. EN)',
		);
	});
});
