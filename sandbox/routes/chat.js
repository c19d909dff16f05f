'use strict';
/**
 * The encrypted chat: the caller's conversations (a one-to-one and a group are seeded), their message
 * events, sending (an encoded, encrypted event the sandbox stores as it came), read markers, typing
 * indicators, media upload in segments (initialize / append / finalize) and download, and the users'
 * public keys. Only participants of a conversation read or write it; keys are added for oneself only.
 */
const { invalidRequest, notFound, problem } = require('../lib/http');

/** The seeded conversations and the media of the one-to-one (the conformance test's sample ids). */
const OTHER_USER = '1000000002';
const GROUP_ID = 'g1790000000000000100';
const SEED_MEDIA_HASH_KEY = 'SandboxChatMedia1';
/** The service numbers segments 0-999. */
const MAX_SEGMENT_INDEX = 999;
/** Message event fields every answer holds; the others only when asked for. */
const DEFAULT_MESSAGE_FIELDS = ['id', 'encoded_event'];
const DEFAULT_CONVERSATION_FIELDS = ['id', 'type'];

const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64');
/**
 * Base64 text: letters, digits, + and /, then at most two =. A loop, not a regular expression: a
 * segment is megabytes long, and V8's regular expressions ran out of stack on it.
 */
function isBase64(value) {
	if (typeof value !== 'string' || value.length === 0) return false;
	const body = value.replace(/={1,2}$/, '');
	for (let i = 0; i < body.length; i++) {
		const c = body.charCodeAt(i);
		const ok =
			(c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;
		if (!ok) return false;
	}
	return body.length > 0;
}

function install(sb) {
	const fieldsOf = (q, name) => (q[name] ? String(q[name]).split(',').filter(Boolean) : []);
	let nextSequence = 1000;

	function seed() {
		const me = sb.keys.userId;
		const now = Date.now();
		const direct = {
			id: [me, OTHER_USER].sort().join('-'),
			type: 'direct',
			participant_ids: [me, OTHER_USER],
			is_muted: false,
			message_ttl_msec: '0',
			screen_capture_blocking_enabled: false,
			screen_capture_detection_enabled: false,
		};
		const group = {
			id: GROUP_ID,
			type: 'group',
			participant_ids: [me, OTHER_USER],
			member_ids: [me, OTHER_USER],
			admin_ids: [me],
			group_name: b64({ encrypted: 'Sandbox group' }),
			group_avatar_url: 'https://pbs.sandbox.local/group.png',
			created_at: new Date(now - 86_400_000).toISOString(),
			updated_at: new Date(now - 3_600_000).toISOString(),
			is_muted: false,
			message_ttl_msec: '0',
			screen_capture_blocking_enabled: false,
			screen_capture_detection_enabled: false,
		};
		const chat = {
			conversations: new Map([
				[direct.id, direct],
				[group.id, group],
			]),
			/** conversation id -> message events, oldest first */
			messages: new Map([
				[direct.id, []],
				[group.id, []],
			]),
			/** `${userId}:${conversationId}` -> sequence id read up to */
			read: new Map(),
			/** `${userId}:${conversationId}` -> when the user last typed (ISO) */
			typing: new Map(),
			/** `${conversationId}/${mediaHashKey}` -> { bytes, created_at } */
			media: new Map(),
			/** session id -> upload */
			uploads: new Map(),
			/** user id -> public keys, oldest first */
			publicKeys: new Map([
				[
					OTHER_USER,
					[
						{
							version: '1',
							public_key: Buffer.from('other-identity-key').toString('base64'),
							signing_public_key: Buffer.from('other-signing-key').toString('base64'),
						},
					],
				],
			]),
		};
		addMessage(chat, direct.id, OTHER_USER, b64({ text: 'Hello from the sandbox' }), 'seed-1');
		chat.media.set(`${direct.id}/${SEED_MEDIA_HASH_KEY}`, {
			bytes: Buffer.from('sandbox encrypted media bytes'),
			created_at: new Date(now).toISOString(),
		});
		return chat;
	}

	// sb.db is replaced on reset: the chat state lives in it and is seeded on first use.
	const state = () => (sb.db.chat ??= seed());

	function addMessage(chat, conversationId, sender, encoded, messageId, extra = {}) {
		const list = chat.messages.get(conversationId);
		const previous = list[list.length - 1];
		const event = {
			id: String(messageId),
			sequence_id: String(++nextSequence),
			previous_sequence_id: previous ? previous.sequence_id : undefined,
			conversation_id: conversationId,
			sender_id: String(sender),
			created_at_msec: String(Date.now()),
			encoded_event: encoded,
			is_trusted: true,
			...extra,
		};
		list.push(event);
		return event;
	}

	/** The conversation, when the caller takes part in it. */
	function conversationFor(id, userId) {
		const conversation = state().conversations.get(String(id));
		if (!conversation) throw notFound('chat_conversation', 'conversation_id', id);
		if (!conversation.participant_ids.includes(String(userId)))
			throw problem(
				403,
				'about:blank',
				'Forbidden',
				'You are not a participant of this chat conversation.',
			);
		return conversation;
	}

	function pageOf(list, q) {
		if (q.max_results !== undefined) {
			const n = Number(q.max_results);
			if (!Number.isInteger(n) || n < 1 || n > 100)
				throw invalidRequest(
					`The \`max_results\` query parameter value [${q.max_results}] is not between 1 and 100`,
					{ max_results: [q.max_results] },
				);
		}
		return sb.pageOf(list, Number(q.max_results || 100), q.pagination_token);
	}

	function pick(object, fields) {
		const out = {};
		for (const f of fields) if (object[f] !== undefined) out[f] = object[f];
		return out;
	}

	function userView(id, q) {
		const u = sb.db.users.get(String(id));
		if (!u) return undefined;
		const out = { id: u.id, name: u.name, username: u.username };
		for (const f of fieldsOf(q, 'user.fields')) if (u[f] !== undefined) out[f] = u[f];
		return out;
	}

	sb.route('GET', '/2/chat/conversations', 'user', ({ q, auth }) => {
		const mine = [...state().conversations.values()]
			.filter((c) => c.participant_ids.includes(String(auth.userId)))
			.reverse();
		const { page, next } = pageOf(mine, q);
		const fields = [...DEFAULT_CONVERSATION_FIELDS, ...fieldsOf(q, 'chat_conversation.fields')];
		const expansions = fieldsOf(q, 'expansions');
		const ids = new Set();
		for (const c of page) for (const e of expansions) for (const id of c[e] || []) ids.add(id);
		const users = [...ids].map((id) => userView(id, q)).filter(Boolean);
		const meta = { result_count: page.length, has_message_requests: false };
		if (next) meta.next_token = next;
		const body = { data: page.map((c) => pick(c, fields)), meta };
		if (users.length) body.includes = { users };
		return { body };
	});

	sb.route('GET', '/2/chat/conversations/:conversation', 'user', ({ params, q, auth }) => {
		conversationFor(params.conversation, auth.userId);
		const list = state().messages.get(params.conversation).slice().reverse();
		const { page, next } = pageOf(list, q);
		const fields = [
			...DEFAULT_MESSAGE_FIELDS,
			'sequence_id',
			...fieldsOf(q, 'chat_message_event.fields'),
		];
		const meta = { result_count: page.length, has_more: !!next };
		if (next) meta.next_token = next;
		return { body: { data: page.map((m) => pick(m, fields)), meta } };
	});

	sb.route(
		'POST',
		'/2/chat/conversations/:conversation/messages',
		'user',
		({ params, body, auth }) => {
			conversationFor(params.conversation, auth.userId);
			const b = body || {};
			if (!b.message_id || !String(b.message_id).trim())
				throw invalidRequest('message_id is required', { message_id: [] });
			if (!isBase64(b.encoded_message_create_event))
				throw invalidRequest('encoded_message_create_event must be base64', {
					encoded_message_create_event: [String(b.encoded_message_create_event).slice(0, 20)],
				});
			const extra = {};
			if (b.conversation_token) extra.conversation_token = String(b.conversation_token);
			if (b.encoded_message_event_signature)
				extra.message_event_signature = { signature: String(b.encoded_message_event_signature) };
			const event = addMessage(
				state(),
				params.conversation,
				auth.userId,
				b.encoded_message_create_event,
				b.message_id,
				extra,
			);
			return {
				status: 201,
				body: {
					data: {
						encoded_message_event: b64({
							message_id: event.id,
							sequence_id: event.sequence_id,
							created_at_msec: event.created_at_msec,
						}),
					},
				},
			};
		},
	);

	sb.route('POST', '/2/chat/conversations/:conversation/read', 'user', ({ params, body, auth }) => {
		conversationFor(params.conversation, auth.userId);
		const seen = String((body || {}).seen_until_sequence_id || '');
		const known = state()
			.messages.get(params.conversation)
			.some((m) => m.sequence_id === seen);
		if (!known)
			throw invalidRequest(
				`seen_until_sequence_id [${seen}] is not a message of this conversation`,
				{ seen_until_sequence_id: [seen] },
			);
		state().read.set(`${auth.userId}:${params.conversation}`, seen);
		return { body: { data: { success: true } } };
	});

	sb.route('POST', '/2/chat/conversations/:conversation/typing', 'user', ({ params, auth }) => {
		conversationFor(params.conversation, auth.userId);
		state().typing.set(`${auth.userId}:${params.conversation}`, new Date().toISOString());
		return { body: { data: { success: true } } };
	});

	// ---- Media ----
	sb.route('POST', '/2/chat/media/upload/initialize', 'user', ({ body, auth }) => {
		const b = body || {};
		const conversation = conversationFor(b.conversation_id, auth.userId);
		if (b.total_bytes !== undefined && !(Number.isInteger(b.total_bytes) && b.total_bytes > 0))
			throw invalidRequest('total_bytes must be a positive integer', {
				total_bytes: [String(b.total_bytes)],
			});
		const upload = {
			session_id: String(100000 + state().uploads.size + 1),
			media_hash_key: `m${sb.newId().slice(-12)}`,
			conversation_id: conversation.id,
			user_id: String(auth.userId),
			total_bytes: b.total_bytes,
			segments: new Map(),
			finalized: false,
		};
		state().uploads.set(upload.session_id, upload);
		return {
			body: {
				data: {
					session_id: upload.session_id,
					media_hash_key: upload.media_hash_key,
					conversation_id: upload.conversation_id,
				},
			},
		};
	});

	function uploadFor(id, userId) {
		const upload = state().uploads.get(String(id));
		if (!upload || upload.user_id !== String(userId)) throw notFound('upload', 'id', id);
		if (upload.finalized)
			throw invalidRequest(`The upload session [${id}] is already finalized`, { id: [id] });
		return upload;
	}

	function sameUpload(upload, b) {
		if (
			String(b.conversation_id) !== upload.conversation_id ||
			String(b.media_hash_key) !== upload.media_hash_key
		)
			throw invalidRequest(
				'conversation_id and media_hash_key must be those of the upload session',
				{
					media_hash_key: [String(b.media_hash_key)],
				},
			);
	}

	sb.route(
		'POST',
		'/2/chat/media/upload/:id/append',
		'user',
		({ params, body, bodyKind, auth }) => {
			const upload = uploadFor(params.id, auth.userId);
			const b = {};
			if (bodyKind === 'multipart')
				for (const [k, v] of Object.entries(body || {})) b[k] = v.filename ? v.data : v.value;
			else Object.assign(b, body || {});
			sameUpload(upload, b);
			const index = Number(b.segment_index);
			if (!Number.isInteger(index) || index < 0 || index > MAX_SEGMENT_INDEX)
				throw invalidRequest(`segment_index must be 0-${MAX_SEGMENT_INDEX}`, {
					segment_index: [String(b.segment_index)],
				});
			const bytes = Buffer.isBuffer(b.media)
				? b.media
				: isBase64(b.media)
					? Buffer.from(b.media, 'base64')
					: undefined;
			if (!bytes || !bytes.length)
				throw invalidRequest('media must hold the segment (base64 or a file)', { media: [] });
			upload.segments.set(index, bytes);
			// The contract's append answer (shared with media uploads) requires a `meta`.
			return { body: { data: { expires_at: Math.floor(Date.now() / 1000) + 86400 }, meta: {} } };
		},
	);

	sb.route('POST', '/2/chat/media/upload/:id/finalize', 'user', ({ params, body, auth }) => {
		const upload = uploadFor(params.id, auth.userId);
		const b = body || {};
		sameUpload(upload, b);
		const count = upload.segments.size;
		for (let i = 0; i < count; i++)
			if (!upload.segments.has(i))
				throw invalidRequest(`Segment ${i} is missing`, { segment_index: [String(i)] });
		if (!count) throw invalidRequest('No segment was appended', {});
		if (b.num_parts !== undefined && Number(b.num_parts) !== count)
			throw invalidRequest(`num_parts [${b.num_parts}] is not the ${count} segments appended`, {
				num_parts: [String(b.num_parts)],
			});
		const bytes = Buffer.concat([...Array(count).keys()].map((i) => upload.segments.get(i)));
		if (upload.total_bytes !== undefined && bytes.length !== upload.total_bytes)
			throw invalidRequest(
				`The upload holds ${bytes.length} bytes, not the ${upload.total_bytes} announced`,
				{ total_bytes: [String(upload.total_bytes)] },
			);
		upload.finalized = true;
		state().media.set(`${upload.conversation_id}/${upload.media_hash_key}`, {
			bytes,
			message_id: b.message_id,
			ttl_msec: b.ttl_msec,
			created_at: new Date().toISOString(),
		});
		return { body: { data: { success: true } } };
	});

	sb.route('GET', '/2/chat/media/:conversation/:hash', 'user', ({ params, auth }) => {
		conversationFor(params.conversation, auth.userId);
		const media = state().media.get(`${params.conversation}/${params.hash}`);
		if (!media) throw notFound('media', 'media_hash_key', params.hash);
		return { body: media.bytes, headers: { 'content-type': 'application/octet-stream' } };
	});

	// ---- Public keys ----
	const KEY_FIELDS = {
		public_key: 'public_key',
		signing_public_key: 'signing_public_key',
		version: 'version',
		juicebox_config: 'token_map',
	};

	sb.route('GET', '/2/users/:id/public_keys', 'user', ({ params, q }) => {
		const keys = state().publicKeys.get(String(params.id)) || [];
		if (!keys.length) throw notFound('public_key', 'id', params.id);
		const asked = fieldsOf(q, 'public_key.fields');
		const fields = asked.length ? asked.map((f) => KEY_FIELDS[f]) : ['version', 'public_key'];
		return { body: { data: keys.map((k) => pick(k, fields)) } };
	});

	sb.route('POST', '/2/users/:id/public_keys', 'user', ({ params, body, auth }) => {
		if (String(params.id) !== String(auth.userId))
			throw problem(403, 'about:blank', 'Forbidden', 'You can only add public keys for yourself.');
		const b = body || {};
		const key = b.public_key || {};
		if (typeof key.public_key !== 'string' || !key.public_key)
			throw invalidRequest('public_key.public_key is required', { public_key: [] });
		const keys = state().publicKeys.get(String(params.id)) || [];
		const version = b.generate_version ? String(keys.length + 1) : String(b.version);
		const tokenMap = {
			key_store_token_map_json: '{}',
			max_guess_count: 10,
			recover_threshold: 1,
			register_threshold: 1,
			token_map: [],
		};
		keys.push({
			version,
			public_key: key.public_key,
			signing_public_key: key.signing_public_key,
			token_map: tokenMap,
		});
		state().publicKeys.set(String(params.id), keys);
		return { body: { data: { version, token_map: tokenMap } } };
	});

	/** The sample ids a test needs: a one-to-one conversation and a media hash key in it. */
	sb.chatSample = () => {
		state();
		return {
			conversationId: [sb.keys.userId, OTHER_USER].sort().join('-'),
			groupId: GROUP_ID,
			mediaHashKey: SEED_MEDIA_HASH_KEY,
		};
	};
}

module.exports = { install };
