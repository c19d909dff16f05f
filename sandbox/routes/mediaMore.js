'use strict';
/**
 * Media lookups by media key, media analytics and video subtitles, over the media the upload routes
 * (media.js) store and the images of emitted posts.
 */
const crypto = require('node:crypto');
const { invalidRequest, notFound, problem, PROBLEM_BASE } = require('../lib/http');

const MEDIA_KEY = /^[0-9]+_[0-9]+$/;
const HOUR_MS = 3600 * 1000;
/** The most time buckets one analytics request may span (a guard of the sandbox's memory). */
const MAX_BUCKETS = 24 * 93;

/** A stable number for a media key and a label: the sandbox's metrics are reproducible. */
function stable(key, label, max) {
	const hash = crypto.createHash('sha256').update(`${key}:${label}`).digest();
	return hash.readUInt32BE(0) % max;
}

function install(sb) {
	/** Uploaded media (finished uploads only) and the images of emitted posts, by media key. */
	function byKey(key) {
		for (const m of sb.db.media.values())
			if (m.media_key === key && m.state === 'succeeded') return m;
		const image = sb.db.postMedia && sb.db.postMedia.get(key);
		return image && !image.deleted ? image : undefined;
	}

	const fieldsOf = (q, name) => (q[name] ? String(q[name]).split(',').filter(Boolean) : []);

	/**
	 * A media object as the service shows it: media_key and type always, the rest on request. The
	 * metrics that are not public are shown only to a user's token (the service shows them to the
	 * media's owner).
	 */
	function view(m, q, auth) {
		const key = m.media_key;
		const isVideo = m.type === 'video' || m.type === 'animated_gif';
		const all = {
			media_key: key,
			type: m.type,
			width: m.width,
			height: m.height,
			alt_text: m.alt_text,
			duration_ms: m.type === 'video' ? m.duration_ms : undefined,
			url: isVideo ? undefined : m.url,
			preview_image_url: isVideo ? `https://pbs.sandbox.local/media/${key}/preview.jpg` : undefined,
			public_metrics: isVideo ? { view_count: stable(key, 'views', 10000) } : undefined,
			variants: isVideo
				? [
						{
							bit_rate: 632000,
							content_type: 'video/mp4',
							url: `https://video.sandbox.local/${key}/640x360.mp4`,
						},
					]
				: undefined,
		};
		if (isVideo && auth.kind !== 'app') {
			const playback = (label) => ({
				playback_0_count: stable(key, `${label}0`, 1000),
				playback_25_count: stable(key, `${label}25`, 800),
				playback_50_count: stable(key, `${label}50`, 600),
				playback_75_count: stable(key, `${label}75`, 400),
				playback_100_count: stable(key, `${label}100`, 200),
			});
			all.non_public_metrics = playback('np');
			all.organic_metrics = Object.assign(playback('org'), {
				view_count: stable(key, 'views', 10000),
			});
			all.promoted_metrics = Object.assign(playback('pro'), { view_count: 0 });
		}
		const out = { media_key: key, type: m.type };
		for (const f of fieldsOf(q, 'media.fields')) if (all[f] !== undefined) out[f] = all[f];
		return out;
	}

	function keysOf(q) {
		const keys = String(q.media_keys || '')
			.split(',')
			.filter(Boolean);
		if (!keys.length) throw invalidRequest('media_keys is required', { media_keys: [] });
		if (keys.length > 100)
			throw invalidRequest('media_keys takes at most 100 keys', { media_keys: [q.media_keys] });
		for (const k of keys)
			if (!MEDIA_KEY.test(k))
				throw invalidRequest(`${k} is not a media key`, { media_keys: [String(q.media_keys)] });
		return keys;
	}

	const missing = (key, parameter) => ({
		value: key,
		detail: `Could not find media with ${parameter}: [${key}].`,
		title: 'Not Found Error',
		resource_type: 'media',
		parameter,
		resource_id: key,
		type: PROBLEM_BASE + 'resource-not-found',
	});

	// Before /2/media/:media_key, which would take "analytics" for a key.
	sb.route('GET', '/2/media/analytics', 'user', ({ q }) => {
		const keys = keysOf(q);
		const start = new Date(String(q.start_time || ''));
		const end = new Date(String(q.end_time || ''));
		if (isNaN(start) || isNaN(end))
			throw invalidRequest('start_time and end_time are required (ISO 8601)', {});
		if (end <= start)
			throw invalidRequest('end_time must be after start_time', { end_time: [q.end_time] });
		const granularity = String(q.granularity || '');
		if (!['hourly', 'daily', 'total'].includes(granularity))
			throw invalidRequest('granularity must be hourly, daily or total', {
				granularity: [granularity],
			});
		const step = granularity === 'hourly' ? HOUR_MS : 24 * HOUR_MS;
		const buckets = [];
		if (granularity === 'total') buckets.push(start);
		else
			for (let t = start.getTime(); t < end.getTime(); t += step) {
				buckets.push(new Date(t));
				if (buckets.length > MAX_BUCKETS)
					throw invalidRequest(`The window holds more than ${MAX_BUCKETS} ${granularity} buckets`, {
						granularity: [granularity],
					});
			}
		const wanted = fieldsOf(q, 'media_analytics.fields');
		const METRICS = [
			'cta_url_clicks',
			'cta_watch_clicks',
			'play_from_tap',
			'playback25',
			'playback50',
			'playback75',
			'playback_complete',
			'playback_start',
			'video_views',
			'watch_time_ms',
		];
		const data = [];
		const errors = [];
		for (const key of keys) {
			const m = byKey(key);
			if (!m) {
				errors.push(missing(key, 'media_keys'));
				continue;
			}
			data.push({
				media_key: key,
				timestamped_metrics: buckets.map((at) => {
					const metrics = {};
					for (const name of METRICS)
						if (!wanted.length || wanted.includes(name))
							metrics[name] = stable(key, `${name}@${at.toISOString()}`, 500);
					return { timestamp: sb.isoSeconds(at), metrics };
				}),
			});
		}
		const body = {};
		if (data.length) body.data = data;
		if (errors.length) body.errors = errors;
		return { body };
	});

	sb.route('GET', '/2/media', 'any', ({ q, auth }) => {
		const keys = keysOf(q);
		const data = [];
		const errors = [];
		for (const key of keys) {
			const m = byKey(key);
			if (m) data.push(view(m, q, auth));
			else errors.push(missing(key, 'media_keys'));
		}
		const body = {};
		if (data.length) body.data = data;
		if (errors.length) body.errors = errors;
		return { body };
	});

	sb.route('GET', '/2/media/:media_key', 'any', ({ params, q, auth }) => {
		if (!MEDIA_KEY.test(params.media_key))
			throw invalidRequest(`${params.media_key} is not a media key`, {
				media_key: [params.media_key],
			});
		const m = byKey(params.media_key);
		if (!m) throw notFound('media', 'media_key', params.media_key);
		return { body: { data: view(m, q, auth) } };
	});

	// ---- Subtitles of videos ----
	/** TweetVideo is a video uploaded for posts or direct messages, AmplifyVideo one for ads. */
	const CATEGORY_OF = {
		tweet_video: 'TweetVideo',
		dm_video: 'TweetVideo',
		amplify_video: 'AmplifyVideo',
	};

	function videoOf(b) {
		if (!/^[0-9]{1,19}$/.test(String(b.id ?? '')))
			throw invalidRequest('id must be a media id', { id: [String(b.id ?? '')] });
		const video = sb.db.media.get(String(b.id));
		if (!video) throw notFound('media', 'id', b.id);
		if (video.type !== 'video')
			throw invalidRequest('Subtitles are for videos only', { id: [video.id] });
		if (video.state !== 'succeeded')
			throw invalidRequest(`The video is not processed yet (${video.state})`, { id: [video.id] });
		if (CATEGORY_OF[video.media_category] !== b.media_category)
			throw invalidRequest(
				`media_category must be ${CATEGORY_OF[video.media_category]} for this video`,
				{ media_category: [String(b.media_category ?? '')] },
			);
		if (!video.subtitles) video.subtitles = new Map();
		return video;
	}
	const languageOf = (code, name) => {
		if (!/^[A-Z]{2}$/.test(String(code ?? '')))
			throw invalidRequest(`${name} must be two capital letters (ISO 639-1)`, {
				[name]: [String(code ?? '')],
			});
		return String(code);
	};

	sb.route('POST', '/2/media/subtitles', 'user', ({ body }) => {
		const b = body || {};
		const video = videoOf(b);
		const s = b.subtitles || {};
		const language = languageOf(s.language_code, 'subtitles.language_code');
		const file = sb.db.media.get(String(s.id ?? ''));
		if (!file || file.type !== 'subtitles' || file.state !== 'succeeded')
			throw invalidRequest('subtitles.id must be an uploaded subtitle file (category subtitles)', {
				'subtitles.id': [String(s.id ?? '')],
			});
		// One file per language: a second one replaces the first.
		video.subtitles.set(language, {
			id: file.id,
			language_code: language,
			...(s.display_name !== undefined ? { display_name: String(s.display_name) } : {}),
		});
		return {
			body: {
				data: {
					id: video.id,
					media_category: b.media_category,
					associated_subtitles: [...video.subtitles.values()],
				},
			},
		};
	});

	sb.route('DELETE', '/2/media/subtitles', 'user', ({ body }) => {
		const b = body || {};
		const video = videoOf(b);
		const language = languageOf(b.language_code, 'language_code');
		if (!video.subtitles.has(language))
			throw problem(
				404,
				'resource-not-found',
				'Not Found Error',
				`The video has no ${language} subtitles.`,
			);
		video.subtitles.delete(language);
		return { body: { data: { deleted: true } } };
	});
}

module.exports = { install };
