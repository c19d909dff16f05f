'use strict';
/**
 * Webhooks (CRC, signed delivery, management), activity subscriptions,
 * signed deliveries, the delivery log and replay jobs.
 */
const http = require('node:http');
const https = require('node:https');
const crypto = require('node:crypto');

const { HttpError, problem, invalidRequest, notFound, PROBLEM_BASE } = require('../lib/http');

/**
 * The event types a subscription takes, from the rule table: the service's contract names (profile
 * events, follows, news, Spaces, chat) and those only its prose names, being newer (post.*, dm.*;
 * contract/prose.js). The prose's profile.update.verified and profile.update.affiliate are not among
 * them: the service calls those profile.update.verified_badge and profile.update.affiliate_badge.
 */
const eventTypesOf = (table) =>
	table.schemas.ActivitySubscriptionCreateRequest.properties.event_type.enum.filter((t) =>
		t.includes('.'),
	);
/** The deprecated PascalCase names the service still takes, as its contract pairs them. */
const PASCAL = {
	ProfileBioUpdate: 'profile.update.bio',
	ProfilePictureUpdate: 'profile.update.profile_picture',
	ProfileBannerPictureUpdate: 'profile.update.banner_picture',
	ProfileScreennameUpdate: 'profile.update.screenname',
	ProfileGeoUpdate: 'profile.update.geo',
	ProfileUrlUpdate: 'profile.update.url',
	ProfileVerifiedBadgeUpdate: 'profile.update.verified_badge',
	NewsNew: 'news.new',
	FollowFollow: 'follow.follow',
	FollowUnfollow: 'follow.unfollow',
	PostCreate: 'post.create',
	PostDelete: 'post.delete',
};
const normalizeType = (t) => PASCAL[t] || t;

function sign(secret, bytes) {
	return 'sha256=' + crypto.createHmac('sha256', secret).update(bytes).digest('base64');
}

/** One HTTP request with a hard timeout; resolves {status, headers, body, ms} or {error}. */
function request(method, url, { headers = {}, body, timeoutMs = 10000 } = {}) {
	return new Promise((resolve) => {
		const started = Date.now();
		let u;
		try {
			u = new URL(url);
		} catch (error) {
			resolve({ error: 'bad URL', ms: 0 });
			return;
		}
		const lib = u.protocol === 'https:' ? https : http;
		// localhost may resolve to ::1 first while n8n listens on 127.0.0.1 only.
		const target = {
			protocol: u.protocol,
			hostname: u.hostname === 'localhost' ? '127.0.0.1' : u.hostname,
			port: u.port,
			path: u.pathname + u.search,
		};
		headers = Object.assign({ host: u.host }, headers);
		const req = lib.request(
			Object.assign(target, {
				method,
				headers: Object.assign(
					{ 'user-agent': 'PlatformSandbox-Webhooks/1.0' },
					headers,
					body ? { 'content-length': Buffer.byteLength(body) } : {},
				),
				timeout: timeoutMs,
				agent: false,
			}),
			(res) => {
				const chunks = [];
				res.on('data', (c) => chunks.push(c));
				res.on('end', () =>
					resolve({
						status: res.statusCode,
						headers: res.headers,
						body: Buffer.concat(chunks).toString('utf8'),
						ms: Date.now() - started,
					}),
				);
				res.on('error', (error) =>
					resolve({ error: String(error.message), ms: Date.now() - started }),
				);
			},
		);
		req.on('timeout', () => req.destroy(new Error('timeout')));
		req.on('error', (error) =>
			resolve({ error: String(error.code || error.message), ms: Date.now() - started }),
		);
		if (body) req.write(body);
		req.end();
	});
}

function install(sb) {
	const EVENT_TYPES = eventTypesOf(sb.contract.table);
	const secret = () => sb.keys.consumerSecret;

	/** Sends a CRC GET and updates the webhook's validity. */
	sb.crc = async (webhook, { reason = 'manual', nonce = false } = {}) => {
		const token = crypto.randomBytes(24).toString('base64url');
		const url = new URL(webhook.url);
		url.searchParams.set('crc_token', token);
		if (nonce) url.searchParams.set('nonce', crypto.randomBytes(8).toString('hex'));
		const result = await request('GET', url.toString(), {
			timeoutMs: sb.options.deliveryTimeoutMs,
		});
		const expected = sign(secret(), token);
		let ok = false;
		let why = '';
		if (result.error) why = `request failed: ${result.error}`;
		else if (result.status >= 300 && result.status < 400) why = `3XX status ${result.status}`;
		else if (result.status !== 200) why = `status ${result.status}`;
		else if (!/json/i.test(String(result.headers['content-type'] || '')))
			why = `content-type is ${result.headers['content-type'] || 'missing'}, not application/json`;
		else {
			try {
				const parsed = JSON.parse(result.body);
				ok = parsed.response_token === expected;
				if (!ok) why = 'incorrect response_token';
			} catch {
				why = 'body is not JSON';
			}
		}
		const check = {
			webhook_id: webhook.id,
			at: new Date().toISOString(),
			reason,
			status: result.status,
			ms: result.ms,
			ok,
			why: ok ? undefined : why,
		};
		sb.db.crcChecks.push(check);
		if (ok) {
			webhook.valid = true;
			webhook.last_validated_at = check.at;
		} else if (result.error || (result.status >= 400 && result.status !== 200)) {
			// Transient errors (4XX, 5XX, timeouts) invalidate only after 28 hours without success;
			// a wrong token, a 3XX or a non-JSON 200 invalidates at once.
			if (reason === 'create') webhook.valid = false;
		} else {
			webhook.valid = false;
		}
		sb.log(`CRC ${reason} ${webhook.url} -> ${ok ? 'ok' : 'FAILED: ' + why}`);
		return check;
	};

	sb.startPeriodicCrc = () => {
		sb.crcTimer = setInterval(() => {
			for (const w of sb.db.webhooks.values()) sb.crc(w, { reason: 'periodic', nonce: true });
		}, sb.options.crcIntervalMs);
		sb.crcTimer.unref();
	};

	/** POSTs one raw body to a webhook, signed (or forged), and logs the delivery. */
	sb.deliver = async (webhook, rawBody, meta = {}) => {
		const signature = meta.forge
			? sign('not-the-consumer-secret', rawBody)
			: meta.unsigned
				? undefined
				: sign(secret(), rawBody);
		const headers = { 'content-type': 'application/json; charset=utf-8' };
		if (signature) headers['x-platform-webhooks-signature'] = signature;
		const result = await request('POST', webhook.url, {
			headers,
			body: rawBody,
			timeoutMs: sb.options.deliveryTimeoutMs,
		});
		const delivery = {
			delivery_id: String(sb.db.deliveries.length + 1),
			event_uuid: meta.event_uuid,
			webhook_id: webhook.id,
			url: webhook.url,
			at: new Date().toISOString(),
			status: result.status,
			ok: !result.error && result.status === 200,
			ms: result.ms,
			error: result.error,
			forged: !!meta.forge,
			unsigned: !!meta.unsigned,
			replay_job_id: meta.replay_job_id,
		};
		sb.db.deliveries.push(delivery);
		sb.log(
			`deliver ${meta.event_uuid || 'status'} -> ${webhook.url}: ${result.error || result.status}`,
		);
		// The service retries what it signed and saw no acknowledgement for; forged and unsigned bodies
		// are not the service's.
		const retry = meta.attempt || 0;
		const delays = sb.options.deliveryRetryDelaysMs || [];
		if (!delivery.ok && signature && !meta.forge && retry < delays.length) {
			delivery.retry_scheduled_in_ms = delays[retry];
			sb.later(delays[retry], () =>
				sb.deliver(webhook, rawBody, Object.assign({}, meta, { attempt: retry + 1 })),
			);
		}
		if (retry) delivery.attempt = retry + 1;
		return delivery;
	};

	/**
	 * The service sends recorded events again, byte for byte with the same signature: what it does when
	 * a delivery's acknowledgement did not reach it (a retry). Unknown ids (never emitted, forged or
	 * unsigned ones are not recorded) are refused before anything is sent.
	 */
	sb.redeliver = async (eventUuids, { webhookId } = {}) => {
		const events = eventUuids.map((id) => {
			const e = sb.db.events.find(
				(x) => x.event_uuid === id && !x.replay && (!webhookId || x.webhook_id === webhookId),
			);
			if (!e) throw notFound('event', 'event_uuid', id);
			const webhook = sb.db.webhooks.get(e.webhook_id);
			if (!webhook) throw notFound('webhook', 'webhook_id', e.webhook_id);
			return { e, webhook };
		});
		return Promise.all(
			events.map(({ e, webhook }) =>
				sb.deliver(webhook, e.raw, { event_uuid: e.event_uuid, redelivery: true }),
			),
		);
	};

	let eventCounter = 0;
	function newEventUuid(negative) {
		eventCounter++;
		const n = (BigInt(Date.now()) * 1000n + BigInt(eventCounter % 1000)).toString();
		return negative ? '-' + n : n;
	}

	/** An image attached to an emitted post: its media object as `includes.media` carries it. */
	function postMedia(postId) {
		if (!sb.db.postMedia) sb.db.postMedia = new Map();
		if (!sb.db.postMediaOwner) sb.db.postMediaOwner = new Map();
		const key = `3_${sb.newId()}`;
		// Which post the image belongs to: deleting the post takes its image down too.
		sb.db.postMediaOwner.set(key, String(postId));
		const media = {
			media_key: key,
			type: 'photo',
			url: `${sb.url}/_sandbox/post-media/${key}`,
			width: 64,
			height: 64,
			alt_text: 'Sandbox sample image',
		};
		sb.db.postMedia.set(key, media);
		return media;
	}

	/**
	 * Replies, reposts and quotes: `reply_to`, `repost_of` or `quote_of` names the other post (one of
	 * them at most, a post id). A repost is the other post shown again: it has no media of its own
	 * and no text of its own (the service shows "RT @author: <their text>").
	 */
	const REFERENCES = { reply_to: 'replied_to', repost_of: 'retweeted', quote_of: 'quoted' };
	function checkReferences(input) {
		const named = Object.keys(REFERENCES).filter((k) => input[k] !== undefined);
		if (named.length > 1)
			throw invalidRequest(`A post references one other post at most: ${named.join(', ')}`, {
				[named[1]]: [String(input[named[1]])],
			});
		for (const k of named)
			if (!/^[0-9]{1,19}$/.test(String(input[k])))
				throw invalidRequest(`${k} must be a post id`, { [k]: [String(input[k])] });
		if (input.repost_of !== undefined && input.media)
			throw invalidRequest('A repost carries no media of its own', { media: ['true'] });
	}

	/** Deleting a post takes its images down: their URLs answer 404 from then on. */
	function deletePostMedia(postId) {
		for (const [key, owner] of sb.db.postMediaOwner || [])
			if (owner === String(postId) && sb.db.postMedia.has(key))
				sb.db.postMedia.get(key).deleted = true;
	}

	function buildPayload(type, input, userId) {
		if (input.payload !== undefined) return input.payload;
		const now = new Date().toISOString();
		const text = input.text || `Sandbox post ${eventCounter + 1}`;
		switch (normalizeType(type)) {
			case 'post.create': {
				const id = input.post_id || sb.newId();
				const post = {
					id,
					text,
					author_id: userId,
					created_at: now,
					edit_history_tweet_ids: [id],
					conversation_id: id,
					lang: 'en',
				};
				const ref = Object.keys(REFERENCES).find((k) => input[k] !== undefined);
				if (ref) post.referenced_tweets = [{ type: REFERENCES[ref], id: String(input[ref]) }];
				if (ref === 'reply_to') {
					post.in_reply_to_user_id = '1000000002';
					post.conversation_id = String(input.reply_to);
				}
				if (ref === 'repost_of') post.text = `RT @other_person: ${text}`;
				if (input.media) post.attachments = { media_keys: [postMedia(id).media_key] };
				return post;
			}
			case 'post.delete':
				deletePostMedia(input.post_id);
				return { id: input.post_id || sb.newId(), author_id: userId };
			// Profile events carry the value before and after the change, as strings.
			case 'profile.update.bio':
				return { before: 'old bio', after: text };
			case 'profile.update.screenname':
			case 'profile.update.handle':
				return { before: 'old_name', after: 'new_name' };
			case 'profile.update.profile_picture':
			case 'profile.update.banner_picture':
				return {
					before: `https://pbs.sandbox.local/${userId}/old.jpg`,
					after: `https://pbs.sandbox.local/${userId}/new.jpg`,
				};
			case 'profile.update.geo':
				return { before: 'Berlin', after: 'Lisbon' };
			case 'profile.update.url':
				return { before: 'https://old.example', after: 'https://new.example' };
			case 'profile.update.verified_badge':
				return { before: 'none', after: 'blue' };
			case 'profile.update.affiliate_badge':
				return { before: '', after: 'Sandbox Org' };
			// A follow names the follower (source) and the followed user (target).
			case 'follow.follow':
			case 'follow.unfollow':
				return {
					source: { id: '1000000002', name: 'Other Person', username: 'other_person' },
					target: { id: userId, name: 'Sandbox User', username: sb.keys.username },
				};
			case 'news.new':
				return {
					headline: text,
					summary: `What happened: ${text}`,
					hook: 'Why it matters',
					category: 'Technology',
				};
			// The service shows no chat payload: the sandbox sends the message's ids and time.
			case 'chat.received':
			case 'chat.sent':
				return {
					conversation_id: `1000000002:${userId}`,
					message_id: sb.newId(),
					sender_id: normalizeType(type) === 'chat.sent' ? userId : '1000000002',
					created_at: now,
				};
			case 'dm.received':
			case 'dm.sent':
			case 'dm.read':
			case 'dm.indicate_typing':
				return {
					direct_message_events: [
						{
							id: sb.newId(),
							event_type: 'MessageCreate',
							text,
							sender_id: '1000000002',
							dm_conversation_id: `1000000002-${userId}`,
							created_at: now,
						},
					],
				};
			case 'spaces.start':
			case 'spaces.end':
				return {
					id: '1YqKDqWqdPLsV',
					state: normalizeType(type) === 'spaces.start' ? 'live' : 'ended',
					creator_id: userId,
					title: text,
				};
			default:
				return { id: userId, text };
		}
	}

	const ACCOUNT_ACTIVITY_KINDS = {
		'post.create': 'tweet_create_events',
		'post.delete': 'tweet_delete_events',
		favorite: 'favorite_events',
		follow: 'follow_events',
		unfollow: 'follow_events',
		block: 'block_events',
		unblock: 'block_events',
		mute: 'mute_events',
		unmute: 'mute_events',
		'dm.message': 'direct_message_events',
	};
	/** One element of an Account Activity array, shaped like the service's (an id of its own). */
	function accountActivityElement(type, payload, userId, id) {
		const now = new Date();
		const other = { id: '1000000002', id_str: '1000000002', screen_name: 'other_person' };
		const me = { id: userId, id_str: userId, screen_name: sb.keys.username };
		switch (type) {
			case 'favorite':
				return {
					id: String(id),
					created_at: now.toUTCString(),
					timestamp_ms: now.getTime(),
					favorited_status: { id_str: sb.newId(), text: payload && payload.text, user: me },
					user: other,
				};
			case 'follow':
			case 'unfollow':
			case 'block':
			case 'unblock':
			case 'mute':
			case 'unmute':
				// As the service sends them: no id of their own; `source_id` emits one from another user.
				return {
					type,
					created_timestamp: String(now.getTime()),
					source:
						payload && payload.source_id
							? { ...other, id: String(payload.source_id), id_str: String(payload.source_id) }
							: other,
					target: me,
				};
			case 'dm.message':
				return {
					id: String(id),
					type: 'message_create',
					created_timestamp: String(now.getTime()),
					message_create: {
						sender_id: other.id,
						target: { recipient_id: userId },
						message_data: { text: (payload && payload.text) || 'hello' },
					},
				};
			default:
				return payload;
		}
	}

	function subscriptionMatches(sub, type, userId, payload, direction) {
		if (normalizeType(sub.event_type) !== normalizeType(type)) return false;
		const f = sub.filter || {};
		if (f.user_id && String(f.user_id) !== String(userId)) return false;
		if (
			f.keyword &&
			!JSON.stringify(payload).toLowerCase().includes(String(f.keyword).toLowerCase())
		)
			return false;
		if (f.direction && direction && f.direction !== direction) return false;
		return true;
	}

	/**
	 * Emits events: one copy per matching subscription (as the service does), each delivered to the
	 * subscription's webhook (a subscription that names none is delivered over the activity stream);
	 * webhooks without any subscription receive every event. `webhook_id` targets one webhook directly.
	 */
	sb.emit = async (input = {}) => {
		const type = input.event_type || 'post.create';
		const userId = String(input.user_id || sb.keys.userId);
		const count = Math.min(Math.max(Number(input.count || 1), 1), 10000);
		if (normalizeType(type) === 'post.create') checkReferences(input);
		const results = [];
		for (let i = 0; i < count; i++) {
			const payload = buildPayload(type, input, userId);
			// `deleted`: the author deleted the post between the event and the workflow's run (its
			// image is gone when the workflow fetches it).
			if (input.deleted && payload && payload.id) deletePostMedia(payload.id);
			const direction =
				type.startsWith('dm.') || type.startsWith('chat.')
					? type === 'dm.sent' || type === 'chat.sent'
						? 'sent'
						: 'received'
					: undefined;
			const targets = [];
			if (input.webhook_id) {
				const w = sb.db.webhooks.get(String(input.webhook_id));
				if (!w)
					throw invalidRequest('WebhookIdInvalid', { webhook_id: [String(input.webhook_id)] });
				targets.push({ webhook: w, sub: undefined });
			} else if (input.shape === 'account_activity') {
				// Account Activity deliveries go to every webhook the account is subscribed to.
				for (const [webhookId, users] of sb.db.accountSubscriptions) {
					const w = sb.db.webhooks.get(webhookId);
					if (w && users.has(userId)) targets.push({ webhook: w, sub: undefined });
				}
			} else {
				const subscribed = new Set();
				for (const sub of sb.db.subscriptions.values()) {
					if (!subscriptionMatches(sub, type, userId, payload, direction)) continue;
					// A subscription without a webhook is the app's activity stream's (routes/activityStream.js).
					if (!sub.webhook_id) continue;
					const hook = sb.db.webhooks.get(sub.webhook_id);
					if (hook) targets.push({ webhook: hook, sub });
				}
				for (const s of sb.db.subscriptions.values())
					if (s.webhook_id) subscribed.add(s.webhook_id);
				for (const w of sb.db.webhooks.values())
					if (!subscribed.has(w.id) && !targets.some((t) => t.webhook === w))
						targets.push({ webhook: w, sub: undefined });
			}
			const event_uuid = input.event_uuid || newEventUuid(!!input.negative_uuid);
			const deliveries = [];
			for (const { webhook, sub } of targets) {
				let envelope;
				if (input.shape === 'account_activity') {
					const kind =
						ACCOUNT_ACTIVITY_KINDS[type] ||
						ACCOUNT_ACTIVITY_KINDS[normalizeType(type)] ||
						'tweet_create_events';
					envelope = {
						for_user_id: userId,
						[kind]: [
							input.payload !== undefined
								? payload
								: accountActivityElement(type, payload, userId, event_uuid),
						],
					};
				} else {
					envelope = {
						data: {
							event_uuid,
							event_type: type,
							filter: sub ? sub.filter : { user_id: userId },
							payload,
						},
					};
					if (sub && sub.tag) envelope.data.tag = sub.tag;
					if (input.includes) envelope.data.includes = input.includes;
					const keys = (payload && payload.attachments && payload.attachments.media_keys) || [];
					if (!input.includes && keys.length && sb.db.postMedia)
						envelope.data.includes = {
							media: keys
								.map((k) => sb.db.postMedia.get(k))
								.filter(Boolean)
								// `deleted` is the sandbox's own mark, not part of the service's media object.
								.map((m) => Object.fromEntries(Object.entries(m).filter(([k]) => k !== 'deleted'))),
						};
				}
				const raw = input.rawBody || JSON.stringify(envelope);
				const event = {
					event_uuid,
					event_type: type,
					webhook_id: webhook.id,
					subscription_id: sub ? sub.subscription_id : undefined,
					created_at: new Date().toISOString(),
					raw,
					forged: !!input.forge,
				};
				// Forged and unsigned bodies are not from the service: they are never replayed.
				if (!input.forge && !input.unsigned) sb.db.events.push(event);
				if (!webhook.valid && !input.force) {
					deliveries.push({ webhook_id: webhook.id, skipped: 'webhook invalid' });
					continue;
				}
				deliveries.push(
					await sb.deliver(webhook, raw, {
						event_uuid,
						forge: input.forge,
						unsigned: input.unsigned,
					}),
				);
			}
			results.push({ event_uuid, event_type: type, payload, deliveries });
		}
		return results;
	};

	/** Runs a replay job: re-delivers every event sent or attempted to the webhook within the range. */
	sb.startReplay = (webhook, from, to, { delayMs = 100 } = {}) => {
		const running = sb.db.replayJobs.find((j) => j.state === 'running');
		if (running)
			throw problem(
				409,
				'conflict',
				'Conflict',
				'A replay job is already in progress. Wait for it to finish before creating a new one.',
			);
		const job = {
			job_id: sb.newId(),
			created_at: new Date().toISOString(),
			webhook_id: webhook.id,
			from: from.toISOString(),
			to: to.toISOString(),
			state: 'running',
			delivered: 0,
		};
		sb.db.replayJobs.push(job);
		sb.later(delayMs, async () => {
			const events = sb.db.events.filter(
				(e) =>
					e.webhook_id === webhook.id &&
					!e.replay &&
					new Date(e.created_at) >= from &&
					new Date(e.created_at) < to,
			);
			let failures = 0;
			for (const e of events) {
				const d = await sb.deliver(webhook, e.raw, {
					event_uuid: e.event_uuid,
					replay_job_id: job.job_id,
				});
				if (d.ok) job.delivered++;
				else failures++;
			}
			job.state = failures ? 'Incomplete' : 'Complete';
			const status = {
				replay_job_status: {
					webhook_id: webhook.id,
					job_state: job.state,
					job_state_description: failures
						? `${failures} events could not be delivered`
						: 'Job completed successfully',
					job_id: job.job_id,
				},
			};
			await sb.deliver(webhook, JSON.stringify(status), {
				event_uuid: `replay-status-${job.job_id}`,
			});
			job.finished_at = new Date().toISOString();
		});
		return job;
	};

	const view = (w) => ({ id: w.id, url: w.url, valid: w.valid, created_at: w.created_at });
	const wrap = (data) => (sb.options.legacyShapes ? data : { data });

	sb.route('POST', '/2/webhooks', 'app', async ({ body }) => {
		const url = body && body.url;
		if (typeof url !== 'string' || !url)
			throw invalidRequest('The `url` field is required', { url: [] });
		if (url.length > 200)
			throw invalidRequest('UrlValidationFailed: url is longer than 200 characters', {
				url: [url],
			});
		let parsed;
		try {
			parsed = new URL(url);
		} catch {
			throw invalidRequest('UrlValidationFailed: not a URL', { url: [url] });
		}
		if (!sb.options.allowInsecureWebhookUrls && (parsed.protocol !== 'https:' || parsed.port))
			throw invalidRequest('UrlValidationFailed: the URL must be public HTTPS without a port', {
				url: [url],
			});
		if (!/^https?:$/.test(parsed.protocol))
			throw invalidRequest('UrlValidationFailed: the URL must use https', { url: [url] });
		if ([...sb.db.webhooks.values()].some((w) => w.url === url))
			throw invalidRequest('DuplicateUrlFailed: a webhook with this URL is already registered', {
				url: [url],
			});
		if (sb.db.webhooks.size >= sb.options.webhookLimit)
			throw problem(
				403,
				'client-forbidden',
				'Forbidden',
				'WebhookLimitExceeded: the app has reached its webhook limit',
				{ reason: 'client-not-enrolled', registration_url: 'https://developer.sandbox.local' },
			);
		const webhook = { id: sb.newId(), url, valid: false, created_at: new Date().toISOString() };
		const check = await sb.crc(webhook, { reason: 'create' });
		if (!check.ok) throw invalidRequest(`CrcValidationFailed: ${check.why}`, { url: [url] });
		sb.db.webhooks.set(webhook.id, webhook);
		// The contract's answer is the webhook itself, without a `data` envelope.
		return { status: 200, body: view(webhook) };
	});

	sb.route('GET', '/2/webhooks', 'app', () => {
		const list = [...sb.db.webhooks.values()].map(view);
		// Without any webhook the contract's answer leaves `data` out (it holds at least one).
		const body = list.length
			? { data: list, meta: { result_count: list.length } }
			: { meta: { result_count: 0 } };
		return { body: sb.options.legacyShapes ? list : body };
	});

	const findWebhook = (id) => {
		if (!/^[0-9]{1,19}$/.test(id))
			throw invalidRequest('WebhookIdInvalid: webhook_id must be 1-19 digits', {
				webhook_id: [id],
			});
		const w = sb.db.webhooks.get(id);
		if (!w) throw invalidRequest('WebhookIdInvalid: no webhook with this id', { webhook_id: [id] });
		return w;
	};

	sb.route('DELETE', '/2/webhooks/:id', 'app', ({ params }) => {
		const w = findWebhook(params.id);
		sb.db.webhooks.delete(w.id);
		for (const [id, s] of sb.db.subscriptions)
			if (s.webhook_id === w.id) sb.db.subscriptions.delete(id);
		sb.db.accountSubscriptions.delete(w.id);
		return { body: wrap({ deleted: true }) };
	});

	sb.route('PUT', '/2/webhooks/:id', 'app', async ({ params }) => {
		const w = findWebhook(params.id);
		const check = await sb.crc(w, { reason: 'put', nonce: true });
		if (!check.ok) {
			w.valid = false;
			throw invalidRequest(`CrcValidationFailed: ${check.why}`, { webhook_id: [w.id] });
		}
		return {
			body: sb.options.legacyShapes ? { data: { attempted: true } } : { data: { valid: true } },
		};
	});

	function replayFromBody(body, ctx) {
		const b = body || {};
		const webhookId = String(b.webhook_id ?? (ctx && ctx.params.id) ?? '');
		if (!/^[0-9]{1,19}$/.test(webhookId))
			throw invalidRequest('webhook_id must match ^[0-9]{1,19}$', { webhook_id: [webhookId] });
		for (const f of ['from_date', 'to_date'])
			if (!/^[0-9]{12}$/.test(String(b[f] ?? '')))
				throw invalidRequest(`${f} must be a UTC timestamp yyyymmddhhmm (12 digits)`, {
					[f]: [String(b[f] ?? '')],
				});
		const from = sb.parseYmdhm(String(b.from_date));
		const toMinute = sb.parseYmdhm(String(b.to_date));
		if (isNaN(from) || isNaN(toMinute))
			throw invalidRequest('from_date or to_date is not a valid date', {});
		if (toMinute < from)
			throw invalidRequest('to_date must not be before from_date', {
				to_date: [String(b.to_date)],
			});
		if (Date.now() - from.getTime() > 24 * 3600 * 1000 + 60000)
			throw invalidRequest('from_date must be within the last 24 hours', {
				from_date: [String(b.from_date)],
			});
		const webhook = sb.db.webhooks.get(webhookId);
		if (!webhook)
			throw invalidRequest('WebhookIdInvalid: no webhook with this id', {
				webhook_id: [webhookId],
			});
		// to_date names a minute; the whole minute is included.
		return sb.startReplay(webhook, from, new Date(toMinute.getTime() + 60000), {
			delayMs: Number(b.__delayMs) || 100,
		});
	}

	sb.route('POST', '/2/webhooks/replay', 'app', ({ body }) => {
		const job = replayFromBody(body);
		return { body: wrap({ job_id: job.job_id, created_at: job.created_at }) };
	});
	// Deprecated path, kept by the service for a while.
	sb.route('POST', '/2/account_activity/replay/webhooks/:id/subscriptions/all', 'app', (ctx) => {
		const job = replayFromBody(Object.assign({ webhook_id: ctx.params.id }, ctx.q), ctx);
		return { body: wrap({ job_id: job.job_id, created_at: job.created_at }) };
	});

	// ---- Activity subscriptions ----
	const subView = (s) => ({
		subscription_id: s.subscription_id,
		event_type: s.event_type,
		filter: s.filter,
		tag: s.tag,
		webhook_id: s.webhook_id,
		created_at: s.created_at,
		updated_at: s.updated_at,
	});

	sb.route('POST', '/2/activity/subscriptions', 'any', ({ body, auth }) => {
		const b = body || {};
		const type = String(b.event_type || '');
		if (!EVENT_TYPES.includes(normalizeType(type)))
			throw invalidRequest(`event_type must be one of ${EVENT_TYPES.join(', ')}`, {
				event_type: [type],
			});
		if ((type.startsWith('dm.') || type.startsWith('chat.')) && auth.kind === 'app')
			throw problem(
				403,
				'unsupported-authentication',
				'Unsupported Authentication',
				`${type} subscriptions need a user-context token with the matching scope.`,
			);
		const filter = b.filter;
		if (!filter || typeof filter !== 'object')
			throw invalidRequest('The `filter` object is required', { filter: [] });
		if (!filter.user_id && !filter.keyword)
			throw invalidRequest('filter.user_id is required', { 'filter.user_id': [] });
		if (filter.user_id && !/^[0-9]{1,19}$/.test(String(filter.user_id)))
			throw invalidRequest('filter.user_id must be 1-19 digits', {
				'filter.user_id': [String(filter.user_id)],
			});
		if (
			filter.keyword !== undefined &&
			(String(filter.keyword).length < 1 || String(filter.keyword).length > 150)
		)
			throw invalidRequest('filter.keyword must be 1-150 characters', {
				'filter.keyword': [String(filter.keyword)],
			});
		// The service's vocabulary: sent or received; omitted for both.
		if (filter.direction !== undefined && !['sent', 'received'].includes(filter.direction))
			throw invalidRequest('filter.direction must be sent or received (omit it for both)', {
				'filter.direction': [String(filter.direction)],
			});
		if (filter.direction !== undefined && !(type.startsWith('dm.') || type.startsWith('chat.')))
			throw invalidRequest('filter.direction applies to direct message and chat events only', {
				'filter.direction': [String(filter.direction)],
			});
		if (b.tag !== undefined && (String(b.tag).length < 1 || String(b.tag).length > 200))
			throw invalidRequest('tag must be 1-200 characters', { tag: [String(b.tag)] });
		if (b.webhook_id !== undefined && !sb.db.webhooks.has(String(b.webhook_id)))
			throw invalidRequest('WebhookIdInvalid: no webhook with this id', {
				webhook_id: [String(b.webhook_id)],
			});
		const now = new Date().toISOString();
		const sub = {
			subscription_id: sb.newId(),
			event_type: type,
			filter: Object.assign({}, filter, filter.user_id ? { user_id: String(filter.user_id) } : {}),
			tag: b.tag,
			webhook_id: b.webhook_id !== undefined ? String(b.webhook_id) : undefined,
			created_at: now,
			updated_at: now,
		};
		sb.db.subscriptions.set(sub.subscription_id, sub);
		// The contract's answer: the subscription under `data.subscription`, beside how many
		// subscriptions the app now has (the sandbox serves one app).
		return {
			status: 200,
			body: sb.options.legacyShapes
				? { data: subView(sub) }
				: {
						data: {
							subscription: subView(sub),
							total_subscriptions_for_instance_id: sb.db.subscriptions.size,
						},
					},
		};
	});

	sb.route('GET', '/2/activity/subscriptions', 'any', ({ q }) => {
		const max = q.max_results ? Number(q.max_results) : 100;
		if (!Number.isInteger(max) || max < 1 || max > 1000)
			throw invalidRequest('max_results must be 1-1000', { max_results: [String(q.max_results)] });
		const { page, next } = sb.pageOf(
			[...sb.db.subscriptions.values()].map(subView),
			max,
			q.pagination_token,
		);
		const meta = { result_count: page.length };
		if (next) meta.next_token = next;
		return { body: { data: page, meta } };
	});

	const findSub = (id) => {
		const s = sb.db.subscriptions.get(id);
		if (!s) throw notFound('subscription', 'subscription_id', id);
		return s;
	};
	sb.route('PUT', '/2/activity/subscriptions/:id', 'any', ({ params, body }) => {
		const s = findSub(params.id);
		const b = body || {};
		const extra = Object.keys(b).filter((k) => !['tag', 'webhook_id'].includes(k));
		if (extra.length)
			throw invalidRequest(
				`Only tag and webhook_id can be updated (got ${extra.join(', ')})`,
				Object.fromEntries(extra.map((k) => [k, []])),
			);
		if (b.webhook_id !== undefined && !sb.db.webhooks.has(String(b.webhook_id)))
			throw invalidRequest('WebhookIdInvalid: no webhook with this id', {
				webhook_id: [String(b.webhook_id)],
			});
		if (b.tag !== undefined) s.tag = b.tag;
		if (b.webhook_id !== undefined) s.webhook_id = String(b.webhook_id);
		s.updated_at = new Date().toISOString();
		return { body: { data: subView(s) } };
	});
	sb.route('DELETE', '/2/activity/subscriptions/:id', 'any', ({ params }) => {
		findSub(params.id);
		sb.db.subscriptions.delete(params.id);
		return { body: { data: { deleted: true } } };
	});

	// ---- Account Activity: whole accounts subscribed to a webhook ----
	// Subscribing and checking act for the authenticating account (user context: OAuth 1.0a or an
	// OAuth 2.0 user token); listing and removing accounts are the app's (app-only bearer).
	const accountsOf = (webhookId) => {
		const w = findWebhook(webhookId);
		if (!sb.db.accountSubscriptions.has(w.id)) sb.db.accountSubscriptions.set(w.id, new Set());
		return { webhook: w, users: sb.db.accountSubscriptions.get(w.id) };
	};
	sb.route(
		'POST',
		'/2/account_activity/webhooks/:id/subscriptions/all',
		'user',
		({ params, auth }) => {
			const { users } = accountsOf(params.id);
			const userId = String(auth.userId);
			if (users.has(userId))
				throw problem(
					409,
					'conflict',
					'Conflict',
					'DuplicateSubscriptionFailed: this account is already subscribed to the webhook',
				);
			users.add(userId);
			return { body: { data: { subscribed: true } } };
		},
	);
	sb.route(
		'GET',
		'/2/account_activity/webhooks/:id/subscriptions/all',
		'user',
		({ params, auth }) => {
			const { users } = accountsOf(params.id);
			return { body: { data: { subscribed: users.has(String(auth.userId)) } } };
		},
	);
	sb.route(
		'GET',
		'/2/account_activity/webhooks/:id/subscriptions/all/list',
		'app',
		({ params }) => {
			const { webhook, users } = accountsOf(params.id);
			return {
				body: {
					data: {
						application_id: '1000000000',
						webhook_id: webhook.id,
						webhook_url: webhook.url,
						subscriptions: [...users].map((user_id) => ({ user_id })),
					},
				},
			};
		},
	);
	sb.route(
		'DELETE',
		'/2/account_activity/webhooks/:id/subscriptions/:user_id/all',
		'app',
		({ params }) => {
			const { users } = accountsOf(params.id);
			if (!/^[0-9]{1,19}$/.test(params.user_id))
				throw invalidRequest('user_id must be 1-19 digits', { user_id: [params.user_id] });
			if (!users.has(params.user_id)) throw notFound('subscription', 'user_id', params.user_id);
			users.delete(params.user_id);
			return { body: { data: { subscribed: false } } };
		},
	);
	sb.route('GET', '/2/account_activity/subscriptions/count', 'app', () => {
		const all = [...sb.db.accountSubscriptions.values()].reduce((n, users) => n + users.size, 0);
		return {
			body: {
				data: {
					account_name: 'sandbox',
					provisioned_count: '15',
					subscriptions_count_all: String(all),
					subscriptions_count_direct_messages: '0',
				},
			},
		};
	});

	// ---- Filtered stream rules and webhook links ----
	sb.route('GET', '/2/tweets/search/stream/rules', 'app', ({ q }) => {
		let rules = [...sb.db.streamRules.values()];
		if (q.ids) rules = rules.filter((r) => q.ids.split(',').includes(r.id));
		const { page, next } = sb.pageOf(rules, Number(q.max_results || 1000), q.pagination_token);
		const meta = { sent: new Date().toISOString(), result_count: page.length };
		if (next) meta.next_token = next;
		return { body: page.length ? { data: page, meta } : { meta } };
	});
	sb.route('POST', '/2/tweets/search/stream/rules', 'app', ({ body, q }) => {
		const b = body || {};
		const dry = q.dry_run === 'true';
		const meta = { sent: new Date().toISOString() };
		if (b.add) {
			if (!Array.isArray(b.add)) throw invalidRequest('add must be an array', { add: [] });
			const data = [];
			const errors = [];
			for (const r of b.add) {
				if (!r || typeof r.value !== 'string' || !r.value || r.value.length > 1024) {
					errors.push({
						value: r && r.value,
						title: 'Invalid Rule',
						type: PROBLEM_BASE + 'invalid-rules',
					});
					continue;
				}
				if ([...sb.db.streamRules.values()].some((x) => x.value === r.value)) {
					const existing = [...sb.db.streamRules.values()].find((x) => x.value === r.value);
					errors.push({
						value: r.value,
						id: existing.id,
						title: 'DuplicateRule',
						type: PROBLEM_BASE + 'duplicate-rules',
					});
					continue;
				}
				const rule = { id: sb.newId(), value: r.value };
				if (r.tag) rule.tag = r.tag;
				if (!dry) sb.db.streamRules.set(rule.id, rule);
				data.push(rule);
			}
			meta.summary = {
				created: data.length,
				not_created: errors.length,
				valid: data.length,
				invalid: errors.length,
			};
			const out = { meta };
			if (data.length) out.data = data;
			if (errors.length) out.errors = errors;
			// 200, the one success status the contract declares for adding rules.
			return { status: 200, body: out };
		}
		if (b.delete) {
			const ids = b.delete.ids || [];
			const values = b.delete.values || [];
			let deleted = 0;
			for (const [id, r] of sb.db.streamRules) {
				if (ids.includes(id) || values.includes(r.value)) {
					if (!dry) sb.db.streamRules.delete(id);
					deleted++;
				}
			}
			meta.summary = { deleted, not_deleted: ids.length + values.length - deleted };
			return { body: { meta } };
		}
		throw invalidRequest('Either add or delete is required', {});
	});
	sb.route('POST', '/2/tweets/search/webhooks/:id', 'app', ({ params, q }) => {
		findWebhook(params.id);
		sb.db.streamLinks.set(params.id, {
			webhook_id: params.id,
			fields: Object.keys(q),
			created_at: new Date().toISOString(),
		});
		return { body: { data: { provisioned: true } } };
	});
	sb.route('DELETE', '/2/tweets/search/webhooks/:id', 'app', ({ params }) => {
		sb.db.streamLinks.delete(params.id);
		return { body: { data: { deleted: true } } };
	});
	sb.route('GET', '/2/tweets/search/webhooks', 'app', () => ({
		body: { data: { links: [...sb.db.streamLinks.values()] } },
	}));

	/**
	 * Whether a post matches a rule, in a small subset of the search syntax: every term must appear
	 * (case-insensitive), `-term` must not, `from:name` compares the author's username, other
	 * `operator:value` terms are ignored.
	 */
	function ruleMatches(rule, post, author) {
		const terms = String(rule.value).match(/"[^"]*"|\S+/g) || [];
		const text = String(post.text || '').toLowerCase();
		return terms.every((raw) => {
			const neg = raw.startsWith('-');
			const term = (neg ? raw.slice(1) : raw).replace(/^"|"$/g, '').toLowerCase();
			let hit;
			if (term.startsWith('from:'))
				hit = author && author.username.toLowerCase() === term.slice(5).replace(/^@/, '');
			else if (/^[a-z_]+:/.test(term)) return true;
			else hit = text.includes(term);
			return neg ? !hit : hit;
		});
	}

	/**
	 * GET /2/tweets/search/stream: the filtered stream itself, for the app-only bearer. A chunked
	 * `application/json` answer, one {data, includes, matching_rules} line per post that matches the
	 * app's rules (as emitStreamPost publishes them), an empty line as keep-alive every
	 * sb.searchStream.keepAliveMs; backfill_minutes (0-5) first sends the matches of the last N minutes.
	 */
	const streamConnections = new Set();
	const streamSent = [];
	sb.searchStream = { keepAliveMs: 20000, connections: streamConnections };
	sb.route('GET', '/2/tweets/search/stream', 'app', ({ q, res, req }) => {
		res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
		res.flushHeaders();
		if (q.backfill_minutes !== undefined) {
			const from = Date.now() - Number(q.backfill_minutes) * 60 * 1000;
			for (const e of streamSent) if (e.at >= from) res.write(e.line);
		}
		streamConnections.add(res);
		return new Promise((resolve) => {
			const beat = setInterval(
				() => res.writableEnded || res.write('\r\n'),
				sb.searchStream.keepAliveMs,
			);
			res.once('close', () => {
				clearInterval(beat);
				streamConnections.delete(res);
				resolve({});
			});
			req.once('close', () => res.writableEnded || res.end());
		});
	});

	/**
	 * A post published on the platform, seen by the filtered stream: delivered (signed) to every linked
	 * webhook when it matches rules, as {data, includes, matching_rules}. `forge` signs with a wrong key.
	 */
	sb.emitStreamPost = async (input = {}) => {
		const author = sb.db.users.get(String(input.author_id || sb.keys.userId)) || {
			id: String(input.author_id || sb.keys.userId),
			username: 'sandbox_user',
			name: 'Sandbox User',
		};
		const id = input.post_id || sb.newId();
		const post = {
			id,
			text: input.text || `Sandbox post ${id}`,
			author_id: author.id,
			created_at: new Date().toISOString(),
			edit_history_tweet_ids: [id],
		};
		const matching = [...sb.db.streamRules.values()]
			.filter((r) => ruleMatches(r, post, author))
			.map((r) => (r.tag ? { id: r.id, tag: r.tag } : { id: r.id }));
		const deliveries = [];
		if (matching.length) {
			const raw = JSON.stringify({
				data: post,
				includes: { users: [{ id: author.id, username: author.username, name: author.name }] },
				matching_rules: matching,
			});
			// The same line to every open connection of the stream itself, and kept for backfill.
			streamSent.push({ at: Date.now(), line: `${raw}\r\n` });
			while (streamSent.length && streamSent[0].at < Date.now() - 10 * 60 * 1000)
				streamSent.shift();
			for (const res of streamConnections) res.writableEnded || res.write(`${raw}\r\n`);
			for (const link of sb.db.streamLinks.values()) {
				const webhook = sb.db.webhooks.get(link.webhook_id);
				if (!webhook) continue;
				const times = Math.max(1, Number(input.times || 1));
				for (let i = 0; i < times; i++)
					deliveries.push(
						await sb.deliver(webhook, raw, { event_uuid: `stream-${id}`, forge: input.forge }),
					);
			}
		}
		return { post, matching_rules: matching, deliveries };
	};

	sb.EVENT_TYPES = EVENT_TYPES;
	sb.subscriptionMatches = subscriptionMatches;
	sb.signWebhook = (bytes) => sign(secret(), bytes);
	sb.httpRequest = request;
	sb.HttpError = HttpError;
}

module.exports = { install, sign, request };
