'use strict';
/** Media upload, v2: chunked (initialize / append / finalize / STATUS), one-shot, and alt text metadata. */
const crypto = require('node:crypto');
const { invalidRequest, notFound, problem } = require('../lib/http');

const MB = 1024 * 1024;
const CATEGORIES = [
	'tweet_image',
	'tweet_gif',
	'tweet_video',
	'amplify_video',
	'dm_image',
	'dm_gif',
	'dm_video',
	'subtitles',
];

/** Duration (ms) from an MP4 / QuickTime movie header (moov → mvhd); undefined when absent. */
function mp4DurationMs(buf) {
	const walk = (start, end, want) => {
		for (let o = start; o + 8 <= end; ) {
			const size = buf.readUInt32BE(o);
			const type = buf.toString('latin1', o + 4, o + 8);
			if (size < 8 || o + size > end) return undefined;
			if (type === want) return [o + 8, o + size];
			o += size;
		}
		return undefined;
	};
	try {
		const moov = walk(0, buf.length, 'moov');
		const mvhd = moov && walk(moov[0], moov[1], 'mvhd');
		if (!mvhd) return undefined;
		const v1 = buf.readUInt8(mvhd[0]) === 1;
		const scale = buf.readUInt32BE(mvhd[0] + (v1 ? 20 : 12));
		const duration = v1
			? Number(buf.readBigUInt64BE(mvhd[0] + 24))
			: buf.readUInt32BE(mvhd[0] + 16);
		return scale ? Math.round((duration * 1000) / scale) : undefined;
	} catch {
		return undefined;
	}
}

/** Longest video per category (ms): 140 s in posts and direct messages, 10 minutes as an ad video. */
const MAX_DURATION_MS = { tweet_video: 140000, dm_video: 140000, amplify_video: 600000 };
/** Bytes that make processing fail, so that clients' failure handling can be exercised. */
const FAIL_MARKER = 'SANDBOX-FAIL-PROCESSING';

function install(sb) {
	const store = () => sb.db.media;

	function typeOf(mediaType, category) {
		const t = String(mediaType || '').toLowerCase();
		if (category === 'subtitles') return 'subtitles';
		if (t === 'image/gif' || /gif/.test(category || '')) return 'animated_gif';
		if (t.startsWith('video/') || /video/.test(category || '')) return 'video';
		return 'photo';
	}
	function keyPrefix(type) {
		return { photo: '3', animated_gif: '16', video: '13', subtitles: '3' }[type] || '3';
	}
	function newMedia({ media_type, total_bytes, media_category }) {
		const id = sb.newId();
		const type = typeOf(media_type, media_category);
		const m = {
			id,
			media_key: `${keyPrefix(type)}_${id}`,
			type,
			media_type,
			media_category:
				media_category ||
				(type === 'video' ? 'tweet_video' : type === 'animated_gif' ? 'tweet_gif' : 'tweet_image'),
			total_bytes: Number(total_bytes),
			segments: new Map(),
			state: 'initialized',
			created_at: new Date().toISOString(),
			width: 1200,
			height: 628,
		};
		if (type === 'video') m.duration_ms = 15000;
		m.url = `https://pbs.sandbox.local/media/${id}`;
		store().set(id, m);
		return m;
	}
	// The contract's upload answers: `data` (id, media key, size, expiry, processing_info) and a
	// `meta` it requires without naming any field of it. The image's type and size are not in it.
	const view = (m, extra = {}) =>
		Object.assign(
			{
				id: m.id,
				media_key: m.media_key,
				size: m.received || m.total_bytes,
				expires_after_secs: 86400,
			},
			extra,
		);

	// Media types the service takes, and which categories each kind may use. Its names only: no
	// image/jpg, and subtitles as text/srt or text/vtt (not application/x-subrip or text/plain).
	const IMAGE_TYPES = ['image/jpeg', 'image/pjpeg', 'image/png', 'image/webp', 'image/bmp'];
	const VIDEO_TYPES = ['video/mp4', 'video/quicktime'];
	const SUBTITLE_TYPES = ['text/srt', 'text/vtt'];
	const CATEGORY_TYPES = {
		tweet_image: IMAGE_TYPES,
		dm_image: IMAGE_TYPES,
		tweet_gif: ['image/gif'],
		dm_gif: ['image/gif'],
		tweet_video: VIDEO_TYPES,
		dm_video: VIDEO_TYPES,
		amplify_video: VIDEO_TYPES,
		subtitles: SUBTITLE_TYPES,
	};

	function validateInit(b) {
		if (!b.media_type) throw invalidRequest('media_type is required', { media_type: [] });
		const mediaType = String(b.media_type).toLowerCase();
		if (![...IMAGE_TYPES, 'image/gif', ...VIDEO_TYPES, ...SUBTITLE_TYPES].includes(mediaType))
			throw invalidRequest(`media_type ${b.media_type} is not supported`, {
				media_type: [String(b.media_type)],
			});
		const category = b.media_category && String(b.media_category).toLowerCase();
		if (category && CATEGORY_TYPES[category] && !CATEGORY_TYPES[category].includes(mediaType))
			throw invalidRequest(`media_category ${category} does not take ${mediaType}`, {
				media_category: [category],
			});
		if (!category && SUBTITLE_TYPES.includes(mediaType))
			throw invalidRequest('subtitle files need media_category subtitles', { media_category: [] });
		const total = Number(b.total_bytes);
		if (!Number.isInteger(total) || total < 1)
			throw invalidRequest('total_bytes must be a positive integer', {
				total_bytes: [String(b.total_bytes)],
			});
		if (b.media_category && !CATEGORIES.includes(String(b.media_category).toLowerCase()))
			throw invalidRequest(`media_category must be one of ${CATEGORIES.join(', ')}`, {
				media_category: [String(b.media_category)],
			});
		const type = typeOf(b.media_type, b.media_category);
		if (type === 'photo' && total > 5 * MB)
			throw invalidRequest('Images can be at most 5 MB', { total_bytes: [String(total)] });
		if (type === 'animated_gif' && total > 15 * MB)
			throw invalidRequest('GIFs can be at most 15 MB', { total_bytes: [String(total)] });
		if (type === 'video' && total > 512 * MB)
			throw invalidRequest('Videos can be at most 512 MB', { total_bytes: [String(total)] });
	}

	sb.route('POST', '/2/media/upload/initialize', 'user', ({ body, bodyKind }) => {
		if (bodyKind !== 'json') throw invalidRequest('initialize takes a JSON body', {});
		const b = body || {};
		validateInit(b);
		const m = newMedia({
			media_type: b.media_type,
			total_bytes: b.total_bytes,
			media_category: b.media_category && String(b.media_category).toLowerCase(),
		});
		return {
			body: {
				data: { id: m.id, media_key: m.media_key, expires_after_secs: 86400 },
				meta: {},
			},
		};
	});

	// What processing will decide about the received bytes: too long for the category, or marked to fail.
	function judgeBytes(m, bytes) {
		if (m.type === 'video') {
			const ms = mp4DurationMs(bytes);
			if (ms !== undefined) m.duration_ms = ms;
			const max = MAX_DURATION_MS[m.media_category];
			if (ms !== undefined && max && ms > max)
				m.failure = {
					code: 3,
					name: 'InvalidMedia',
					message: `Video too long: ${Math.round(ms / 1000)} s, at most ${max / 1000} s for ${m.media_category}`,
				};
		}
		if (bytes.includes(FAIL_MARKER))
			m.failure = { code: 1, name: 'InvalidMedia', message: 'Unsupported video format' };
	}

	function getMedia(id) {
		const m = store().get(String(id));
		if (!m)
			throw invalidRequest(`media_id ${id} is not valid or has expired`, {
				media_id: [String(id)],
			});
		return m;
	}

	sb.route('POST', '/2/media/upload/:id/append', 'user', ({ params, body, bodyKind }) => {
		const m = getMedia(params.id);
		if (m.state !== 'initialized')
			throw invalidRequest(`Cannot append to media in state ${m.state}`, { media_id: [m.id] });
		let bytes;
		let index;
		if (bodyKind === 'multipart') {
			const f = body.media || body.media_data;
			if (!f) throw invalidRequest('The multipart body needs a `media` part', { media: [] });
			bytes = body.media ? f.data : Buffer.from(f.value, 'base64');
			index = body.segment_index ? body.segment_index.value : undefined;
		} else if (bodyKind === 'json') {
			if (typeof (body || {}).media !== 'string')
				throw invalidRequest('media (base64) is required', { media: [] });
			bytes = Buffer.from(body.media, 'base64');
			index = body.segment_index;
		} else throw invalidRequest('append takes multipart/form-data (or JSON with base64 media)', {});
		const i = Number(index);
		if (!Number.isInteger(i) || i < 0 || i > 999)
			throw invalidRequest('segment_index must be an integer 0-999', {
				segment_index: [String(index)],
			});
		if (bytes.length > 5 * MB) throw invalidRequest('A segment can be at most 5 MB', { media: [] });
		if (!bytes.length) throw invalidRequest('The segment is empty', { media: [] });
		const before = [...m.segments.entries()].reduce((a, [k, v]) => a + (k === i ? 0 : v.length), 0);
		if (before + bytes.length > m.total_bytes)
			throw invalidRequest(`The segments hold more than total_bytes (${m.total_bytes})`, {
				media: [],
			});
		m.segments.set(i, bytes);
		return {
			status: 200,
			body: { data: { expires_at: Math.floor(Date.now() / 1000) + 86400 }, meta: {} },
		};
	});

	sb.route('POST', '/2/media/upload/:id/finalize', 'user', ({ params }) => {
		const m = getMedia(params.id);
		if (m.state !== 'initialized')
			throw invalidRequest(`Media ${m.id} was already finalized`, { media_id: [m.id] });
		const indexes = [...m.segments.keys()].sort((a, b) => a - b);
		if (!indexes.length) throw invalidRequest('No segments were appended', { media_id: [m.id] });
		if (indexes.some((v, i) => v !== i))
			throw invalidRequest(`Segments are missing (got ${indexes.join(',')})`, { media_id: [m.id] });
		m.received = [...m.segments.values()].reduce((a, b) => a + b.length, 0);
		if (m.received !== m.total_bytes)
			throw invalidRequest(
				`File size mismatch: total_bytes ${m.total_bytes}, received ${m.received}`,
				{ media_id: [m.id] },
			);
		// The bytes in segment order: what the media key now stands for.
		const bytes = Buffer.concat(indexes.map((k) => m.segments.get(k)));
		m.sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
		judgeBytes(m, bytes);
		m.segments = new Map(indexes.map((k) => [k, { length: m.segments.get(k).length }]));
		if (m.type === 'photo' || m.type === 'subtitles') {
			m.state = 'succeeded';
			return {
				body: { data: view(m), meta: {} },
			};
		}
		m.state = 'pending';
		m.polls = 0;
		return {
			body: {
				data: view(m, { processing_info: { state: 'pending', check_after_secs: 1 } }),
				meta: {},
			},
		};
	});

	sb.route('GET', '/2/media/upload', 'user', ({ q }) => {
		if (q.command !== 'STATUS')
			throw invalidRequest('command must be STATUS', { command: [String(q.command)] });
		const m = getMedia(q.media_id);
		if (m.type === 'photo' || m.type === 'subtitles')
			throw invalidRequest('STATUS is only for asynchronous media (video, GIF)', {
				media_id: [m.id],
			});
		if (m.state === 'initialized')
			throw invalidRequest('The upload was not finalized', { media_id: [m.id] });
		if (m.state !== 'succeeded' && m.state !== 'failed') {
			m.polls++;
			m.state = m.failure ? 'failed' : m.polls >= 2 ? 'succeeded' : 'in_progress';
		}
		const info = { state: m.state };
		if (m.state === 'in_progress')
			Object.assign(info, { check_after_secs: 1, progress_percent: 50 });
		if (m.state === 'failed') info.error = m.failure;
		return { body: { data: view(m, { processing_info: info }), meta: {} } };
	});

	// One-shot upload (multipart), and the base64 JSON variant.
	sb.route('POST', '/2/media/upload', 'user', ({ body, bodyKind }) => {
		let bytes;
		let category;
		let mediaType;
		if (bodyKind === 'multipart') {
			const f = body.media;
			if (!f) throw invalidRequest('The multipart body needs a `media` part', { media: [] });
			bytes = f.data;
			category = body.media_category && body.media_category.value;
			mediaType = (body.media_type && body.media_type.value) || f.contentType;
		} else if (bodyKind === 'json') {
			bytes = Buffer.from(String((body || {}).media || ''), 'base64');
			category = body.media_category;
			mediaType = body.media_type;
		} else throw invalidRequest('upload takes multipart/form-data', {});
		if (!bytes || !bytes.length) throw invalidRequest('media is empty', { media: [] });
		validateInit({
			media_type: mediaType || 'image/png',
			total_bytes: bytes.length,
			media_category: category,
		});
		const m = newMedia({
			media_type: mediaType || 'image/png',
			total_bytes: bytes.length,
			media_category: category && String(category).toLowerCase(),
		});
		m.received = bytes.length;
		m.sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
		judgeBytes(m, bytes);
		if (m.type === 'photo' || m.type === 'subtitles') {
			m.state = 'succeeded';
			return {
				body: { data: view(m), meta: {} },
			};
		}
		m.state = 'pending';
		m.polls = 0;
		return {
			body: {
				data: view(m, { processing_info: { state: 'pending', check_after_secs: 1 } }),
				meta: {},
			},
		};
	});

	sb.route('POST', '/2/media/metadata', 'user', ({ body }) => {
		const b = body || {};
		const m = store().get(String(b.id));
		if (!m) throw notFound('media', 'id', b.id);
		const text = b.metadata && b.metadata.alt_text && b.metadata.alt_text.text;
		if (typeof text !== 'string' || text.length > 1000)
			throw invalidRequest('metadata.alt_text.text must be at most 1000 characters', {
				'metadata.alt_text.text': [],
			});
		if (m.type === 'video')
			throw problem(
				400,
				'invalid-request',
				'Invalid Request',
				'Alt text is for images and GIFs only.',
			);
		m.alt_text = text;
		return { body: { data: { id: m.id, associated_metadata: { alt_text: { text } } } } };
	});
}

module.exports = { install, mp4DurationMs, FAIL_MARKER };
