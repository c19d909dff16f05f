'use strict';
/** Posts, users, search and counts, owned reads, engagement, news, notes, connections, OAuth (direct messages: dm.js). */
const crypto = require('node:crypto');
const {
	HttpError,
	problem,
	invalidRequest,
	notFound,
	legacyError,
	PROBLEM_BASE,
} = require('../lib/http');

const REPLY_SETTINGS = ['following', 'mentionedUsers', 'subscribers', 'verified'];

function install(sb) {
	const db = () => sb.db;

	function fieldsOf(q, name) {
		return q[name] ? String(q[name]).split(',').filter(Boolean) : [];
	}

	function postView(t, q) {
		const out = { id: t.id, text: t.text, edit_history_tweet_ids: t.edit_history_tweet_ids };
		for (const f of fieldsOf(q, 'tweet.fields')) if (t[f] !== undefined) out[f] = t[f];
		return out;
	}

	function userView(u, q) {
		const out = { id: u.id, name: u.name, username: u.username };
		for (const f of fieldsOf(q, 'user.fields')) if (u[f] !== undefined) out[f] = u[f];
		return out;
	}

	function withIncludes(posts, q) {
		const body = { data: posts.map((t) => postView(t, q)) };
		const expansions = fieldsOf(q, 'expansions');
		const includes = {};
		if (expansions.includes('attachments.media_keys')) {
			const keys = new Set(posts.flatMap((t) => (t.attachments && t.attachments.media_keys) || []));
			const media = [...db().media.values()]
				.filter((m) => keys.has(m.media_key))
				.map((m) => mediaView(m, q));
			if (media.length) includes.media = media;
		}
		if (expansions.includes('author_id')) {
			const ids = new Set(posts.map((t) => t.author_id));
			const users = [...ids]
				.map((id) => db().users.get(id))
				.filter(Boolean)
				.map((u) => userView(u, q));
			if (users.length) includes.users = users;
		}
		if (Object.keys(includes).length) body.includes = includes;
		return body;
	}

	// The list routes answer a list's posts in the same shape.
	sb.postViews = { withIncludes };

	function mediaView(m, q) {
		const out = { media_key: m.media_key, type: m.type };
		const fields = fieldsOf(q, 'media.fields');
		const all = {
			width: m.width,
			height: m.height,
			duration_ms: m.duration_ms,
			alt_text: m.alt_text,
			preview_image_url: m.preview_image_url,
			public_metrics: { view_count: 0 },
			url: m.url,
		};
		for (const f of fields) if (all[f] !== undefined) out[f] = all[f];
		return out;
	}

	function requireId(value, name) {
		if (!/^[0-9]{1,19}$/.test(String(value)))
			throw invalidRequest(`The \`${name}\` query parameter value [${value}] is not valid`, {
				[name]: [String(value)],
			});
	}

	/** since_id / until_id: ids only, and only where the endpoint takes them; newest-first lists are cut to the window. */
	function idWindow(list, q, allowed) {
		for (const name of ['since_id', 'until_id']) {
			if (q[name] === undefined) continue;
			if (!allowed)
				throw invalidRequest(
					`The query parameter [${name}] is not one of the parameters this endpoint takes`,
					{ [name]: [String(q[name])] },
				);
			requireId(q[name], name);
		}
		const num = (id) => BigInt(id);
		return list.filter(
			(t) =>
				(q.since_id === undefined || num(t.id) > num(q.since_id)) &&
				(q.until_id === undefined || num(t.id) < num(q.until_id)),
		);
	}

	/** A post published by someone (control API): stored like a created post, so search and timelines find it. */
	sb.publishPost = (input = {}) => {
		const text = String(input.text || '').trim();
		if (!text) throw invalidRequest('text is required', { text: [] });
		const authorId = String(input.author_id || sb.keys.userId);
		if (!db().users.get(authorId)) throw notFound('user', 'author_id', authorId);
		const id = sb.newId();
		const post = {
			id,
			text,
			author_id: authorId,
			created_at: new Date().toISOString(),
			conversation_id: id,
			lang: 'en',
			possibly_sensitive: false,
			public_metrics: {
				retweet_count: 0,
				reply_count: 0,
				like_count: 0,
				quote_count: 0,
				impression_count: 0,
				bookmark_count: 0,
			},
			edit_history_tweet_ids: [id],
		};
		db().tweets.set(id, post);
		return postView(post, { 'tweet.fields': 'author_id,created_at' });
	};

	// ---- Create / edit / delete ----
	/**
	 * Whether a post's author summoned a user (mentioned the account or quoted its post), which the
	 * service's self-serve tiers need before a programmatic reply to it.
	 */
	function summoned(target, userId) {
		const user = db().users.get(userId);
		const mentions = ((target.entities && target.entities.mentions) || []).map((m) =>
			String(m.username || '').toLowerCase(),
		);
		if (user) {
			const name = String(user.username).toLowerCase();
			if (mentions.includes(name)) return true;
			if (new RegExp(`(^|[^A-Za-z0-9_])@${name}(?![A-Za-z0-9_])`, 'i').test(target.text || ''))
				return true;
		}
		return (target.referenced_tweets || []).some(
			(r) => r.type === 'quoted' && (db().tweets.get(String(r.id)) || {}).author_id === userId,
		);
	}

	function createPost({ body, auth }) {
		const b = body || {};
		if (typeof b !== 'object' || Array.isArray(b))
			throw invalidRequest('The body must be a JSON object', {});
		const allowed = [
			'text',
			'media',
			'reply',
			'quote_tweet_id',
			'poll',
			'reply_settings',
			'card_uri',
			'community_id',
			'share_with_followers',
			'paid_partnership',
			'edit_options',
			'for_super_followers_only',
			'direct_message_deep_link',
			'geo',
			'nullcast',
			'made_with_ai',
		];
		const unknown = Object.keys(b).filter((k) => !allowed.includes(k));
		if (unknown.length)
			throw invalidRequest(
				`The query parameters [${unknown.join(', ')}] are not one of [${allowed.join(',')}]`,
				Object.fromEntries(unknown.map((k) => [k, []])),
			);
		const exclusive = ['media', 'poll', 'quote_tweet_id', 'card_uri'].filter(
			(k) => b[k] !== undefined,
		);
		if (exclusive.length > 1)
			throw invalidRequest(
				`${exclusive.join(' and ')} are mutually exclusive`,
				Object.fromEntries(exclusive.map((k) => [k, []])),
			);
		if (b.text !== undefined && typeof b.text !== 'string')
			throw invalidRequest('text must be a string', { text: [] });
		const text = b.text || '';
		if (!text && !b.media)
			throw invalidRequest('Post text is required unless media is attached', { text: [] });
		if ([...text].length > 25000)
			throw invalidRequest('Post text is longer than 25,000 characters', { text: [] });
		let mediaKeys;
		const userIds = (value, name) => {
			if (
				!Array.isArray(value) ||
				value.length < 1 ||
				value.some((x) => !/^\d{1,19}$/.test(String(x)))
			)
				throw invalidRequest(`${name} must be a list of user ids`, { [name]: [] });
		};
		if (b.media) {
			const extra = Object.keys(b.media).filter(
				(k) => !['media_ids', 'tagged_user_ids'].includes(k),
			);
			if (extra.length)
				throw invalidRequest(
					`media takes media_ids and tagged_user_ids, not ${extra.join(', ')}`,
					Object.fromEntries(extra.map((k) => [`media.${k}`, []])),
				);
			if (b.media.tagged_user_ids !== undefined)
				userIds(b.media.tagged_user_ids, 'media.tagged_user_ids');
			const ids = b.media.media_ids;
			if (!Array.isArray(ids) || ids.length < 1 || ids.length > 4)
				throw invalidRequest('media.media_ids must hold 1 to 4 ids', { 'media.media_ids': [] });
			mediaKeys = [];
			for (const id of ids) {
				const m = db().media.get(String(id));
				if (!m)
					throw invalidRequest(`Your media IDs are invalid: ${id}`, {
						'media.media_ids': [String(id)],
					});
				if (m.state !== 'succeeded')
					throw invalidRequest(
						`Media ${id} is not ready (state ${m.state}); finalize the upload and wait for processing`,
						{ 'media.media_ids': [String(id)] },
					);
				mediaKeys.push(m.media_key);
			}
			const types = ids.map((id) => db().media.get(String(id)).type);
			if (ids.length > 1 && types.some((t) => t !== 'photo'))
				throw invalidRequest('Up to 4 images, or 1 GIF, or 1 video per post', {
					'media.media_ids': ids.map(String),
				});
		}
		if (b.poll) {
			const o = b.poll.options;
			if (
				!Array.isArray(o) ||
				o.length < 2 ||
				o.length > 4 ||
				o.some((x) => typeof x !== 'string' || x.length < 1 || x.length > 25)
			)
				throw invalidRequest('poll.options must hold 2 to 4 options of 1 to 25 characters', {
					'poll.options': [],
				});
			const d = Number(b.poll.duration_minutes);
			if (!Number.isInteger(d) || d < 5 || d > 10080)
				throw invalidRequest('poll.duration_minutes must be 5 to 10080', {
					'poll.duration_minutes': [String(b.poll.duration_minutes)],
				});
		}
		if (b.reply_settings !== undefined && !REPLY_SETTINGS.includes(b.reply_settings))
			throw invalidRequest(`reply_settings must be one of ${REPLY_SETTINGS.join(', ')}`, {
				reply_settings: [String(b.reply_settings)],
			});
		if (b.reply) {
			const extra = Object.keys(b.reply).filter(
				(k) => !['in_reply_to_tweet_id', 'exclude_reply_user_ids'].includes(k),
			);
			if (extra.length)
				throw invalidRequest(
					`reply takes in_reply_to_tweet_id and exclude_reply_user_ids, not ${extra.join(', ')}`,
					Object.fromEntries(extra.map((k) => [`reply.${k}`, []])),
				);
			if (b.reply.exclude_reply_user_ids !== undefined)
				userIds(b.reply.exclude_reply_user_ids, 'reply.exclude_reply_user_ids');
			requireId(b.reply.in_reply_to_tweet_id, 'reply.in_reply_to_tweet_id');
			if (!db().tweets.has(String(b.reply.in_reply_to_tweet_id)))
				throw notFound('tweet', 'reply.in_reply_to_tweet_id', b.reply.in_reply_to_tweet_id);
		}
		if (b.quote_tweet_id !== undefined) {
			requireId(b.quote_tweet_id, 'quote_tweet_id');
			if (!db().tweets.has(String(b.quote_tweet_id)))
				throw notFound('tweet', 'quote_tweet_id', b.quote_tweet_id);
		}
		if (b.card_uri !== undefined && !/^card:\/\/[0-9]+$/.test(String(b.card_uri)))
			throw invalidRequest('card_uri must look like card://<digits>', {
				card_uri: [String(b.card_uri)],
			});
		if (b.share_with_followers !== undefined && !b.community_id)
			throw invalidRequest('share_with_followers needs community_id', { share_with_followers: [] });
		const userId = auth.userId || sb.keys.userId;
		if (b.reply && !b.edit_options && sb.options.tier !== 'enterprise') {
			const target = db().tweets.get(String(b.reply.in_reply_to_tweet_id));
			if (target.author_id !== userId && !summoned(target, userId))
				throw problem(
					403,
					'about:blank',
					'Forbidden',
					'Reply to this conversation is not allowed because you have not been mentioned or otherwise engaged by the author of the post you are replying to.',
				);
		}
		let previous;
		if (b.edit_options) {
			const prev = String(b.edit_options.previous_post_id || '');
			requireId(prev, 'edit_options.previous_post_id');
			previous = db().tweets.get(prev);
			if (!previous) throw notFound('tweet', 'edit_options.previous_post_id', prev);
			if (previous.author_id !== userId)
				throw problem(403, 'about:blank', 'Forbidden', 'You can only edit your own posts.');
			if (Date.now() - new Date(previous.created_at).getTime() > 3600 * 1000)
				throw problem(
					403,
					'about:blank',
					'Forbidden',
					'Posts can be edited within 1 hour of creation only.',
				);
		} else if (
			text &&
			[...db().tweets.values()].some((t) => t.author_id === userId && t.text === text && !t.deleted)
		) {
			throw problem(
				403,
				'about:blank',
				'Forbidden',
				'You are not allowed to create a Tweet with duplicate content.',
			);
		}
		const id = sb.newId();
		const post = {
			id,
			text,
			author_id: userId,
			created_at: new Date().toISOString(),
			conversation_id: b.reply ? String(b.reply.in_reply_to_tweet_id) : id,
			lang: 'en',
			possibly_sensitive: false,
			public_metrics: {
				retweet_count: 0,
				reply_count: 0,
				like_count: 0,
				quote_count: 0,
				impression_count: 0,
				bookmark_count: 0,
			},
			edit_history_tweet_ids: previous ? [...previous.edit_history_tweet_ids, id] : [id],
			request: b,
		};
		if (mediaKeys) post.attachments = { media_keys: mediaKeys };
		if (b.poll) post.attachments = { poll_ids: [sb.newId()] };
		if (b.reply)
			post.in_reply_to_user_id = (
				db().tweets.get(String(b.reply.in_reply_to_tweet_id)) || {}
			).author_id;
		// The service names the post replied to in referenced_tweets (type replied_to) as well.
		const references = [];
		if (b.reply) references.push({ type: 'replied_to', id: String(b.reply.in_reply_to_tweet_id) });
		if (b.quote_tweet_id) references.push({ type: 'quoted', id: String(b.quote_tweet_id) });
		if (references.length) post.referenced_tweets = references;
		if (b.card_uri) post.card_uri = b.card_uri;
		if (b.community_id) post.community_id = String(b.community_id);
		if (b.paid_partnership !== undefined) post.paid_partnership = !!b.paid_partnership;
		if (b.reply_settings) post.reply_settings = b.reply_settings;
		db().tweets.set(id, post);
		const user = db().users.get(userId);
		if (user) user.public_metrics.tweet_count++;
		if (sb.options.emitOnCreate)
			sb.later(10, () =>
				sb.emit({
					event_type: 'post.create',
					user_id: userId,
					payload: postView(post, { 'tweet.fields': 'author_id,created_at,lang,attachments' }),
				}),
			);
		return {
			status: 201,
			body: { data: { id, text, edit_history_tweet_ids: post.edit_history_tweet_ids } },
		};
	}
	sb.route('POST', '/2/tweets', 'user', createPost);
	sb.route('POST', '/2/posts', 'user', createPost);

	sb.route('DELETE', '/2/tweets/:id', 'user', ({ params, auth }) => {
		requireId(params.id, 'id');
		const t = db().tweets.get(params.id);
		if (!t || t.deleted) throw notFound('tweet', 'id', params.id);
		if (t.author_id !== auth.userId)
			throw problem(
				403,
				'about:blank',
				'Forbidden',
				'You are not allowed to delete a Tweet that is not yours.',
			);
		t.deleted = true;
		return { body: { data: { deleted: true } } };
	});

	// ---- Lookup ----
	sb.route('GET', '/2/tweets', 'any', ({ q }) => {
		if (!q.ids) throw invalidRequest('The `ids` query parameter can not be empty', { ids: [] });
		const ids = q.ids.split(',');
		if (ids.length > 100) throw invalidRequest('`ids` takes at most 100 ids', { ids: [q.ids] });
		ids.forEach((id) => requireId(id, 'ids'));
		const found = ids.map((id) => db().tweets.get(id)).filter((t) => t && !t.deleted);
		const body = withIncludes(found, q);
		const missing = ids.filter((id) => !found.some((t) => t.id === id));
		if (missing.length)
			body.errors = missing.map((id) => ({
				value: id,
				detail: `Could not find tweet with ids: [${id}].`,
				title: 'Not Found Error',
				resource_type: 'tweet',
				parameter: 'ids',
				resource_id: id,
				type: PROBLEM_BASE + 'resource-not-found',
			}));
		if (!found.length) delete body.data;
		return { body };
	});
	sb.route('GET', '/2/tweets/:id', 'any', ({ params, q }) => {
		requireId(params.id, 'id');
		const t = db().tweets.get(params.id);
		if (!t || t.deleted) throw notFound('tweet', 'id', params.id);
		const body = withIncludes([t], q);
		body.data = body.data[0];
		return { body };
	});

	// ---- Search and counts ----
	function matches(t, query) {
		const terms = String(query)
			.toLowerCase()
			.split(/\s+/)
			.filter((x) => x && !x.includes(':') && !x.startsWith('-'));
		const text = t.text.toLowerCase();
		return terms.every((term) => text.includes(term.replace(/^["#]|"$/g, '')));
	}
	function searchable(q, all) {
		if (!q.query)
			throw invalidRequest('The `query` query parameter can not be empty', { query: [] });
		const maxLen = all ? 1024 : 512;
		if (q.query.length > maxLen)
			throw invalidRequest(`query must be at most ${maxLen} characters`, { query: [q.query] });
		return [...db().tweets.values()]
			.filter((t) => !t.deleted && matches(t, q.query))
			.sort((a, b) => (a.id < b.id ? 1 : -1));
	}
	const SEARCH_DAYS_MS = 7 * 86_400_000;
	/**
	 * Recent search reaches the last 7 days: a start_time or a since_id (an id holds the time it was
	 * made) older than that is refused, and what is older is never answered. start_time is inclusive
	 * and end_time exclusive, to the second.
	 */
	function recentWindow(posts, q) {
		const oldest = Date.now() - SEARCH_DAYS_MS;
		const second = (ms) => Math.floor(ms / 1000) * 1000;
		const timeOf = (name) => {
			if (q[name] === undefined) return undefined;
			const at = Date.parse(String(q[name]));
			if (!/^\d{4}-\d{2}-\d{2}T/.test(String(q[name])) || Number.isNaN(at))
				throw invalidRequest(`Invalid '${name}':'${q[name]}'. '${name}' must be a date and time`, {
					[name]: [String(q[name])],
				});
			if (at < second(oldest))
				throw invalidRequest(
					`Invalid '${name}':'${q[name]}'. '${name}' must be on or after ${new Date(second(oldest)).toISOString()}`,
					{ [name]: [String(q[name])] },
				);
			return at;
		};
		const start = timeOf('start_time');
		const end = timeOf('end_time');
		if (q.since_id !== undefined && sb.idTime(q.since_id) < oldest)
			throw invalidRequest(
				`Invalid 'since_id':'${q.since_id}'. 'since_id' must be a post id created after ${new Date(oldest).toISOString()}`,
				{ since_id: [String(q.since_id)] },
			);
		return posts.filter((t) => {
			const at = Date.parse(t.created_at);
			return (
				at >= oldest && (start === undefined || at >= start) && (end === undefined || at < end)
			);
		});
	}
	for (const which of ['recent', 'all']) {
		sb.route('GET', `/2/tweets/search/${which}`, 'any', ({ q }) => {
			const max = q.max_results === undefined ? 10 : Number(q.max_results);
			const hi = which === 'all' ? 500 : 100;
			if (!Number.isInteger(max) || max < 10 || max > hi)
				throw invalidRequest(
					`The \`max_results\` query parameter value [${q.max_results}] is not between 10 and ${hi}`,
					{ max_results: [String(q.max_results)] },
				);
			if (q.pagination_token !== undefined)
				throw invalidRequest(
					'Search pages with next_token: [pagination_token] is not one of the parameters this endpoint takes',
					{ pagination_token: [q.pagination_token] },
				);
			if (q.sort_order && !['recency', 'relevancy'].includes(q.sort_order))
				throw invalidRequest('sort_order must be recency or relevancy', {
					sort_order: [q.sort_order],
				});
			const found = idWindow(searchable(q, which === 'all'), q, true);
			const { page, next } = sb.pageOf(
				which === 'recent' ? recentWindow(found, q) : found,
				max,
				q.next_token,
			);
			const body = withIncludes(page, q);
			body.meta = { result_count: page.length };
			if (page.length)
				Object.assign(body.meta, { newest_id: page[0].id, oldest_id: page[page.length - 1].id });
			if (next) body.meta.next_token = next;
			if (!page.length) delete body.data;
			return { body };
		});
		sb.route('GET', `/2/tweets/counts/${which}`, 'app', ({ q }) => {
			const posts = searchable(q, which === 'all');
			const granularity = q.granularity || 'hour';
			if (!['minute', 'hour', 'day'].includes(granularity))
				throw invalidRequest('granularity must be minute, hour or day', {
					granularity: [granularity],
				});
			const ms = { minute: 60e3, hour: 3600e3, day: 86400e3 }[granularity];
			const end = Math.ceil(Date.now() / ms) * ms;
			const buckets = [];
			for (let i = 6; i >= 1; i--) {
				const s = end - i * ms;
				buckets.push({
					start: new Date(s).toISOString(),
					end: new Date(s + ms).toISOString(),
					tweet_count: posts.filter(
						(t) => +new Date(t.created_at) >= s && +new Date(t.created_at) < s + ms,
					).length,
				});
			}
			return {
				body: {
					data: buckets,
					meta: { total_tweet_count: buckets.reduce((a, b) => a + b.tweet_count, 0) },
				},
			};
		});
	}

	// ---- Users ----
	const getUser = (id) => {
		const u = db().users.get(String(id));
		if (!u) throw notFound('user', 'id', id);
		return u;
	};
	sb.route('GET', '/2/users/me', 'user', ({ auth, q }) => ({
		body: { data: userView(getUser(auth.userId), q) },
	}));
	sb.route('GET', '/2/users/by/username/:username', 'any', ({ params, q }) => {
		if (!/^[A-Za-z0-9_]{1,15}$/.test(params.username))
			throw invalidRequest('username is not valid', { username: [params.username] });
		const u = [...db().users.values()].find(
			(x) => x.username.toLowerCase() === params.username.toLowerCase(),
		);
		if (!u) throw notFound('user', 'username', params.username);
		return { body: { data: userView(u, q) } };
	});
	function usersList(values, key, q) {
		if (values.length < 1 || values.length > 100)
			throw invalidRequest(`${key} takes 1 to 100 values`, { [key]: [] });
		const data = [];
		const errors = [];
		for (const v of values) {
			const u =
				key === 'ids'
					? db().users.get(v)
					: [...db().users.values()].find((x) => x.username.toLowerCase() === v.toLowerCase());
			if (u) data.push(userView(u, q));
			else
				errors.push({
					value: v,
					detail: `Could not find user with ${key}: [${v}].`,
					title: 'Not Found Error',
					resource_type: 'user',
					parameter: key,
					resource_id: v,
					type: PROBLEM_BASE + 'resource-not-found',
				});
		}
		const body = {};
		if (data.length) body.data = data;
		if (errors.length) body.errors = errors;
		return { body };
	}
	sb.route('GET', '/2/users/by', 'any', ({ q }) =>
		usersList(
			String(q.usernames || '')
				.split(',')
				.filter(Boolean),
			'usernames',
			q,
		),
	);
	sb.route('GET', '/2/users', 'any', ({ q }) =>
		usersList(
			String(q.ids || '')
				.split(',')
				.filter(Boolean),
			'ids',
			q,
		),
	);
	sb.route('GET', '/2/users/:id', 'any', ({ params, q }) => {
		requireId(params.id, 'id');
		return { body: { data: userView(getUser(params.id), q) } };
	});

	// Owned reads: timelines come from the store, the rest are empty lists with the right envelope.
	const OWNED = {
		tweets: [5, 100],
		mentions: [5, 100],
		liked_tweets: [5, 100],
		bookmarks: [1, 100],
		followers: [1, 1000],
		following: [1, 1000],
		blocking: [1, 1000],
		muting: [1, 1000],
		owned_lists: [1, 100],
		followed_lists: [1, 100],
		list_memberships: [1, 100],
		pinned_lists: [0, 0],
	};
	sb.route('GET', '/2/users/:id/:suffix', 'any', ({ params, q, auth }) => {
		const range = OWNED[params.suffix];
		if (!range)
			throw problem(404, 'about:blank', 'Not Found', `No route GET /2/users/:id/${params.suffix}`);
		requireId(params.id, 'id');
		getUser(params.id);
		if (q.next_token !== undefined)
			throw invalidRequest(
				'Timelines page with pagination_token: [next_token] is not one of the parameters this endpoint takes',
				{ next_token: [q.next_token] },
			);
		if (['bookmarks', 'blocking', 'muting'].includes(params.suffix) && auth.userId !== params.id)
			throw problem(
				403,
				'about:blank',
				'Forbidden',
				'You can only read your own bookmarks, blocks and mutes.',
			);
		if (q.max_results !== undefined) {
			const n = Number(q.max_results);
			if (!Number.isInteger(n) || n < range[0] || n > range[1])
				throw invalidRequest(
					`The \`max_results\` query parameter value [${q.max_results}] is not between ${range[0]} and ${range[1]}`,
					{ max_results: [q.max_results] },
				);
		}
		let list = [];
		if (params.suffix === 'tweets')
			list = [...db().tweets.values()].filter((t) => t.author_id === params.id && !t.deleted);
		if (params.suffix === 'mentions')
			list = [...db().tweets.values()].filter(
				(t) => !t.deleted && t.text.includes('@' + getUser(params.id).username),
			);
		if (params.suffix === 'muting' && sb.mutedBy) list = sb.mutedBy(params.id).map(getUser);
		const isPosts = ['tweets', 'mentions', 'liked_tweets', 'bookmarks'].includes(params.suffix);
		// Followers, followed accounts, likes and bookmarks: newest first by when each was made (a
		// follower who unfollowed and followed again is on top), as the service lists them.
		const related = {
			followers: () => sb.related('follow', { to: params.id }).map((id) => db().users.get(id)),
			following: () => sb.related('follow', { from: params.id }).map((id) => db().users.get(id)),
			liked_tweets: () => sb.related('like', { from: params.id }).map((id) => db().tweets.get(id)),
			bookmarks: () => sb.related('bookmark', { from: params.id }).map((id) => db().tweets.get(id)),
		}[params.suffix];
		if (related) list = related().filter((x) => x && !x.deleted);
		else list.sort((a, b) => (a.id < b.id ? 1 : -1));
		list = idWindow(list, q, ['tweets', 'mentions'].includes(params.suffix));
		const { page, next } = sb.pageOf(list, Number(q.max_results || 10), q.pagination_token);
		const body = isPosts ? withIncludes(page, q) : { data: page.map((u) => userView(u, q)) };
		body.meta = { result_count: page.length };
		if (next) body.meta.next_token = next;
		if (!page.length) delete body.data;
		return { body };
	});

	// ---- Engagement ----
	const engage =
		(field, value, bodyKey) =>
		({ params, body, auth }) => {
			if (params.id !== auth.userId)
				throw problem(
					403,
					'about:blank',
					'Forbidden',
					'You are not permitted to perform this action on behalf of another user.',
				);
			if (bodyKey) {
				const v = body && body[bodyKey];
				if (!v) throw invalidRequest(`${bodyKey} is required`, { [bodyKey]: [] });
				requireId(v, bodyKey);
			}
			// routes/postsMore.js keeps who liked, reposted and bookmarked what.
			if (sb.onEngagement)
				sb.onEngagement(field, value, auth.userId, bodyKey ? body[bodyKey] : params.tweet_id);
			return { body: { data: { [field]: value } } };
		};
	sb.route('POST', '/2/users/:id/likes', 'user', engage('liked', true, 'tweet_id'));
	sb.route('DELETE', '/2/users/:id/likes/:tweet_id', 'user', engage('liked', false));
	sb.route('POST', '/2/users/:id/retweets', 'user', engage('retweeted', true, 'tweet_id'));
	sb.route('DELETE', '/2/users/:id/retweets/:tweet_id', 'user', engage('retweeted', false));
	sb.route('POST', '/2/users/:id/bookmarks', 'user', engage('bookmarked', true, 'tweet_id'));
	sb.route('DELETE', '/2/users/:id/bookmarks/:tweet_id', 'user', engage('bookmarked', false));
	sb.route('POST', '/2/users/:id/following', 'user', (ctx) => {
		engage('following', true, 'target_user_id')(ctx);
		sb.relate('follow', ctx.auth.userId, String(ctx.body.target_user_id), true);
		return { body: { data: { following: true, pending_follow: false } } };
	});
	sb.route('DELETE', '/2/users/:id/following/:target', 'user', (ctx) => {
		const answer = engage('following', false)(ctx);
		sb.relate('follow', ctx.auth.userId, ctx.params.target, false);
		return answer;
	});

	// ---- News ----
	const NEWS = [
		{
			id: '1850000000000000001',
			name: 'Sandbox launches a local API',
			summary: 'A local test double for the platform API is now available.',
			hook: 'Local first',
			category: 'Technology',
			keywords: ['sandbox', 'api'],
			contexts: {},
			last_updated_at_ms: new Date().toISOString(),
			cluster_posts_results: [],
		},
		{
			id: '1850000000000000002',
			name: 'Automation weekly',
			summary: 'Workflows keep getting faster.',
			hook: 'Faster',
			category: 'Business',
			keywords: ['automation', 'n8n'],
			contexts: {},
			last_updated_at_ms: new Date().toISOString(),
			cluster_posts_results: [],
		},
	];
	// A story as the contract's News has it: its id is `rest_id`, and the `updated_at` field asked
	// for comes back as `last_updated_at_ms` (a date-time).
	const newsView = (n, q) => {
		const out = { rest_id: n.id };
		const fields = fieldsOf(q, 'news.fields');
		for (const f of fields.length ? fields : ['name']) {
			const name = f === 'updated_at' ? 'last_updated_at_ms' : f;
			if (n[name] !== undefined) out[name] = n[name];
		}
		return out;
	};
	sb.route('GET', '/2/news/search', 'any', ({ q }) => {
		if (!q.query || q.query.length > 2048)
			throw invalidRequest('query must be 1 to 2048 characters', {
				query: [String(q.query || '')],
			});
		const terms = q.query.toLowerCase().split(/\s+/);
		const data = NEWS.filter((n) =>
			terms.some((t) => JSON.stringify(n).toLowerCase().includes(t)),
		).map((n) => newsView(n, q));
		return {
			body: data.length
				? { data, meta: { result_count: data.length } }
				: { meta: { result_count: 0 } },
		};
	});
	sb.route('GET', '/2/news/:id', 'any', ({ params, q }) => {
		const n = NEWS.find((x) => x.id === params.id);
		if (!n) throw notFound('news', 'id', params.id);
		return { body: { data: newsView(n, q) } };
	});

	// ---- Community notes ----
	sb.route('GET', '/2/notes/search/posts_eligible_for_notes', 'user', ({ q }) => {
		if (q.test_mode !== 'true')
			throw invalidRequest('test_mode must currently be true', {
				test_mode: [String(q.test_mode)],
			});
		const list = [...db().tweets.values()].filter((t) => !t.deleted);
		const { page, next } = sb.pageOf(list, Number(q.max_results || 10), q.pagination_token);
		const body = withIncludes(page, q);
		body.meta = { result_count: page.length };
		if (next) body.meta.next_token = next;
		return { body };
	});
	sb.route('GET', '/2/notes/search/notes_written', 'user', ({ q }) => {
		if (q.test_mode !== 'true')
			throw invalidRequest('test_mode must currently be true', {
				test_mode: [String(q.test_mode)],
			});
		const { page, next } = sb.pageOf(db().notes, Number(q.max_results || 10), q.pagination_token);
		const meta = { result_count: page.length };
		if (next) meta.next_token = next;
		// The contract's Note: id, post_id and the required `note_info`; the note.fields asked for
		// (info, status, test_result) beside them. Without any note, `data` is left out.
		const fields = fieldsOf(q, 'note.fields');
		const view = (n) => {
			const out = { id: n.id, post_id: n.post_id, note_info: n.info };
			for (const f of fields) if (f !== 'id' && n[f] !== undefined) out[f] = n[f];
			return out;
		};
		return { body: page.length ? { data: page.map(view), meta } : { meta } };
	});
	sb.route('POST', '/2/notes', 'user', ({ body, auth }) => {
		const b = body || {};
		if (b.test_mode !== true)
			throw invalidRequest('test_mode must currently be true', { test_mode: [] });
		requireId(b.post_id, 'post_id');
		const info = b.info || {};
		if (!/https?:\/\//.test(String(info.text || '')))
			throw invalidRequest('info.text must contain an http(s) URL', { 'info.text': [] });
		if (!['misinformed_or_potentially_misleading', 'not_misleading'].includes(info.classification))
			throw invalidRequest('info.classification is not valid', {
				'info.classification': [String(info.classification)],
			});
		// Every note carries the list; a note saying the post is misleading names at least one reason.
		if (!Array.isArray(info.misleading_tags))
			throw invalidRequest('info.misleading_tags is required', { 'info.misleading_tags': [] });
		if (
			info.classification === 'misinformed_or_potentially_misleading' &&
			!info.misleading_tags.length
		)
			throw invalidRequest(
				'info.misleading_tags needs at least one tag when the post is misinformed_or_potentially_misleading',
				{ 'info.misleading_tags': [] },
			);
		if (db().notes.some((n) => n.post_id === String(b.post_id) && n.author === auth.userId))
			throw problem(
				403,
				'about:blank',
				'Forbidden',
				'You have already written a note on this post.',
			);
		const note = {
			id: sb.newId(),
			post_id: String(b.post_id),
			info,
			status: 'needs_more_ratings',
			test_result: {},
			author: auth.userId,
		};
		db().notes.push(note);
		return { body: { data: { id: note.id } } };
	});
	const evaluate = ({ body }) => {
		const b = body || {};
		if (!b.note_text || !b.post_id) throw invalidRequest('note_text and post_id are required', {});
		return { body: { data: { claim_opinion_score: 0.42 } } };
	};
	sb.route('POST', '/2/evaluate_note', 'user', evaluate);
	sb.route('POST', '/2/notes/evaluate', 'user', evaluate);

	// ---- Streaming connections ----
	// The sandbox keeps no streaming connections: the contract's answer leaves `data` out.
	sb.route('GET', '/2/connections', 'app', () => ({
		body: { meta: { result_count: 0 } },
	}));
	const kill = () => ({ body: { data: { successful_kills: 0, failed_kills: 0, results: [] } } });
	sb.route('DELETE', '/2/connections/all', 'app', kill);
	sb.route('DELETE', '/2/connections/:endpoint', 'app', kill);
	sb.route('DELETE', '/2/connections', 'app', ({ body }) => {
		const uuids = (body && body.uuids) || [];
		if (!Array.isArray(uuids) || uuids.length < 1 || uuids.length > 100)
			throw invalidRequest('uuids must hold 1 to 100 values', { uuids: [] });
		return {
			body: {
				data: {
					successful_kills: 0,
					failed_kills: uuids.length,
					results: uuids.map((uuid) => ({
						uuid,
						success: false,
						error_message: 'connection not found',
					})),
				},
			},
		};
	});

	// ---- OAuth ----
	sb.route('POST', '/oauth2/token', 'basic', ({ body, bodyKind }) => {
		if (bodyKind !== 'form' || !body || body.grant_type !== 'client_credentials')
			throw legacyError(
				403,
				99,
				'Missing required parameter: grant_type (only client_credentials)',
			);
		// One bearer token per app: the same one until it is invalidated, then a new one.
		if (!sb.bearers[sb.keys.bearerToken]) {
			sb.keys.bearerToken = 'sandbox-app-bearer-' + crypto.randomBytes(8).toString('hex');
			sb.bearers[sb.keys.bearerToken] = { kind: 'app' };
		}
		return { body: { token_type: 'bearer', access_token: sb.keys.bearerToken } };
	});
	// Revoking the app bearer token: OAuth 1.0a signed with the app's keys and the app owner's access
	// token; `access_token` is a form parameter, so it is part of the verified signature base string.
	sb.route('POST', '/oauth2/invalidate_token', 'user', ({ auth, body, bodyKind }) => {
		if (auth.kind !== 'oauth1')
			throw problem(
				403,
				'unsupported-authentication',
				'Unsupported Authentication',
				'Authenticating with OAuth 2.0 is forbidden for this endpoint.  Supported authentication types are [OAuth 1.0a User Context].',
			);
		if (auth.userId !== sb.keys.userId)
			throw legacyError(
				403,
				220,
				'Your credentials do not allow access to this resource (only the app owner may invalidate the app token).',
			);
		if (bodyKind !== 'form' || !body || !body.access_token)
			throw legacyError(400, 38, 'access_token parameter is missing (a form body is expected).');
		const token = String(body.access_token);
		if (!sb.bearers[token] || sb.bearers[token].kind !== 'app')
			throw legacyError(401, 89, 'Invalid or expired token.');
		delete sb.bearers[token];
		return { body: { access_token: token } };
	});
	// Revoking a user's OAuth 2.0 token: a form body naming the token, the app's client id in it (or
	// Basic authentication); a token already gone is answered the same way (RFC 7009).
	sb.route('POST', '/2/oauth2/revoke', 'none', ({ body, bodyKind, req }) => {
		if (bodyKind !== 'form' || !body || !body.token)
			throw invalidRequest('token: the token to revoke, in a form body', { token: [''] });
		if (!body.client_id && !/^Basic\s/i.test(req.headers.authorization || ''))
			throw problem(
				401,
				'about:blank',
				'Unauthorized',
				'client_id or Basic authentication is required',
			);
		const token = String(body.token);
		if (sb.bearers[token] && sb.bearers[token].kind === 'user') delete sb.bearers[token];
		return { body: { revoked: true } };
	});
	sb.route('POST', '/oauth/request_token', 'none', () => {
		const token = 'rt-' + crypto.randomBytes(8).toString('hex');
		return {
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: `oauth_token=${token}&oauth_token_secret=${crypto.randomBytes(8).toString('hex')}&oauth_callback_confirmed=true`,
		};
	});
	sb.route('POST', '/oauth/access_token', 'none', ({ q, body }) => {
		const verifier = q.oauth_verifier || (body && body.oauth_verifier);
		if (!verifier) throw legacyError(401, 89, 'Invalid request token.');
		return {
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: `oauth_token=${sb.keys.accessToken}&oauth_token_secret=${sb.keys.accessTokenSecret}&user_id=${sb.keys.userId}&screen_name=${sb.keys.username}`,
		};
	});
	sb.route('POST', '/1.1/oauth/invalidate_token', 'user', ({ req }) => {
		const parsed =
			require('../lib/oauth1').parseAuthorizationHeader(req.headers.authorization || '') || {};
		const token = parsed.oauth_token;
		if (token) delete sb.tokens[token];
		return { body: { access_token: token } };
	});
	sb.route('POST', '/1.1/oauth/invalidate_token.json', 'user', ({ req }) => {
		const parsed =
			require('../lib/oauth1').parseAuthorizationHeader(req.headers.authorization || '') || {};
		if (parsed.oauth_token) delete sb.tokens[parsed.oauth_token];
		return { body: { access_token: parsed.oauth_token } };
	});

	sb.postView = postView;
	sb.HttpError = HttpError;
}

module.exports = { install };
