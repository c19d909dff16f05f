'use strict';
/**
 * The activity stream: GET /2/activity/stream, the app's persistent HTTP connection that carries the
 * events of its activity subscriptions made without a webhook (app-only bearer).
 *
 * Wire format (the sandbox's choice where the service publishes none): a chunked `application/json`
 * answer, one JSON object per line, each line ended by `\r\n`:
 *   {"data":{"event_uuid","event_type","filter","tag"?,"payload","includes"?}}  one event (one copy per
 *                                                                           matching subscription)
 *   an empty line (`\r\n`)                                                   keep-alive, every keepAliveMs
 * Catch-up: `backfill_minutes` (0-5, the contract's range) sends first the events of the last N minutes;
 * `start_time` sends first the events since that time (as far back as the stream keeps them: 24 hours,
 * the service's replay window); `end_time` ends the answer once the events up to it are sent.
 *
 * Control routes (tests cut, stall and resume the stream):
 *   GET  /_sandbox/activity-stream           {connections: [{id, query, label, stalled, sent, opened_at}], connects,
 *                                             events, keepAliveMs}
 *   POST /_sandbox/activity-stream/options   {keepAliveMs, backlogLineMs, slowReaderBytes}: backlogLineMs
 *                                             > 0 sends a catch-up's backlog one line at a time, this
 *                                             far apart, with the keep-alive timer running meanwhile
 *                                             (the service sends keep-alives on a timer, also inside a
 *                                             backlog); slowReaderBytes > 0 disconnects a reader that
 *                                             leaves more than this many bytes unread and read none
 *                                             between two keep-alive beats: the problem
 *                                             operational-disconnect (disconnect_type SlowReader, the
 *                                             contract's OperationalDisconnectProblem) as
 *                                             a line, then the answer's clean end (the service's way
 *                                             of ending it is not shown: a clean end is the one a
 *                                             reader can mistake for a finished catch-up)
 *   POST /_sandbox/activity-stream/cut       closes every open connection (a dropped stream)
 *   POST /_sandbox/activity-stream/stall     open connections go silent (no event, no keep-alive), still open
 *   POST /_sandbox/activity-stream/resume    stalled connections that are still open speak again
 *   POST /_sandbox/activity-stream/long-line {length}: writes one line of `length` characters (not
 *                                             JSON, not an event, in 64 KiB pieces) to every open
 *                                             connection, then its line end: a fault no catch-up sends
 *                                             again (a reader with a maximum line length drops it)
 * A connection refused with an HTTP error: the generic faults (POST /_sandbox/faults, path
 * "/2/activity/stream").
 */
const { invalidRequest, PROBLEM_BASE } = require('../lib/http');

const RETENTION_MS = 24 * 60 * 60 * 1000;
const MINUTE = 60 * 1000;

function install(sb) {
	const state = {
		keepAliveMs: 20000,
		/** 0: the backlog is written at once; else one line per backlogLineMs (keep-alives between). */
		backlogLineMs: 0,
		/** 0: never; else a reader leaving more than this many bytes unsent is disconnected. */
		slowReaderBytes: 0,
		slowReaderDisconnects: 0,
		/** Every event copy the stream carried: {at (ms), event_uuid, line}, oldest first. */
		log: [],
		connections: new Set(),
		connects: 0,
	};
	sb.activityStream = state;

	function prune(now) {
		while (state.log.length && now - state.log[0].at > RETENTION_MS) state.log.shift();
	}

	function write(conn, line) {
		if (conn.stalled || conn.res.destroyed || conn.res.writableEnded) return;
		conn.res.write(line);
	}

	/**
	 * On the keep-alive timer: a reader with more than slowReaderBytes unread that read nothing since
	 * the last beat is disconnected (a reader still working through a backlog is not).
	 */
	function checkSlowReader(conn) {
		const unread = conn.res.writableLength;
		const stuck = unread > state.slowReaderBytes && unread >= (conn.unreadAtBeat ?? 0);
		conn.unreadAtBeat = unread;
		if (state.slowReaderBytes && stuck && !conn.res.writableEnded) {
			state.slowReaderDisconnects++;
			const problem = {
				type: `${PROBLEM_BASE}operational-disconnect`,
				title: 'Operational Disconnect',
				detail: 'This stream has been disconnected because your client was unable to keep up.',
				disconnect_type: 'SlowReader',
			};
			conn.res.end(JSON.stringify({ errors: [problem] }) + '\r\n');
		}
	}

	/** One copy of an emitted event per matching subscription without a webhook (as the service sends). */
	function publish(result, input) {
		const type = result.event_type;
		const userId = String(input.user_id || sb.keys.userId);
		const direction =
			type.startsWith('dm.') || type.startsWith('chat.')
				? type === 'dm.sent' || type === 'chat.sent'
					? 'sent'
					: 'received'
				: undefined;
		const now = Date.now();
		for (const sub of sb.db.subscriptions.values()) {
			if (sub.webhook_id) continue;
			if (!sb.subscriptionMatches(sub, type, userId, result.payload, direction)) continue;
			const data = {
				event_uuid: result.event_uuid,
				event_type: type,
				filter: sub.filter,
				payload: result.payload,
			};
			if (sub.tag) data.tag = sub.tag;
			if (input.includes) data.includes = input.includes;
			const line = JSON.stringify({ data }) + '\r\n';
			state.log.push({ at: now, event_uuid: result.event_uuid, line });
			for (const conn of state.connections) {
				if (conn.behind) {
					// Still sending its backlog (paced): after it, unless the answer ends with it.
					if (conn.query.end_time === undefined) conn.behind.push(line);
					continue;
				}
				write(conn, line);
				if (!conn.stalled) conn.sent++;
			}
		}
		prune(now);
	}

	// Events reach the stream as they are emitted (after their webhook deliveries, if any).
	const emit = sb.emit;
	sb.emit = async (input = {}) => {
		const results = await emit(input);
		const i = input || {};
		if (!i.webhook_id && i.shape !== 'account_activity' && !i.forge && !i.unsigned)
			for (const result of results) publish(result, i);
		return results;
	};

	function timeOf(name, value) {
		const t = Date.parse(value);
		if (!Number.isFinite(t))
			throw invalidRequest(`${name} is not a date-time`, { [name]: [value] });
		return t;
	}

	sb.route('GET', '/2/activity/stream', 'app', ({ q, res, req, auth }) => {
		const now = Date.now();
		let from;
		if (q.backfill_minutes !== undefined) from = now - Number(q.backfill_minutes) * MINUTE;
		if (q.start_time !== undefined) {
			const start = timeOf('start_time', q.start_time);
			if (start > now)
				throw invalidRequest('start_time must not be in the future', {
					start_time: [q.start_time],
				});
			from = from === undefined ? start : Math.min(from, start);
		}
		const end = q.end_time !== undefined ? timeOf('end_time', q.end_time) : undefined;
		if (end !== undefined && from !== undefined && end < from)
			throw invalidRequest('end_time must not be before start_time', { end_time: [q.end_time] });
		prune(now);
		state.connects++;
		const conn = {
			id: state.connects,
			res,
			query: q,
			label: auth && auth.label,
			stalled: false,
			sent: 0,
			opened_at: new Date(now).toISOString(),
		};
		res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
		res.flushHeaders();
		const backlog =
			from === undefined
				? []
				: state.log.filter((e) => e.at >= from && (end === undefined || e.at <= end));
		const bounded = end !== undefined && end <= now;
		if (!state.backlogLineMs) {
			for (const entry of backlog) {
				write(conn, entry.line);
				conn.sent++;
			}
			if (bounded) {
				res.end();
				return {};
			}
		}
		state.connections.add(conn);
		sb.log(`activity stream #${conn.id} opened ${JSON.stringify(q)}`);
		return new Promise((resolve) => {
			const beat = setInterval(() => {
				checkSlowReader(conn);
				write(conn, '\r\n');
			}, state.keepAliveMs);
			let pacing;
			if (state.backlogLineMs) {
				// The backlog line by line; live events wait behind it (the backlog comes first).
				conn.behind = [];
				const next = () => {
					if (res.destroyed || res.writableEnded) return;
					const entry = backlog.shift();
					if (entry) {
						write(conn, entry.line);
						conn.sent++;
						pacing = setTimeout(next, state.backlogLineMs);
						return;
					}
					const behind = conn.behind;
					conn.behind = undefined;
					if (bounded) {
						res.end();
						return;
					}
					for (const line of behind) write(conn, line);
				};
				next();
			}
			const done = () => {
				clearInterval(beat);
				clearTimeout(pacing);
				state.connections.delete(conn);
				resolve({});
			};
			res.once('close', done);
			req.once('close', () => {
				if (!res.writableEnded) res.end();
			});
		});
	});

	const C = 'control';
	sb.route('GET', '/_sandbox/activity-stream', C, () => ({
		body: {
			connections: [...state.connections].map((c) => ({
				id: c.id,
				query: c.query,
				label: c.label,
				stalled: c.stalled,
				sent: c.sent,
				opened_at: c.opened_at,
			})),
			connects: state.connects,
			events: state.log.length,
			keepAliveMs: state.keepAliveMs,
			slowReaderDisconnects: state.slowReaderDisconnects,
		},
	}));
	sb.route('POST', '/_sandbox/activity-stream/options', C, ({ body }) => {
		const b = body || {};
		if (b.keepAliveMs !== undefined) {
			const ms = Number(b.keepAliveMs);
			if (!Number.isInteger(ms) || ms < 10 || ms > 600000)
				throw invalidRequest('keepAliveMs: 10 to 600000', { keepAliveMs: [String(ms)] });
			state.keepAliveMs = ms;
		}
		if (b.backlogLineMs !== undefined) {
			const ms = Number(b.backlogLineMs);
			if (!Number.isInteger(ms) || ms < 0 || ms > 60000)
				throw invalidRequest('backlogLineMs: 0 to 60000', { backlogLineMs: [String(ms)] });
			state.backlogLineMs = ms;
		}
		if (b.slowReaderBytes !== undefined) {
			const n = Number(b.slowReaderBytes);
			if (!Number.isInteger(n) || n < 0)
				throw invalidRequest('slowReaderBytes: 0 or more', { slowReaderBytes: [String(n)] });
			state.slowReaderBytes = n;
		}
		return {
			body: {
				keepAliveMs: state.keepAliveMs,
				backlogLineMs: state.backlogLineMs,
				slowReaderBytes: state.slowReaderBytes,
			},
		};
	});
	sb.route('POST', '/_sandbox/activity-stream/cut', C, () => {
		const open = [...state.connections];
		for (const c of open) c.res.destroy();
		return { body: { cut: open.length } };
	});
	sb.route('POST', '/_sandbox/activity-stream/stall', C, () => {
		for (const c of state.connections) c.stalled = true;
		return { body: { stalled: state.connections.size } };
	});
	sb.route('POST', '/_sandbox/activity-stream/long-line', C, ({ body }) => {
		const length = Number((body || {}).length);
		if (!Number.isInteger(length) || length < 1 || length > 64 * 1024 * 1024)
			throw invalidRequest('length: 1 to 67108864', { length: [String((body || {}).length)] });
		const piece = 'x'.repeat(64 * 1024);
		let written = 0;
		for (const conn of state.connections) {
			if (conn.stalled || conn.res.destroyed || conn.res.writableEnded) continue;
			for (let left = length; left > 0; left -= piece.length)
				conn.res.write(left >= piece.length ? piece : piece.slice(0, left));
			conn.res.write('\r\n');
			written++;
		}
		return { body: { written, length } };
	});
	sb.route('POST', '/_sandbox/activity-stream/resume', C, () => {
		let resumed = 0;
		for (const c of state.connections) if (c.stalled) ((c.stalled = false), resumed++);
		return { body: { resumed } };
	});
}

module.exports = { install };
