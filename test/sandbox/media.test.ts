/* eslint-disable @typescript-eslint/no-require-imports -- the sandbox is plain CommonJS */
/**
 * The sandbox's media routes enforce the upload rules (categories, size limits, segment order,
 * processing states, keys only for received bytes): one refusal per rule, so that the sandbox
 * judges the package as the service would.
 */
import { createHash } from 'node:crypto';

const { createSandbox } = require('../../sandbox/server');
const oauth1 = require('../../sandbox/lib/oauth1');
const { FAIL_MARKER } = require('../../sandbox/routes/media');

type Sandbox = {
	url: string;
	keys: Record<string, string>;
	db: { media: Map<string, Record<string, unknown>> };
	close(): Promise<void>;
};
let sb: Sandbox;

beforeAll(async () => {
	sb = await createSandbox({ quiet: true }).listen(0);
});
afterAll(async () => {
	await sb.close();
});

async function call(method: string, path: string, body?: unknown) {
	const url = sb.url + path;
	const headers: Record<string, string> = {
		authorization: oauth1.authorizationHeader(
			{ method, url: url.split('?')[0] === url ? url : url, form: undefined },
			sb.keys,
		),
	};
	if (body !== undefined) headers['content-type'] = 'application/json';
	const res = await fetch(url, {
		method,
		headers,
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return {
		status: res.status,
		body: (await res.json().catch(() => undefined)) as {
			data?: Record<string, unknown>;
			detail?: string;
			errors?: unknown;
		},
	};
}

const init = (media_type: string, total_bytes: number, media_category?: string) =>
	call('POST', '/2/media/upload/initialize', { media_type, total_bytes, media_category });
const append = (id: string, bytes: Buffer, segment_index: number) =>
	call('POST', `/2/media/upload/${id}/append`, { media: bytes.toString('base64'), segment_index });

function mp4(seconds: number): Buffer {
	const box = (type: string, body: Buffer) => {
		const head = Buffer.alloc(8);
		head.writeUInt32BE(8 + body.length, 0);
		head.write(type, 4, 'latin1');
		return Buffer.concat([head, body]);
	};
	const mvhd = Buffer.alloc(100);
	mvhd.writeUInt32BE(1000, 12);
	mvhd.writeUInt32BE(seconds * 1000, 16);
	return box('moov', box('mvhd', mvhd));
}

async function upload(mediaType: string, bytes: Buffer, category: string) {
	const id = String((await init(mediaType, bytes.length, category)).body.data?.id);
	expect((await append(id, bytes, 0)).status).toBe(200);
	return { id, finalize: await call('POST', `/2/media/upload/${id}/finalize`) };
}

const status = (id: string) => call('GET', `/2/media/upload?command=STATUS&media_id=${id}`);

describe('sandbox media upload rules', () => {
	it('issues the key for the received bytes: a finalized image is ready with its sha256 recorded', async () => {
		const bytes = Buffer.from('not really a png');
		const { id, finalize } = await upload('image/png', bytes, 'tweet_image');
		expect(finalize.status).toBe(200);
		expect(finalize.body.data).toMatchObject({ id, media_key: `3_${id}` });
		expect(sb.db.media.get(id)).toMatchObject({
			state: 'succeeded',
			sha256: createHash('sha256').update(bytes).digest('hex'),
		});
	});

	it('refuses an unknown category', async () => {
		expect((await init('image/png', 10, 'banner_image')).status).toBe(400);
	});

	it('refuses a media type the category does not take', async () => {
		expect((await init('video/mp4', 10, 'tweet_image')).status).toBe(400);
		expect((await init('image/png', 10, 'amplify_video')).status).toBe(400);
	});

	it('refuses an unsupported media type', async () => {
		expect((await init('application/pdf', 10, undefined)).status).toBe(400);
	});

	it.each([
		['image/png', 5 * 1024 * 1024 + 1, 'tweet_image'],
		['image/gif', 15 * 1024 * 1024 + 1, 'tweet_gif'],
		['video/mp4', 512 * 1024 * 1024 + 1, 'amplify_video'],
	])('refuses %s over the size limit (%i bytes)', async (type, size, category) => {
		expect((await init(type, size, category)).status).toBe(400);
	});

	it('refuses a segment over 5 MB and segments holding more than total_bytes', async () => {
		const id = String((await init('video/mp4', 10, 'tweet_video')).body.data?.id);
		expect((await append(id, Buffer.alloc(11), 0)).status).toBe(400);
		const big = String((await init('video/mp4', 6 * 1024 * 1024, 'tweet_video')).body.data?.id);
		expect((await append(big, Buffer.alloc(5 * 1024 * 1024 + 1), 0)).status).toBe(400);
	});

	it('refuses to finalize with a missing segment, and with fewer bytes than announced', async () => {
		const id = String((await init('video/mp4', 20, 'tweet_video')).body.data?.id);
		await append(id, Buffer.alloc(10), 1);
		expect((await call('POST', `/2/media/upload/${id}/finalize`)).status).toBe(400);
		const short = String((await init('video/mp4', 20, 'tweet_video')).body.data?.id);
		await append(short, Buffer.alloc(10), 0);
		expect((await call('POST', `/2/media/upload/${short}/finalize`)).status).toBe(400);
	});

	it('refuses appends after finalize and STATUS before finalize or for an image', async () => {
		const pending = String((await init('video/mp4', 4, 'tweet_video')).body.data?.id);
		expect((await status(pending)).status).toBe(400);
		const { id } = await upload('image/png', Buffer.from('abcd'), 'tweet_image');
		expect((await append(id, Buffer.from('e'), 1)).status).toBe(400);
		expect((await status(id)).status).toBe(400);
	});

	it('processes a video pending → in_progress → succeeded', async () => {
		const { id, finalize } = await upload('video/mp4', mp4(20), 'amplify_video');
		expect((finalize.body.data?.processing_info as { state: string }).state).toBe('pending');
		expect(((await status(id)).body.data?.processing_info as { state: string }).state).toBe(
			'in_progress',
		);
		expect(((await status(id)).body.data?.processing_info as { state: string }).state).toBe(
			'succeeded',
		);
	});

	it('fails processing of a video too long for its category, and keeps its key out of the media library', async () => {
		const { id } = await upload('video/mp4', mp4(141), 'tweet_video');
		const info = (await status(id)).body.data?.processing_info as {
			state: string;
			error: { message: string };
		};
		expect(info.state).toBe('failed');
		expect(info.error.message).toMatch(/too long/);
		const library = await call(
			'POST',
			`/12/accounts/${sb.keys.adsAccountId ?? 'x'}/media_library?media_key=13_${id}`,
		);
		expect(library.status).toBeGreaterThanOrEqual(400);
	});

	it('fails processing of bytes carrying the failure marker', async () => {
		const { id } = await upload('video/mp4', Buffer.from(`xx${FAIL_MARKER}xx`), 'tweet_video');
		expect(((await status(id)).body.data?.processing_info as { state: string }).state).toBe(
			'failed',
		);
	});
});
