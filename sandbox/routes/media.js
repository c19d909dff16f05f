'use strict';
/** Media upload, v2: chunked (initialize / append / finalize / STATUS), one-shot, and alt text metadata. */
const { invalidRequest, notFound, problem } = require('../lib/http');

const MB = 1024 * 1024;
const CATEGORIES = ['tweet_image', 'tweet_gif', 'tweet_video', 'amplify_video', 'dm_image', 'dm_gif', 'dm_video', 'subtitles'];

function install(sb) {
	const store = () => sb.db.media;

	function typeOf(mediaType, category) {
		const t = String(mediaType || '').toLowerCase();
		if (t === 'image/gif' || /gif/.test(category || '')) return 'animated_gif';
		if (t.startsWith('video/') || /video/.test(category || '')) return 'video';
		return 'photo';
	}
	function keyPrefix(type) {
		return { photo: '3', animated_gif: '16', video: '13' }[type] || '3';
	}
	function newMedia({ media_type, total_bytes, media_category }) {
		const id = sb.newId();
		const type = typeOf(media_type, media_category);
		const m = { id, media_key: `${keyPrefix(type)}_${id}`, type, media_type, media_category: media_category || (type === 'video' ? 'tweet_video' : type === 'animated_gif' ? 'tweet_gif' : 'tweet_image'), total_bytes: Number(total_bytes), segments: new Map(), state: 'initialized', created_at: new Date().toISOString(), width: 1200, height: 628 };
		if (type === 'video') m.duration_ms = 15000;
		m.url = `https://pbs.sandbox.local/media/${id}`;
		store().set(id, m);
		return m;
	}
	const view = (m, extra = {}) => Object.assign({ id: m.id, media_key: m.media_key, size: m.received || m.total_bytes, expires_after_secs: 86400 }, extra);

	function validateInit(b) {
		if (!b.media_type) throw invalidRequest('media_type is required', { media_type: [] });
		const total = Number(b.total_bytes);
		if (!Number.isInteger(total) || total < 1) throw invalidRequest('total_bytes must be a positive integer', { total_bytes: [String(b.total_bytes)] });
		if (b.media_category && !CATEGORIES.includes(String(b.media_category).toLowerCase())) throw invalidRequest(`media_category must be one of ${CATEGORIES.join(', ')}`, { media_category: [String(b.media_category)] });
		const type = typeOf(b.media_type, b.media_category);
		if (type === 'photo' && total > 5 * MB) throw invalidRequest('Images can be at most 5 MB', { total_bytes: [String(total)] });
		if (type === 'animated_gif' && total > 15 * MB) throw invalidRequest('GIFs can be at most 15 MB', { total_bytes: [String(total)] });
		if (type === 'video' && total > 512 * MB) throw invalidRequest('Videos can be at most 512 MB', { total_bytes: [String(total)] });
	}

	sb.route('POST', '/2/media/upload/initialize', 'user', ({ body, bodyKind }) => {
		if (bodyKind !== 'json') throw invalidRequest('initialize takes a JSON body', {});
		const b = body || {};
		validateInit(b);
		const m = newMedia({ media_type: b.media_type, total_bytes: b.total_bytes, media_category: b.media_category && String(b.media_category).toLowerCase() });
		return { body: { data: { id: m.id, media_key: m.media_key, expires_after_secs: 86400 } } };
	});

	function getMedia(id) {
		const m = store().get(String(id));
		if (!m) throw invalidRequest(`media_id ${id} is not valid or has expired`, { media_id: [String(id)] });
		return m;
	}

	sb.route('POST', '/2/media/upload/:id/append', 'user', ({ params, body, bodyKind }) => {
		const m = getMedia(params.id);
		if (m.state !== 'initialized') throw invalidRequest(`Cannot append to media in state ${m.state}`, { media_id: [m.id] });
		let bytes;
		let index;
		if (bodyKind === 'multipart') {
			const f = body.media || body.media_data;
			if (!f) throw invalidRequest('The multipart body needs a `media` part', { media: [] });
			bytes = body.media ? f.data : Buffer.from(f.value, 'base64');
			index = body.segment_index ? body.segment_index.value : undefined;
		} else if (bodyKind === 'json') {
			if (typeof (body || {}).media !== 'string') throw invalidRequest('media (base64) is required', { media: [] });
			bytes = Buffer.from(body.media, 'base64');
			index = body.segment_index;
		} else throw invalidRequest('append takes multipart/form-data (or JSON with base64 media)', {});
		const i = Number(index);
		if (!Number.isInteger(i) || i < 0 || i > 999) throw invalidRequest('segment_index must be an integer 0-999', { segment_index: [String(index)] });
		if (bytes.length > 5 * MB) throw invalidRequest('A segment can be at most 5 MB', { media: [] });
		if (!bytes.length) throw invalidRequest('The segment is empty', { media: [] });
		m.segments.set(i, bytes.length);
		return { status: 200, body: { data: { expires_at: Math.floor(Date.now() / 1000) + 86400 } } };
	});

	sb.route('POST', '/2/media/upload/:id/finalize', 'user', ({ params }) => {
		const m = getMedia(params.id);
		if (m.state !== 'initialized') throw invalidRequest(`Media ${m.id} was already finalized`, { media_id: [m.id] });
		const indexes = [...m.segments.keys()].sort((a, b) => a - b);
		if (!indexes.length) throw invalidRequest('No segments were appended', { media_id: [m.id] });
		if (indexes.some((v, i) => v !== i)) throw invalidRequest(`Segments are missing (got ${indexes.join(',')})`, { media_id: [m.id] });
		m.received = [...m.segments.values()].reduce((a, b) => a + b, 0);
		if (m.received !== m.total_bytes) throw invalidRequest(`File size mismatch: total_bytes ${m.total_bytes}, received ${m.received}`, { media_id: [m.id] });
		if (m.type === 'photo') {
			m.state = 'succeeded';
			return { body: { data: view(m, { image: { image_type: m.media_type, w: m.width, h: m.height } }) } };
		}
		m.state = 'pending';
		m.polls = 0;
		return { body: { data: view(m, { processing_info: { state: 'pending', check_after_secs: 1 } }) } };
	});

	sb.route('GET', '/2/media/upload', 'user', ({ q }) => {
		if (q.command !== 'STATUS') throw invalidRequest('command must be STATUS', { command: [String(q.command)] });
		const m = getMedia(q.media_id);
		if (m.type === 'photo') throw invalidRequest('STATUS is only for asynchronous media (video, GIF)', { media_id: [m.id] });
		if (m.state === 'initialized') throw invalidRequest('The upload was not finalized', { media_id: [m.id] });
		if (m.state !== 'succeeded' && m.state !== 'failed') {
			m.polls++;
			m.state = m.failOnProcess ? 'failed' : m.polls >= 2 ? 'succeeded' : 'in_progress';
		}
		const info = { state: m.state };
		if (m.state === 'in_progress') Object.assign(info, { check_after_secs: 1, progress_percent: 50 });
		if (m.state === 'failed') info.error = { code: 1, name: 'InvalidMedia', message: 'Unsupported video format' };
		return { body: { data: view(m, { processing_info: info }) } };
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
		validateInit({ media_type: mediaType || 'image/png', total_bytes: bytes.length, media_category: category });
		const m = newMedia({ media_type: mediaType || 'image/png', total_bytes: bytes.length, media_category: category && String(category).toLowerCase() });
		m.received = bytes.length;
		if (m.type === 'photo') {
			m.state = 'succeeded';
			return { body: { data: view(m, { image: { image_type: m.media_type, w: m.width, h: m.height } }) } };
		}
		m.state = 'pending';
		m.polls = 0;
		return { body: { data: view(m, { processing_info: { state: 'pending', check_after_secs: 1 } }) } };
	});

	sb.route('POST', '/2/media/metadata', 'user', ({ body }) => {
		const b = body || {};
		const m = store().get(String(b.id));
		if (!m) throw notFound('media', 'id', b.id);
		const text = b.metadata && b.metadata.alt_text && b.metadata.alt_text.text;
		if (typeof text !== 'string' || text.length > 1000) throw invalidRequest('metadata.alt_text.text must be at most 1000 characters', { 'metadata.alt_text.text': [] });
		if (m.type === 'video') throw problem(400, 'invalid-request', 'Invalid Request', 'Alt text is for images and GIFs only.');
		m.alt_text = text;
		return { body: { data: { id: m.id, associated_metadata: { alt_text: { text } } } } };
	});
}

module.exports = { install };
