'use strict';
/**
 * More post and user reads and actions: who liked or reposted a post, its reposts and quotes, hiding
 * replies, post analytics and engagement insights, user search, affiliates, reposts of me, the home
 * timeline, bookmark folders, muting.
 *
 * Installed before routes/posts.js: its `/2/tweets/:id` and `/2/users/:id` would otherwise take
 * `/2/tweets/analytics` and `/2/users/search`. Likes, reposts and bookmarks are sent to posts.js's
 * routes, which tell this file (sb.onEngagement) so that the reads here see them.
 */
const { problem, invalidRequest, notFound, PROBLEM_BASE } = require('../lib/http');

/** The sandbox user's bookmark folders, as a fresh store seeds them. */
const SEED_FOLDERS = [
	{ id: '1800000000000000001', name: 'Reading list' },
	{ id: '1800000000000000002', name: 'Recipes' },
];

const INSIGHT_METRICS = {
	Impressions: (m) => m.impression_count,
	Engagements: (m) => m.like_count + m.retweet_count + m.reply_count + m.quote_count,
	Likes: (m) => m.like_count,
	Retweets: (m) => m.retweet_count,
	Replies: (m) => m.reply_count,
	QuoteTweets: (m) => m.quote_count,
};
const ANALYTICS_METRICS = {
	impressions: (m) => m.impression_count,
	engagements: (m) => m.like_count + m.retweet_count + m.reply_count + m.quote_count,
	likes: (m) => m.like_count,
	retweets: (m) => m.retweet_count,
	replies: (m) => m.reply_count,
	quote_tweets: (m) => m.quote_count,
};

function install(sb) {
	const db = () => sb.db;

	/** This file's state, created with each fresh store (sb.reset replaces sb.db). */
	function store() {
		const d = db();
		if (!d.postsMore) {
			d.postsMore = {
				/** post id -> Map(user id -> id of the repost) */
				reposts: new Map(),
				/** user id -> Set of muted user ids */
				mutes: new Map(),
				/** user id -> folders [{id, name, postIds:Set}] */
				folders: new Map([
					[sb.keys.userId, SEED_FOLDERS.map((f) => ({ ...f, postIds: new Set() }))],
				]),
				/** user id -> ids of the users affiliated with it */
				affiliates: new Map([[sb.keys.userId, ['1000000002']]]),
			};
		}
		return d.postsMore;
	}

	const fieldsOf = (q, name) => (q[name] ? String(q[name]).split(',').filter(Boolean) : []);

	function postView(t, q) {
		const out = { id: t.id, text: t.text, edit_history_tweet_ids: t.edit_history_tweet_ids };
		for (const f of fieldsOf(q, 'tweet.fields')) if (t[f] !== undefined) out[f] = t[f];
		return out;
	}

	function mostRecentPostOf(userId) {
		return [...db().tweets.values()]
			.filter((t) => t.author_id === userId && !t.deleted)
			.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? 1 : -1))[0];
	}

	function userView(u, q) {
		const out = { id: u.id, name: u.name, username: u.username };
		const affiliated = [...store().affiliates].filter(([, ids]) => ids.includes(u.id));
		const extra = {
			most_recent_tweet_id: (mostRecentPostOf(u.id) || {}).id,
			affiliation: affiliated.length ? { user_id: affiliated.map(([owner]) => owner) } : undefined,
		};
		for (const f of fieldsOf(q, 'user.fields')) {
			if (u[f] !== undefined) out[f] = u[f];
			else if (extra[f] !== undefined) out[f] = extra[f];
		}
		return out;
	}

	/** A page of users with the posts and users its expansions name. */
	function usersBody(users, q) {
		const expansions = fieldsOf(q, 'expansions');
		const data = users.map((u) => userView(u, q));
		const tweets = new Map();
		const others = new Map();
		for (const [i, u] of users.entries()) {
			if (expansions.includes('most_recent_tweet_id')) {
				const t = mostRecentPostOf(u.id);
				if (t) {
					data[i].most_recent_tweet_id = t.id;
					tweets.set(t.id, postView(t, q));
				}
			}
			if (expansions.includes('pinned_tweet_id') && u.pinned_tweet_id) {
				const t = db().tweets.get(String(u.pinned_tweet_id));
				data[i].pinned_tweet_id = u.pinned_tweet_id;
				if (t && !t.deleted) tweets.set(t.id, postView(t, q));
			}
			if (expansions.includes('affiliation.user_id')) {
				for (const [owner, ids] of store().affiliates) {
					if (!ids.includes(u.id)) continue;
					data[i].affiliation = { user_id: [owner] };
					const o = db().users.get(owner);
					if (o) others.set(o.id, { id: o.id, name: o.name, username: o.username });
				}
			}
		}
		const body = { data };
		const includes = {};
		if (tweets.size) includes.tweets = [...tweets.values()];
		if (others.size) includes.users = [...others.values()];
		if (Object.keys(includes).length) body.includes = includes;
		return body;
	}

	/** A page of posts with their authors when author_id is expanded. */
	function postsBody(posts, q) {
		const body = { data: posts.map((t) => postView(t, q)) };
		if (fieldsOf(q, 'expansions').includes('author_id')) {
			const users = [...new Set(posts.map((t) => t.author_id))]
				.map((id) => db().users.get(id))
				.filter(Boolean)
				.map((u) => ({ id: u.id, name: u.name, username: u.username }));
			if (users.length) body.includes = { users };
		}
		return body;
	}

	function requireId(value, name) {
		if (!/^[0-9]{1,19}$/.test(String(value)))
			throw invalidRequest(`The \`${name}\` value [${value}] is not valid`, {
				[name]: [String(value)],
			});
	}

	function livePost(id, name = 'id') {
		requireId(id, name);
		const t = db().tweets.get(String(id));
		if (!t || t.deleted) throw notFound('tweet', name, id);
		return t;
	}

	/** `:id` of a user-context path must be the authenticated user. */
	function requireSelf(id, auth) {
		requireId(id, 'id');
		if (String(id) !== String(auth.userId))
			throw problem(
				403,
				'about:blank',
				'Forbidden',
				'You are not permitted to perform this action on behalf of another user.',
			);
	}

	function pageSize(q, min, max, fallback) {
		if (q.max_results === undefined) return fallback;
		const n = Number(q.max_results);
		if (!Number.isInteger(n) || n < min || n > max)
			throw invalidRequest(
				`The \`max_results\` query parameter value [${q.max_results}] is not between ${min} and ${max}`,
				{ max_results: [String(q.max_results)] },
			);
		return n;
	}

	/** One page of `list` in the envelope every list read answers with. */
	function paged(list, q, { min, max, fallback, tokenParam = 'pagination_token' }, render) {
		const size = pageSize(q, min, max, fallback);
		const { page, next } = sb.pageOf(list, size, q[tokenParam]);
		const body = render(page);
		body.meta = { result_count: page.length };
		if (page.length && page[0].text !== undefined)
			Object.assign(body.meta, { newest_id: page[0].id, oldest_id: page[page.length - 1].id });
		if (next) body.meta.next_token = next;
		if (!page.length) delete body.data;
		return { body };
	}

	const newestFirst = (list) => list.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? 1 : -1));
	const metricsOf = (t) =>
		t.public_metrics || {
			retweet_count: 0,
			reply_count: 0,
			like_count: 0,
			quote_count: 0,
			impression_count: 0,
			bookmark_count: 0,
		};

	// ---- What posts.js's likes, reposts and bookmarks change here ----
	sb.onEngagement = (field, value, userId, postId) => {
		const s = store();
		const t = db().tweets.get(String(postId));
		// Who likes and bookmarked what is kept with when (sb.relate): the Liked Posts and Bookmarks
		// reads list them newest first.
		if (field === 'liked' && t && sb.relate('like', userId, t.id, value))
			t.public_metrics.like_count += value ? 1 : -1;
		if (field === 'retweeted' && t) {
			if (!s.reposts.has(t.id)) s.reposts.set(t.id, new Map());
			const byUser = s.reposts.get(t.id);
			if (value && !byUser.has(userId)) {
				const author = db().users.get(t.author_id);
				const id = sb.newId();
				db().tweets.set(id, {
					id,
					text: `RT @${author ? author.username : 'unknown'}: ${t.text}`,
					author_id: userId,
					created_at: new Date().toISOString(),
					conversation_id: id,
					lang: t.lang,
					possibly_sensitive: false,
					referenced_tweets: [{ type: 'retweeted', id: t.id }],
					public_metrics: {
						retweet_count: 0,
						reply_count: 0,
						like_count: 0,
						quote_count: 0,
						impression_count: 0,
						bookmark_count: 0,
					},
					edit_history_tweet_ids: [id],
				});
				byUser.set(userId, id);
				t.public_metrics.retweet_count++;
			}
			if (!value && byUser.has(userId)) {
				const repost = db().tweets.get(byUser.get(userId));
				if (repost) repost.deleted = true;
				byUser.delete(userId);
				t.public_metrics.retweet_count--;
			}
		}
		if (field === 'bookmarked' && t && sb.relate('bookmark', userId, t.id, value)) {
			const metrics = t.public_metrics;
			if (metrics)
				metrics.bookmark_count = Math.max(0, (metrics.bookmark_count || 0) + (value ? 1 : -1));
		}
		if (field === 'bookmarked') {
			// Bookmarks made through the API land in the user's first folder.
			const folders = s.folders.get(String(userId));
			if (folders && folders.length) {
				if (value) folders[0].postIds.add(String(postId));
				else for (const f of folders) f.postIds.delete(String(postId));
			}
		}
	};

	/** The users who muted nobody see everything; posts.js's Muting read lists these. */
	sb.mutedBy = (userId) => [...(store().mutes.get(String(userId)) || [])];

	// ---- Analytics (before posts.js's GET /2/tweets/:id) ----
	function windowOf(q) {
		const start = Date.parse(q.start_time);
		const end = Date.parse(q.end_time);
		if (!(start < end))
			throw invalidRequest('start_time must be before end_time', {
				start_time: [String(q.start_time)],
				end_time: [String(q.end_time)],
			});
		return { start, end };
	}

	const STEP = { hourly: 3600e3, daily: 86400e3, weekly: 7 * 86400e3 };

	/**
	 * Buckets of the window at `granularity` (lower-case), each [start, end). A post's figures so far
	 * count in the bucket it was created in (or the window's first, when it is older).
	 */
	function buckets(start, end, granularity) {
		const step = STEP[granularity];
		if (!step) return [[start, end]];
		const out = [];
		for (let s = start; s < end && out.length < 1000; s += step)
			out.push([s, Math.min(s + step, end)]);
		return out;
	}
	const countsIn = (t, [s, e], first) => {
		const created = Date.parse(t.created_at);
		return created < e && (created >= s || first);
	};

	/** Posts the authenticated user may measure: its own; others come back as partial errors. */
	function measured(ids, auth, parameter) {
		const own = [];
		const errors = [];
		for (const id of ids) {
			const t = db().tweets.get(id);
			if (t && !t.deleted && t.author_id === auth.userId) own.push(t);
			else
				errors.push({
					value: id,
					detail:
						t && !t.deleted
							? `You can only read metrics of your own posts: [${id}].`
							: `Could not find tweet with ${parameter}: [${id}].`,
					title: t && !t.deleted ? 'Authorization Error' : 'Not Found Error',
					resource_type: 'tweet',
					parameter,
					resource_id: id,
					type:
						t && !t.deleted
							? PROBLEM_BASE + 'not-authorized-for-resource'
							: PROBLEM_BASE + 'resource-not-found',
				});
		}
		return { own, errors };
	}

	sb.route('GET', '/2/tweets/analytics', 'user', ({ q, auth }) => {
		const ids = String(q.ids || '')
			.split(',')
			.filter(Boolean);
		if (!ids.length || ids.length > 100)
			throw invalidRequest('`ids` takes 1 to 100 post ids', { ids: [String(q.ids || '')] });
		ids.forEach((id) => requireId(id, 'ids'));
		const { start, end } = windowOf(q);
		const granularity = q.granularity || 'total';
		const fields = fieldsOf(q, 'analytics.fields');
		const { own, errors } = measured([...new Set(ids)], auth, 'ids');
		const data = own.map((t) => ({
			id: t.id,
			timestamped_metrics: buckets(start, end, granularity).map((b, i) => {
				const inside = countsIn(t, b, i === 0);
				const metrics = {};
				for (const f of fields)
					if (ANALYTICS_METRICS[f]) metrics[f] = inside ? ANALYTICS_METRICS[f](metricsOf(t)) : 0;
				return { timestamp: sb.isoSeconds(new Date(b[0])), metrics };
			}),
		}));
		const body = {};
		if (data.length) body.data = data;
		if (errors.length) body.errors = errors;
		return { body };
	});

	// ---- Around one post ----
	sb.route('GET', '/2/tweets/:id/liking_users', 'user', ({ params, q }) => {
		const t = livePost(params.id);
		const ids = sb.related('like', { to: t.id });
		const users = ids.map((id) => db().users.get(id)).filter(Boolean);
		return paged(users, q, { min: 1, max: 100, fallback: 100 }, (page) => usersBody(page, q));
	});
	sb.route('GET', '/2/tweets/:id/retweeted_by', 'any', ({ params, q }) => {
		const t = livePost(params.id);
		const ids = [...(store().reposts.get(t.id) || new Map()).keys()];
		const users = ids.map((id) => db().users.get(id)).filter(Boolean);
		return paged(users, q, { min: 1, max: 100, fallback: 100 }, (page) => usersBody(page, q));
	});
	sb.route('GET', '/2/tweets/:id/retweets', 'any', ({ params, q }) => {
		const t = livePost(params.id);
		const posts = [...(store().reposts.get(t.id) || new Map()).values()]
			.map((id) => db().tweets.get(id))
			.filter((r) => r && !r.deleted);
		return paged(newestFirst(posts), q, { min: 1, max: 100, fallback: 100 }, (page) =>
			postsBody(page, q),
		);
	});
	sb.route('GET', '/2/tweets/:id/quote_tweets', 'any', ({ params, q }) => {
		const t = livePost(params.id);
		const exclude = fieldsOf(q, 'exclude');
		const posts = [...db().tweets.values()].filter(
			(x) =>
				!x.deleted &&
				(x.referenced_tweets || []).some((r) => r.type === 'quoted' && r.id === t.id) &&
				!(exclude.includes('replies') && x.in_reply_to_user_id) &&
				!(
					exclude.includes('retweets') &&
					(x.referenced_tweets || []).some((r) => r.type === 'retweeted')
				),
		);
		return paged(newestFirst(posts), q, { min: 10, max: 100, fallback: 10 }, (page) =>
			postsBody(page, q),
		);
	});
	sb.route('PUT', '/2/tweets/:id/hidden', 'user', ({ params, body, auth }) => {
		const t = livePost(params.id);
		if (!body || typeof body.hidden !== 'boolean')
			throw invalidRequest('hidden must be true or false', { hidden: [] });
		const root = db().tweets.get(String(t.conversation_id));
		// Only a reply can be hidden, and only by the author of the conversation it replies in.
		if (t.conversation_id === t.id || !t.in_reply_to_user_id)
			throw problem(403, 'about:blank', 'Forbidden', 'Only replies can be hidden.');
		if (!root || root.author_id !== auth.userId)
			throw problem(
				403,
				'about:blank',
				'Forbidden',
				'You can only hide or unhide replies to conversations you started.',
			);
		t.hidden = body.hidden;
		return { body: { data: { hidden: body.hidden } } };
	});

	// ---- Engagement insights ----
	for (const period of ['28hr', 'historical']) {
		sb.route('GET', `/2/insights/${period}`, 'user', ({ query, q, auth }) => {
			const ids = query.getAll('tweet_ids');
			const metrics = query.getAll('requested_metrics');
			if (!ids.length || ids.length > 25)
				throw invalidRequest('tweet_ids takes 1 to 25 post ids', { tweet_ids: ids });
			ids.forEach((id) => requireId(id, 'tweet_ids'));
			if (!metrics.length)
				throw invalidRequest('requested_metrics can not be empty', { requested_metrics: [] });
			const now = Date.now();
			const { start, end } =
				period === '28hr' ? { start: now - 28 * 3600e3, end: now } : windowOf(q);
			const granularity = String(q.granularity || '').toLowerCase();
			const { own, errors } = measured([...new Set(ids)], auth, 'tweet_ids');
			const valueOf = (t, metric, inside) =>
				inside && INSIGHT_METRICS[metric] ? INSIGHT_METRICS[metric](metricsOf(t)) : 0;
			const measurement =
				granularity === 'total'
					? {
							metrics_total: own.map((t) => ({
								tweet_id: t.id,
								value: metrics.map((m) => ({
									metric_type: m,
									metric_value: valueOf(t, m, countsIn(t, [start, end], true)),
								})),
							})),
						}
					: {
							metrics_time_series: own.flatMap((t) =>
								buckets(start, end, granularity).map((b, i) => ({
									tweet_id: t.id,
									value: {
										timestamp: { iso8601_time: sb.isoSeconds(new Date(b[0])) },
										metric_values: metrics.map((m) => ({
											metric_type: m,
											metric_value: valueOf(t, m, countsIn(t, b, i === 0)),
										})),
									},
								})),
							),
						};
			const engagement = {};
			const fields = fieldsOf(q, 'engagement.fields');
			if (own.length && (!fields.length || fields.includes('measurement')))
				engagement.measurement = measurement;
			if (errors.length && fields.includes('errors'))
				engagement.errors = [
					{ error: 'Not found or not your posts', tweets: errors.map((e) => e.resource_id) },
				];
			return { body: Object.keys(engagement).length ? { data: [engagement] } : { errors } };
		});
	}

	// ---- Users (before posts.js's GET /2/users/:id) ----
	sb.route('GET', '/2/users/search', 'user', ({ q }) => {
		const query = String(q.query || '');
		if (!/^[A-Za-z0-9_' ]{1,50}$/.test(query))
			throw invalidRequest("query must be 1 to 50 letters, digits, spaces, _ or '", {
				query: [query],
			});
		const words = query.toLowerCase().split(/\s+/).filter(Boolean);
		const users = [...db().users.values()]
			.filter((u) =>
				words.every(
					(w) => u.username.toLowerCase().includes(w) || u.name.toLowerCase().includes(w),
				),
			)
			.sort((a, b) => (a.id < b.id ? -1 : 1));
		return paged(users, q, { min: 1, max: 1000, fallback: 100, tokenParam: 'next_token' }, (page) =>
			usersBody(page, q),
		);
	});
	sb.route('GET', '/2/users/reposts_of_me', 'user', ({ q, auth }) => {
		const mine = (t) => t && t.author_id === auth.userId;
		const posts = [...db().tweets.values()].filter(
			(t) =>
				!t.deleted &&
				(t.referenced_tweets || []).some(
					(r) => r.type === 'retweeted' && mine(db().tweets.get(r.id)),
				),
		);
		return paged(newestFirst(posts), q, { min: 1, max: 100, fallback: 100 }, (page) =>
			postsBody(page, q),
		);
	});
	sb.route('GET', '/2/users/:id/affiliates', 'any', ({ params, q }) => {
		requireId(params.id, 'id');
		if (!db().users.has(params.id)) throw notFound('user', 'id', params.id);
		const users = (store().affiliates.get(params.id) || [])
			.map((id) => db().users.get(id))
			.filter(Boolean);
		return paged(users, q, { min: 1, max: 1000, fallback: 100 }, (page) => usersBody(page, q));
	});
	sb.route('GET', '/2/users/:id/timelines/reverse_chronological', 'user', ({ params, q, auth }) => {
		requireSelf(params.id, auth);
		const muted = new Set(sb.mutedBy(auth.userId));
		const exclude = fieldsOf(q, 'exclude');
		const since = q.start_time ? Date.parse(q.start_time) : -Infinity;
		const until = q.end_time ? Date.parse(q.end_time) : Infinity;
		for (const name of ['since_id', 'until_id'])
			if (q[name] !== undefined) requireId(q[name], name);
		// The home timeline is every post but those of muted accounts (the sandbox does not narrow it to
		// the accounts followed).
		const posts = [...db().tweets.values()].filter(
			(t) =>
				!t.deleted &&
				!muted.has(t.author_id) &&
				!(exclude.includes('replies') && t.in_reply_to_user_id) &&
				!(
					exclude.includes('retweets') &&
					(t.referenced_tweets || []).some((r) => r.type === 'retweeted')
				) &&
				Date.parse(t.created_at) >= since &&
				Date.parse(t.created_at) < until &&
				(q.since_id === undefined || BigInt(t.id) > BigInt(q.since_id)) &&
				(q.until_id === undefined || BigInt(t.id) < BigInt(q.until_id)),
		);
		return paged(newestFirst(posts), q, { min: 1, max: 100, fallback: 100 }, (page) =>
			postsBody(page, q),
		);
	});

	// ---- Bookmark folders (the OAuth 2.0 user token only: the contract says so) ----
	sb.route('GET', '/2/users/:id/bookmarks/folders', 'user', ({ params, q, auth }) => {
		requireSelf(params.id, auth);
		const folders = store().folders.get(String(auth.userId)) || [];
		return paged(folders, q, { min: 1, max: 100, fallback: 100 }, (page) => ({
			data: page.map((f) => ({ id: f.id, name: f.name })),
		}));
	});
	sb.route('GET', '/2/users/:id/bookmarks/folders/:folder_id', 'user', ({ params, auth }) => {
		requireSelf(params.id, auth);
		requireId(params.folder_id, 'folder_id');
		const folder = (store().folders.get(String(auth.userId)) || []).find(
			(f) => f.id === params.folder_id,
		);
		if (!folder) throw notFound('bookmark folder', 'folder_id', params.folder_id);
		const ids = [...folder.postIds].filter((id) => {
			const t = db().tweets.get(id);
			return t && !t.deleted;
		});
		const body = { meta: { result_count: ids.length } };
		if (ids.length) body.data = ids.map((id) => ({ id }));
		return { body };
	});

	// ---- Muting ----
	sb.route('POST', '/2/users/:id/muting', 'user', ({ params, body, auth }) => {
		requireSelf(params.id, auth);
		const target = body && body.target_user_id;
		if (!target) throw invalidRequest('target_user_id is required', { target_user_id: [] });
		requireId(target, 'target_user_id');
		if (String(target) === String(auth.userId))
			throw invalidRequest('You cannot mute yourself', { target_user_id: [String(target)] });
		if (!db().users.has(String(target))) throw notFound('user', 'target_user_id', target);
		const s = store();
		if (!s.mutes.has(auth.userId)) s.mutes.set(auth.userId, new Set());
		s.mutes.get(auth.userId).add(String(target));
		return { body: { data: { muting: true } } };
	});
	sb.route('DELETE', '/2/users/:id/muting/:target', 'user', ({ params, auth }) => {
		requireSelf(params.id, auth);
		requireId(params.target, 'target_user_id');
		const set = store().mutes.get(auth.userId);
		if (set) set.delete(params.target);
		return { body: { data: { muting: false } } };
	});
}

module.exports = { install };
