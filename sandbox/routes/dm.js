'use strict';
/**
 * Direct messages: one-to-one and group conversations, their events (messages, participants joining),
 * reading them by conversation or by event, deleting one's own messages, and blocking direct messages
 * from a user. Every read and write is limited to the conversations the caller takes part in, and a
 * message between users where one blocked the other's direct messages is refused.
 */
const { invalidRequest, notFound, problem } = require('../lib/http');

/** The service takes at most 10,000 characters of message text. */
const MAX_TEXT = 10000;
/** Fields every event answer holds; the others only when asked for (dm_event.fields). */
const DEFAULT_FIELDS = ['id', 'event_type', 'text'];

function install(sb) {
	const db = () => sb.db;
	/** Group conversations and DM blocks, kept beside the events (sb.db is replaced on reset). */
	const state = () =>
		(db().directMessages ??= {
			/** conversation id -> { id, participant_ids, created_at } */
			groups: new Map(),
			/** `${blocker}:${blocked}` */
			blocks: new Set(),
		});

	const fieldsOf = (q, name) => (q[name] ? String(q[name]).split(',').filter(Boolean) : []);
	const oneToOne = (a, b) => [String(a), String(b)].sort().join('-');

	function requireUserId(value, name) {
		if (!/^[0-9]{1,19}$/.test(String(value)))
			throw invalidRequest(`The \`${name}\` path parameter value [${value}] is not valid`, {
				[name]: [String(value)],
			});
	}

	/** The participants of a conversation, or undefined when there is no such conversation. */
	function participantsOf(conversationId) {
		const id = String(conversationId);
		const pair = /^([0-9]{1,19})-([0-9]{1,19})$/.exec(id);
		if (pair) return [pair[1], pair[2]];
		const group = state().groups.get(id);
		return group ? group.participant_ids : undefined;
	}

	function requireParticipant(conversationId, userId) {
		const participants = participantsOf(conversationId);
		if (!participants) throw notFound('dm_conversation', 'id', conversationId);
		if (!participants.includes(String(userId)))
			throw problem(
				403,
				'about:blank',
				'Forbidden',
				'You are not a participant of this direct message conversation.',
			);
		return participants;
	}

	function isBlocked(a, b) {
		const blocks = state().blocks;
		return blocks.has(`${a}:${b}`) || blocks.has(`${b}:${a}`);
	}

	function checkMessage(b) {
		const hasAttachments = Array.isArray(b.attachments) && b.attachments.length > 0;
		if (!b.text && !hasAttachments) throw invalidRequest('text or attachments is required', {});
		if (b.text !== undefined && String(b.text).length > MAX_TEXT)
			throw invalidRequest(`text must be at most ${MAX_TEXT} characters`, {
				text: [String(b.text).slice(0, 20)],
			});
	}

	/** Adds a MessageCreate event from `sender` to the conversation; returns it. */
	function addMessage(conversationId, sender, b) {
		const event = {
			id: sb.newId(),
			event_type: 'MessageCreate',
			text: b.text || '',
			sender_id: String(sender),
			dm_conversation_id: String(conversationId),
			created_at: new Date().toISOString(),
		};
		const mediaIds = (b.attachments || []).map((a) => String(a && a.media_id));
		if (mediaIds.length) {
			const keys = [...db().media.values()]
				.filter((m) => mediaIds.includes(String(m.id)))
				.map((m) => m.media_key);
			event.attachments = { media_keys: keys.length ? keys : mediaIds.map((id) => `3_${id}`) };
		}
		db().dmEvents.push(event);
		return event;
	}

	const sent = (event) => ({
		status: 201,
		body: { data: { dm_conversation_id: event.dm_conversation_id, dm_event_id: event.id } },
	});

	function userView(id, q) {
		const u = db().users.get(String(id));
		if (!u) return undefined;
		const out = { id: u.id, name: u.name, username: u.username };
		for (const f of fieldsOf(q, 'user.fields')) if (u[f] !== undefined) out[f] = u[f];
		return out;
	}

	function eventView(e, q) {
		const fields = new Set([...DEFAULT_FIELDS, ...fieldsOf(q, 'dm_event.fields')]);
		const out = {};
		for (const f of fields) if (e[f] !== undefined) out[f] = e[f];
		return out;
	}

	/** `{data, includes}` of events: the users the sender_id / participant_ids expansions name. */
	function withIncludes(events, q) {
		const body = { data: events.map((e) => eventView(e, q)) };
		const expansions = fieldsOf(q, 'expansions');
		const ids = new Set();
		for (const e of events) {
			if (expansions.includes('sender_id') && e.sender_id) ids.add(e.sender_id);
			if (expansions.includes('participant_ids'))
				for (const p of e.participant_ids || []) ids.add(p);
		}
		const users = [...ids].map((id) => userView(id, q)).filter(Boolean);
		if (users.length) body.includes = { users };
		return body;
	}

	function checkPageSize(q) {
		if (q.max_results === undefined) return;
		const n = Number(q.max_results);
		if (!Number.isInteger(n) || n < 1 || n > 100)
			throw invalidRequest(
				`The \`max_results\` query parameter value [${q.max_results}] is not between 1 and 100`,
				{ max_results: [q.max_results] },
			);
	}

	/** A page of events, newest first, of the given kinds. */
	function eventPage(events, q) {
		checkPageSize(q);
		const types = fieldsOf(q, 'event_types');
		const list = events.filter((e) => !types.length || types.includes(e.event_type)).reverse();
		const { page, next } = sb.pageOf(list, Number(q.max_results || 100), q.pagination_token);
		const meta = { result_count: page.length };
		if (next) meta.next_token = next;
		return { body: page.length ? { ...withIncludes(page, q), meta } : { meta } };
	}

	const visibleTo = (userId) => (e) =>
		(participantsOf(e.dm_conversation_id) || []).includes(String(userId));

	/** A message from one user to another, as the one-to-one send does (the conformance test's sample). */
	sb.sendDirectMessage = ({ from = sb.keys.userId, to, text }) =>
		addMessage(oneToOne(from, to), from, { text });

	sb.route(
		'POST',
		'/2/dm_conversations/with/:participant/messages',
		'user',
		({ params, body, auth }) => {
			const b = body || {};
			checkMessage(b);
			requireUserId(params.participant, 'participant_id');
			if (isBlocked(auth.userId, params.participant))
				throw problem(
					403,
					'about:blank',
					'Forbidden',
					'You cannot send direct messages to this user.',
				);
			return sent(addMessage(oneToOne(auth.userId, params.participant), auth.userId, b));
		},
	);

	sb.route('POST', '/2/dm_conversations', 'user', ({ body, auth }) => {
		const b = body || {};
		if (b.conversation_type !== 'Group')
			throw invalidRequest('conversation_type must be Group', {
				conversation_type: [String(b.conversation_type)],
			});
		const ids = Array.isArray(b.participant_ids) ? b.participant_ids.map(String) : [];
		if (ids.length < 2 || ids.length > 49)
			throw invalidRequest('participant_ids must hold 2 to 49 user ids', {
				participant_ids: ids,
			});
		for (const id of ids) requireUserId(id, 'participant_ids');
		checkMessage(b.message || {});
		const participants = [...new Set([String(auth.userId), ...ids])];
		const group = {
			id: sb.newId(),
			participant_ids: participants,
			created_at: new Date().toISOString(),
		};
		state().groups.set(group.id, group);
		db().dmEvents.push({
			id: sb.newId(),
			event_type: 'ParticipantsJoin',
			participant_ids: participants,
			sender_id: String(auth.userId),
			dm_conversation_id: group.id,
			created_at: group.created_at,
		});
		return sent(addMessage(group.id, auth.userId, b.message));
	});

	sb.route(
		'POST',
		'/2/dm_conversations/:conversation/messages',
		'user',
		({ params, body, auth }) => {
			const b = body || {};
			checkMessage(b);
			const participants = requireParticipant(params.conversation, auth.userId);
			const others = participants.filter((p) => p !== String(auth.userId));
			if (others.length === 1 && isBlocked(auth.userId, others[0]))
				throw problem(
					403,
					'about:blank',
					'Forbidden',
					'You cannot send direct messages to this user.',
				);
			return sent(addMessage(params.conversation, auth.userId, b));
		},
	);

	sb.route('GET', '/2/dm_events', 'user', ({ q, auth }) =>
		eventPage(db().dmEvents.filter(visibleTo(auth.userId)), q),
	);

	sb.route(
		'GET',
		'/2/dm_conversations/with/:participant/dm_events',
		'user',
		({ params, q, auth }) => {
			requireUserId(params.participant, 'participant_id');
			const id = oneToOne(auth.userId, params.participant);
			return eventPage(
				db().dmEvents.filter((e) => e.dm_conversation_id === id),
				q,
			);
		},
	);

	sb.route('GET', '/2/dm_conversations/:conversation/dm_events', 'user', ({ params, q, auth }) => {
		requireParticipant(params.conversation, auth.userId);
		return eventPage(
			db().dmEvents.filter((e) => e.dm_conversation_id === params.conversation),
			q,
		);
	});

	function findEvent(id, userId) {
		const event = db().dmEvents.find((e) => e.id === String(id));
		// An event of someone else's conversation is as unknown to the caller as one that never was.
		if (!event || !visibleTo(userId)(event)) throw notFound('dm_event', 'event_id', id);
		return event;
	}

	sb.route('GET', '/2/dm_events/:id', 'user', ({ params, q, auth }) => {
		const event = findEvent(params.id, auth.userId);
		const body = withIncludes([event], q);
		return { body: { ...body, data: body.data[0] } };
	});

	sb.route('DELETE', '/2/dm_events/:id', 'user', ({ params, auth }) => {
		const event = findEvent(params.id, auth.userId);
		if (event.sender_id !== String(auth.userId))
			throw problem(403, 'about:blank', 'Forbidden', 'You can only delete messages you sent.');
		db().dmEvents.splice(db().dmEvents.indexOf(event), 1);
		return { body: { data: { deleted: true } } };
	});

	for (const verb of ['block', 'unblock'])
		sb.route('POST', `/2/users/:id/dm/${verb}`, 'user', ({ params, auth }) => {
			requireUserId(params.id, 'id');
			if (params.id === String(auth.userId))
				throw invalidRequest(`You cannot ${verb} direct messages from yourself`, {
					id: [params.id],
				});
			const key = `${auth.userId}:${params.id}`;
			if (verb === 'block') state().blocks.add(key);
			else state().blocks.delete(key);
			return { body: { data: { blocked: verb === 'block' } } };
		});
}

module.exports = { install };
