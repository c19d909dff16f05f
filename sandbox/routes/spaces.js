'use strict';
/**
 * Spaces, trends, Communities, post usage and compliance (batch jobs and the post label stream).
 *
 * Seeded on every reset:
 *   Spaces       1DXxyRYNejbKM (live, ticketed, created by the sandbox user, 3 ticket buyers),
 *                1YpKkgVgevkxj (scheduled, by other_person), 1OwxWzLXPmyJQ (ended, by the sandbox user)
 *   Trends       for the WOEIDs in TRENDS (1 = worldwide); any other WOEID is not found
 *   Communities  1600000000000000001 "n8n Builders" and 14 "Automation Circle" ones (search pages)
 *   Compliance   job 1700000000000000001 (tweets, complete)
 *   Labels       two label events, 1 and 2 minutes before the reset
 *
 * What the service adds to the contract, enforced here: only a Space's creator may read its ticket
 * buyers; a Space's posts are the posts that link to it.
 *
 * The label stream (GET /2/tweets/label/stream) answers like the activity stream: a chunked
 * `application/json` answer, one JSON object per line ended by `\r\n`, an empty line as keep-alive
 * every keepAliveMs; backfill_minutes (0-5) sends the events of the last N minutes first, start_time
 * those since then, and end_time ends the answer once the events up to it are sent.
 *   sb.addLabelEvent({post_id?, author_id?, kind?: 'notice'|'unviewable', application?: 'apply'|'remove'})
 *   POST /_sandbox/labels  the same, over HTTP: a label applied now, sent to every open connection
 *
 * A creator's Spaces (GET /2/spaces/by/creator_ids) come in no promised order, as from the service.
 *   sb.addSpace({creator_id?, state?: 'live'|'scheduled', title?, created_at?, id?})
 *   POST /_sandbox/spaces  the same, over HTTP
 */
const crypto = require('node:crypto');

const { invalidRequest, notFound, problem, PROBLEM_BASE } = require('../lib/http');

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;

/** Trends by WOEID: names and post counts. */
const TRENDS = {
	1: ['#WorldCup', 'Monday Motivation', '#AI', 'Open Source', '#n8n', 'Lunar Eclipse'],
	23424977: ['#NFL', 'Thanksgiving', '#AI', 'Wall Street', 'Open Source'],
	23424975: ['Premier League', '#BakeOff', 'London Marathon', '#AI'],
	2459115: ['Knicks', 'Central Park', '#NYC', 'Subway'],
	44418: ['Tube Strike', '#LondonFashionWeek', 'Arsenal'],
	23424829: ['Bundesliga', '#Tatort', 'Oktoberfest'],
	23424819: ['Ligue 1', '#PSG', 'Tour de France'],
	23424856: ['#Anime', 'Sakura', 'J-League'],
	1118370: ['Shibuya', '#Tokyo', 'Sumo'],
	23424848: ['#Cricket', 'Diwali', 'Bollywood'],
	23424768: ['Brasileirão', '#Carnaval', 'Copa do Brasil'],
	23424775: ['#HockeyNight', 'Toronto', 'Maple Leafs'],
	23424748: ['#AFL', 'Sydney', 'The Ashes'],
};

function install(sb) {
	const fieldsOf = (q, name) => (q[name] ? String(q[name]).split(',').filter(Boolean) : []);
	const pick = (object, fields, always) => {
		const out = {};
		for (const f of always) if (object[f] !== undefined) out[f] = object[f];
		for (const f of fields) if (object[f] !== undefined) out[f] = object[f];
		return out;
	};
	const userView = (u, q) => pick(u, fieldsOf(q, 'user.fields'), ['id', 'name', 'username']);
	const store = () => sb.db.spacesFamily;

	function seed() {
		const now = Date.now();
		const iso = (ms) => new Date(ms).toISOString();
		const me = sb.keys.userId;
		const buyer = (id, name, username) => ({
			id,
			name,
			username,
			created_at: '2022-03-03T00:00:00.000Z',
			description: '',
			protected: false,
			verified: false,
			verified_type: 'none',
			public_metrics: { followers_count: 3, following_count: 9, tweet_count: 12, listed_count: 0 },
		});
		const spaces = [
			{
				id: '1DXxyRYNejbKM',
				state: 'live',
				title: 'Automation office hours',
				creator_id: me,
				host_ids: [me],
				speaker_ids: ['1000000002'],
				invited_user_ids: ['1000000002'],
				topic_ids: ['848920371311001600'],
				is_ticketed: true,
				lang: 'en',
				participant_count: 12,
				subscriber_count: 30,
				created_at: iso(now - 2 * DAY),
				started_at: iso(now - 30 * MINUTE),
				updated_at: iso(now - 5 * MINUTE),
			},
			{
				id: '1YpKkgVgevkxj',
				state: 'scheduled',
				title: 'Workflow design live',
				creator_id: '1000000002',
				host_ids: ['1000000002'],
				speaker_ids: [],
				invited_user_ids: [me],
				topic_ids: [],
				is_ticketed: false,
				lang: 'en',
				participant_count: 0,
				subscriber_count: 8,
				created_at: iso(now - DAY),
				scheduled_start: iso(now + DAY),
				updated_at: iso(now - DAY),
			},
			{
				id: '1OwxWzLXPmyJQ',
				state: 'ended',
				title: 'Sandbox launch party',
				creator_id: me,
				host_ids: [me],
				speaker_ids: [],
				invited_user_ids: [],
				topic_ids: [],
				is_ticketed: false,
				lang: 'en',
				participant_count: 0,
				subscriber_count: 0,
				created_at: iso(now - 10 * DAY),
				started_at: iso(now - 9 * DAY),
				ended_at: iso(now - 9 * DAY + 60 * MINUTE),
				updated_at: iso(now - 9 * DAY + 60 * MINUTE),
			},
		];
		const communities = [
			{
				id: '1600000000000000001',
				name: 'n8n Builders',
				description: 'People who build workflows with n8n',
				access: 'Public',
				join_policy: 'Open',
				member_count: 1250,
				created_at: '2023-02-01T10:00:00.000Z',
			},
		];
		for (let i = 2; i <= 15; i++)
			communities.push({
				id: String(1600000000000000000n + BigInt(i)),
				name: `Automation Circle ${i - 1}`,
				description: 'Automation, scripts and workflows',
				access: 'Public',
				join_policy: i % 2 ? 'Open' : 'RestrictedJoinRequestsRequireModeratorApproval',
				member_count: 100 + i,
				created_at: '2024-01-01T00:00:00.000Z',
			});
		sb.db.spacesFamily = {
			spaces: new Map(spaces.map((s) => [s.id, s])),
			topics: new Map([
				[
					'848920371311001600',
					{ id: '848920371311001600', name: 'Technology', description: 'All about technology' },
				],
			]),
			buyers: new Map([
				[
					'1DXxyRYNejbKM',
					[
						'1000000002',
						buyer('1000000011', 'Ticket Holder', 'ticket_holder'),
						buyer('1000000012', 'Early Bird', 'early_bird'),
					],
				],
			]),
			communities: new Map(communities.map((c) => [c.id, c])),
			jobs: new Map([
				[
					'1700000000000000001',
					job('1700000000000000001', 'tweets', 'Monthly check', false, now - DAY, 'complete'),
				],
			]),
			labels: [],
		};
		for (const minutes of [2, 1])
			addLabel({ post_id: '1790000000000000900', kind: 'notice' }, now - minutes * MINUTE);
	}

	function job(id, type, name, resumable, createdMs, status) {
		const at = (ms) => new Date(ms).toISOString();
		const out = {
			id,
			type,
			resumable,
			status,
			created_at: at(createdMs),
			upload_url: `https://storage.sandbox.local/compliance/${id}/upload`,
			upload_expires_at: at(createdMs + 15 * MINUTE),
			download_url: `https://storage.sandbox.local/compliance/${id}/result`,
			download_expires_at: at(createdMs + 7 * DAY),
		};
		if (name) out.name = name;
		return out;
	}

	const reset = sb.reset;
	sb.reset = () => {
		reset();
		seed();
	};

	// ---- Spaces ----
	function spacesBody(list, q, errors) {
		const body = {};
		const fields = fieldsOf(q, 'space.fields');
		if (list.length) body.data = list.map((s) => pick(s, fields, ['id', 'state']));
		const expansions = fieldsOf(q, 'expansions');
		const userIds = new Set();
		for (const s of list)
			for (const e of ['creator_id', 'host_ids', 'speaker_ids', 'invited_user_ids'])
				if (expansions.includes(e)) [].concat(s[e] || []).forEach((id) => userIds.add(id));
		const includes = {};
		const users = [...userIds]
			.map((id) => sb.db.users.get(id))
			.filter(Boolean)
			.map((u) => userView(u, q));
		if (users.length) includes.users = users;
		if (expansions.includes('topic_ids')) {
			const topics = [...new Set(list.flatMap((s) => s.topic_ids || []))]
				.map((id) => store().topics.get(id))
				.filter(Boolean)
				.map((t) => pick(t, fieldsOf(q, 'topic.fields'), ['id', 'name']));
			if (topics.length) includes.topics = topics;
		}
		if (Object.keys(includes).length) body.includes = includes;
		if (errors && errors.length) body.errors = errors;
		if (!list.length && !(errors && errors.length)) body.meta = { result_count: 0 };
		return body;
	}
	const missing = (id, parameter) => ({
		value: id,
		detail: `Could not find space with ${parameter}: [${id}].`,
		title: 'Not Found Error',
		resource_type: 'space',
		parameter,
		resource_id: id,
		type: PROBLEM_BASE + 'resource-not-found',
	});
	const getSpace = (id) => {
		const s = store().spaces.get(id);
		if (!s) throw notFound('space', 'id', id);
		return s;
	};

	sb.route('GET', '/2/spaces/search', 'any', ({ q }) => {
		const terms = String(q.query || '')
			.toLowerCase()
			.split(/\s+/)
			.filter(Boolean);
		const state = q.state || 'all';
		const max = Number(q.max_results || 100);
		const found = [...store().spaces.values()].filter(
			(s) =>
				s.state !== 'ended' &&
				(state === 'all' || s.state === state) &&
				terms.some((t) => s.title.toLowerCase().includes(t)),
		);
		const body = spacesBody(found.slice(0, max), q);
		body.meta = { result_count: Math.min(found.length, max) };
		return { body };
	});
	// The contract's user_ids and ids are repeated parameters (user_ids=1&user_ids=2).
	const listOf = (query, name) => query.getAll(name).flatMap((v) => v.split(','));
	/**
	 * The service promises no order for a creator's Spaces. The sandbox answers one that is neither
	 * newest nor oldest first (for two or more): newest first by creation with the newest moved to the
	 * end, so that a client reading the answer as ordered is caught.
	 */
	const inNoPromisedOrder = (spaces) => {
		const newestFirst = [...spaces].sort((a, b) =>
			a.created_at === b.created_at ? 0 : a.created_at < b.created_at ? 1 : -1,
		);
		return [...newestFirst.slice(1), ...newestFirst.slice(0, 1)];
	};
	sb.route('GET', '/2/spaces/by/creator_ids', 'any', ({ q, query }) => {
		const ids = listOf(query, 'user_ids');
		const found = inNoPromisedOrder(
			[...store().spaces.values()].filter((s) => s.state !== 'ended' && ids.includes(s.creator_id)),
		);
		const body = spacesBody(found, q);
		body.meta = { result_count: found.length };
		return { body };
	});
	sb.route('GET', '/2/spaces', 'any', ({ q, query }) => {
		const ids = listOf(query, 'ids');
		const found = ids.map((id) => store().spaces.get(id)).filter(Boolean);
		const errors = ids.filter((id) => !store().spaces.has(id)).map((id) => missing(id, 'ids'));
		return { body: spacesBody(found, q, errors) };
	});
	sb.route('GET', '/2/spaces/:id/buyers', 'user', ({ params, q, auth }) => {
		const space = getSpace(params.id);
		if (space.creator_id !== auth.userId)
			throw problem(
				403,
				'client-forbidden',
				'Client Forbidden',
				'Only the creator of a Space can see who bought tickets to it.',
				{ reason: 'client-not-enrolled', registration_url: 'https://developer.sandbox.local' },
			);
		const list = (store().buyers.get(space.id) || [])
			.map((b) => (typeof b === 'string' ? sb.db.users.get(b) : b))
			.filter(Boolean);
		const size = Number(q.max_results || 100);
		const start = q.pagination_token
			? Number(
					Buffer.from(String(q.pagination_token), 'base64url')
						.toString('utf8')
						.replace(/^space-buyers:/, ''),
				)
			: 0;
		if (!Number.isInteger(start) || start < 0)
			throw invalidRequest('pagination_token is not valid', {
				pagination_token: [String(q.pagination_token)],
			});
		const page = list.slice(start, start + size);
		const body = { meta: { result_count: page.length } };
		if (page.length) body.data = page.map((u) => userView(u, q));
		// Tokens of at least 16 characters, as the service's are.
		if (start + size < list.length)
			body.meta.next_token = Buffer.from(`space-buyers:${start + size}`).toString('base64url');
		return { body };
	});
	sb.route('GET', '/2/spaces/:id/tweets', 'any', ({ params, q }) => {
		const space = getSpace(params.id);
		const max = Number(q.max_results || 100);
		const posts = [...sb.db.tweets.values()]
			.filter((t) => !t.deleted && String(t.text).includes(`/i/spaces/${space.id}`))
			.slice(0, max);
		const fields = fieldsOf(q, 'tweet.fields');
		const body = { meta: { result_count: posts.length } };
		if (posts.length)
			body.data = posts.map((t) => ({
				...pick(t, fields, ['id', 'text']),
				edit_history_tweet_ids: t.edit_history_tweet_ids,
			}));
		if (fieldsOf(q, 'expansions').includes('author_id')) {
			const users = [...new Set(posts.map((t) => t.author_id))]
				.map((id) => sb.db.users.get(id))
				.filter(Boolean)
				.map((u) => userView(u, q));
			if (users.length) body.includes = { users };
		}
		return { body };
	});
	// One Space by id: `data` is the Space itself, as the contract's answer has it (the list reads
	// answer an array).
	sb.route('GET', '/2/spaces/:id', 'any', ({ params, q }) => {
		const body = spacesBody([getSpace(params.id)], q);
		body.data = body.data[0];
		return { body };
	});

	// ---- Trends ----
	sb.route('GET', '/2/trends/by/woeid/:woeid', 'app', ({ params, q }) => {
		const names = TRENDS[params.woeid];
		if (!names) throw notFound('place', 'woeid', params.woeid);
		const fields = fieldsOf(q, 'trend.fields');
		const max = Number(q.max_trends || 20);
		const data = names.slice(0, max).map((trend_name, i) => {
			const trend = { trend_name, tweet_count: 250000 - i * 37000 - Number(params.woeid % 997) };
			return fields.length ? pick(trend, fields, []) : { trend_name };
		});
		return { body: { data } };
	});
	sb.route('GET', '/2/users/personalized_trends', 'user', ({ q }) => {
		const fields = fieldsOf(q, 'personalized_trend.fields');
		const trends = [
			{ trend_name: '#n8n', category: 'Technology', post_count: 4200, trending_since: '2 hours' },
			{
				trend_name: 'Workflow Automation',
				category: 'Business',
				post_count: 1800,
				trending_since: '5 hours',
			},
			{
				trend_name: 'Open Source',
				category: 'Technology',
				post_count: 12500,
				trending_since: '1 day',
			},
		];
		return {
			body: {
				data: trends.map((t) =>
					fields.length ? pick(t, fields, []) : { trend_name: t.trend_name },
				),
			},
		};
	});

	// ---- Communities ----
	sb.route('GET', '/2/communities/search', 'user', ({ q }) => {
		const terms = String(q.query || '')
			.toLowerCase()
			.split(/\s+/)
			.filter(Boolean);
		const found = [...store().communities.values()].filter((c) =>
			terms.some(
				(t) => c.name.toLowerCase().includes(t) || c.description.toLowerCase().includes(t),
			),
		);
		const token = q.next_token || q.pagination_token;
		const { page, next } = sb.pageOf(found, Number(q.max_results || 10), token);
		const fields = fieldsOf(q, 'community.fields');
		const body = { meta: { result_count: page.length } };
		if (page.length) body.data = page.map((c) => pick(c, fields, ['id', 'name']));
		if (next) body.meta.next_token = next;
		return { body };
	});
	sb.route('GET', '/2/communities/:id', 'any', ({ params, q }) => {
		const c = store().communities.get(params.id);
		if (!c) throw notFound('community', 'id', params.id);
		return { body: { data: pick(c, fieldsOf(q, 'community.fields'), ['id', 'name']) } };
	});

	// ---- Post usage ----
	sb.route('GET', '/2/usage/tweets', 'app', ({ q }) => {
		const days = Number(q.days || 7);
		const today = Date.UTC(
			new Date().getUTCFullYear(),
			new Date().getUTCMonth(),
			new Date().getUTCDate(),
		);
		const daily = Array.from({ length: days }, (_, i) => ({
			date: new Date(today - (days - 1 - i) * DAY).toISOString(),
			usage: 40 + ((i * 17) % 60),
		}));
		const projectUsage = daily.reduce((n, d) => n + d.usage, 0);
		const all = {
			cap_reset_day: 1 + ((new Date().getUTCDate() + 14) % 28),
			project_cap: 10000,
			project_id: '1790000000000000777',
			project_usage: projectUsage,
			daily_project_usage: { project_id: 1790000777, usage: daily },
			daily_client_app_usage: [
				{ client_app_id: '29000001', usage: daily, usage_result_count: daily.length },
			],
		};
		const fields = fieldsOf(q, 'usage.fields');
		const data = fields.length
			? pick(all, fields, [])
			: pick(all, ['cap_reset_day', 'project_cap', 'project_id', 'project_usage'], []);
		return { body: { data } };
	});

	// ---- Compliance jobs ----
	const jobView = (j, q) => {
		const fields = fieldsOf(q, 'compliance_job.fields');
		return fields.length ? pick(j, fields, ['id']) : j;
	};
	sb.route('POST', '/2/compliance/jobs', 'app', ({ body }) => {
		const input = body || {};
		const id = sb.newId();
		const created = job(
			id,
			input.type,
			input.name,
			input.resumable === true,
			Date.now(),
			'created',
		);
		store().jobs.set(id, created);
		return { body: { data: created } };
	});
	sb.route('GET', '/2/compliance/jobs', 'app', ({ q }) => {
		const list = [...store().jobs.values()]
			.filter((j) => j.type === q.type && (!q.status || j.status === q.status))
			.sort((a, b) => (a.created_at < b.created_at ? 1 : -1));
		const body = { meta: { result_count: list.length } };
		if (list.length) body.data = list.map((j) => jobView(j, q));
		return { body };
	});
	sb.route('GET', '/2/compliance/jobs/:id', 'app', ({ params, q }) => {
		const j = store().jobs.get(params.id);
		if (!j) throw notFound('compliance_job', 'id', params.id);
		return { body: { data: jobView(j, q) } };
	});

	// ---- The post label stream ----
	const connections = new Set();
	sb.labelStream = { connections, keepAliveMs: 20000 };
	function addLabel(input = {}, at = Date.now()) {
		const postId = String(input.post_id || sb.newId());
		const label = {
			application: input.application === 'remove' ? 'remove' : 'apply',
			event_at: new Date(at).toISOString(),
			tweet: { id: postId, author_id: String(input.author_id || '1000000002') },
		};
		const data =
			input.kind === 'unviewable'
				? { public_tweet_unviewable: label }
				: {
						public_tweet_notice: {
							...label,
							event_type: 'misleading',
							label_title: 'Stay informed',
							details: 'This post has context added by readers',
							extended_details_url: 'https://help.sandbox.local/labels',
						},
					};
		const line = JSON.stringify({ data }) + '\r\n';
		sb.db.spacesFamily.labels.push({ at, line });
		for (const res of connections) if (!res.writableEnded) res.write(line);
		return data;
	}
	/**
	 * A Space someone creates (control API): live or scheduled, created now unless `created_at` says
	 * when. `GET /2/spaces/by/creator_ids` finds it.
	 */
	sb.addSpace = (input = {}) => {
		const creator = String(input.creator_id || sb.keys.userId);
		if (!sb.db.users.get(creator)) throw notFound('user', 'creator_id', creator);
		const state = input.state || 'live';
		if (!['live', 'scheduled'].includes(state))
			throw invalidRequest('state: live or scheduled', { state: [String(state)] });
		const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
		const id =
			input.id !== undefined
				? String(input.id)
				: '1' + Array.from(crypto.randomBytes(12), (b) => alphabet[b % 62]).join('');
		if (!/^[a-zA-Z0-9]{1,13}$/.test(id)) throw invalidRequest('id: 1 to 13 letters or digits', {});
		const at = input.created_at ? new Date(input.created_at) : new Date();
		if (Number.isNaN(at.getTime()))
			throw invalidRequest('created_at is not a date-time', { created_at: [input.created_at] });
		const space = {
			id,
			state,
			title: String(input.title || 'A new Space'),
			creator_id: creator,
			host_ids: [creator],
			speaker_ids: [],
			invited_user_ids: [],
			topic_ids: [],
			is_ticketed: false,
			lang: 'en',
			participant_count: 0,
			subscriber_count: 0,
			created_at: at.toISOString(),
			updated_at: at.toISOString(),
		};
		if (state === 'live') space.started_at = at.toISOString();
		else space.scheduled_start = new Date(at.getTime() + DAY).toISOString();
		store().spaces.set(id, space);
		return space;
	};
	sb.route('POST', '/_sandbox/spaces', 'control', ({ body }) => ({
		status: 201,
		body: { data: sb.addSpace(body || {}) },
	}));
	sb.addLabelEvent = (input) => addLabel(input);
	sb.route('POST', '/_sandbox/labels', 'control', ({ body }) => ({
		body: { data: addLabel(body || {}) },
	}));
	sb.route('GET', '/2/tweets/label/stream', 'app', ({ q, res, req }) => {
		const now = Date.now();
		const timeOf = (name) => {
			const t = Date.parse(q[name]);
			if (!Number.isFinite(t))
				throw invalidRequest(`${name} is not a date-time`, { [name]: [q[name]] });
			return t;
		};
		let from;
		if (q.backfill_minutes !== undefined) from = now - Number(q.backfill_minutes) * MINUTE;
		if (q.start_time !== undefined) from = Math.min(from ?? Infinity, timeOf('start_time'));
		const end = q.end_time !== undefined ? timeOf('end_time') : undefined;
		res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
		res.flushHeaders();
		if (from !== undefined)
			for (const e of sb.db.spacesFamily.labels)
				if (e.at >= from && (end === undefined || e.at <= end)) res.write(e.line);
		if (end !== undefined && end <= now) {
			res.end();
			return {};
		}
		connections.add(res);
		return new Promise((resolve) => {
			const beat = setInterval(
				() => res.writableEnded || res.write('\r\n'),
				sb.labelStream.keepAliveMs,
			);
			res.once('close', () => {
				clearInterval(beat);
				connections.delete(res);
				resolve({});
			});
			req.once('close', () => res.writableEnded || res.end());
		});
	});

	seed();
}

module.exports = { install };
