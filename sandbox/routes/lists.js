'use strict';
/**
 * Lists: create, read, update and delete a list; add and remove members; a list's members, followers
 * and posts; a user's owned, followed, pinned lists and list memberships; follow, unfollow, pin and
 * unpin. In memory and stateful: what a request changes, the next read shows.
 *
 * Who may do what, as the service says: only a list's owner changes or deletes it and adds or removes
 * its members; a private list is shown to its owner only (others get resource-not-found on a lookup,
 * the problem type the service names for a list it does not show); `:id` of the follow and pin calls
 * must be the authenticated user. Name 1-25 characters, description at most 100 (the contract's
 * limits, enforced here too so that they hold with the contract check off).
 *
 * Installed before the posts routes: its GET /2/users/:id/<lists suffix> answer from the list store
 * instead of the generic owned-reads route there.
 */
const { problem, invalidRequest, notFound, PROBLEM_BASE } = require('../lib/http');

/** The list the sandbox starts with, owned by the sandbox user (the conformance test's sample id). */
const SEEDED_LIST_ID = '1780000000000000001';
const OTHER_LIST_ID = '1780000000000000002';

function install(sb) {
	sb.seededListId = SEEDED_LIST_ID;

	/** The list store, seeded on first use after every reset (sb.reset replaces sb.db). */
	function store() {
		const db = sb.db;
		if (!db.lists) {
			const k = sb.keys;
			db.lists = new Map();
			db.pinnedLists = new Map();
			db.lists.set(SEEDED_LIST_ID, {
				id: SEEDED_LIST_ID,
				name: 'Sandbox reading',
				description: 'Accounts the sandbox user reads',
				private: false,
				owner_id: k.userId,
				created_at: '2024-01-01T00:00:00.000Z',
				members: ['1000000002'],
				followers: [],
			});
			db.lists.set(OTHER_LIST_ID, {
				id: OTHER_LIST_ID,
				name: 'Other picks',
				description: 'A public list of another account',
				private: false,
				owner_id: '1000000002',
				created_at: '2024-02-01T00:00:00.000Z',
				members: [k.userId],
				followers: [],
			});
		}
		return db;
	}

	const fieldsOf = (q, name) => (q[name] ? String(q[name]).split(',').filter(Boolean) : []);
	const chars = (s) => [...String(s)].length;

	function requireId(value, name) {
		if (!/^[0-9]{1,19}$/.test(String(value)))
			throw invalidRequest(`The \`${name}\` value [${value}] is not valid`, {
				[name]: [String(value)],
			});
	}

	function pageSize(q, min, max) {
		if (q.max_results === undefined) return 100;
		const n = Number(q.max_results);
		if (!Number.isInteger(n) || n < min || n > max)
			throw invalidRequest(
				`The \`max_results\` query parameter value [${q.max_results}] is not between ${min} and ${max}`,
				{ max_results: [String(q.max_results)] },
			);
		return n;
	}

	const visibleTo = (list, auth) => !list.private || list.owner_id === auth.userId;

	/** A list the caller may see, or the service's 404 for it. */
	function visibleList(id, auth) {
		requireId(id, 'id');
		const list = store().lists.get(id);
		if (!list || !visibleTo(list, auth)) throw notFound('list', 'id', id);
		return list;
	}

	/** A list the caller owns: others get 403. */
	function ownedList(id, auth) {
		const list = visibleList(id, auth);
		if (list.owner_id !== auth.userId)
			throw problem(
				403,
				'about:blank',
				'Forbidden',
				'You are not allowed to change a List you do not own.',
			);
		return list;
	}

	function requireSelf(id, auth) {
		if (id !== auth.userId)
			throw problem(
				403,
				'about:blank',
				'Forbidden',
				'You are not permitted to perform this action on behalf of another user.',
			);
	}

	function listView(list, q) {
		const out = { id: list.id, name: list.name };
		const all = {
			created_at: list.created_at,
			description: list.description,
			follower_count: list.followers.length,
			member_count: list.members.length,
			owner_id: list.owner_id,
			private: list.private,
		};
		for (const f of fieldsOf(q, 'list.fields')) if (all[f] !== undefined) out[f] = all[f];
		return out;
	}

	const userView = (u, q) => {
		const out = { id: u.id, name: u.name, username: u.username };
		for (const f of fieldsOf(q, 'user.fields')) if (u[f] !== undefined) out[f] = u[f];
		return out;
	};

	/** Lists with their owners in includes when expansions=owner_id. */
	function listsBody(lists, q) {
		const body = { data: lists.map((l) => listView(l, q)) };
		if (fieldsOf(q, 'expansions').includes('owner_id')) {
			const owners = [...new Set(lists.map((l) => l.owner_id))]
				.map((id) => sb.db.users.get(id))
				.filter(Boolean)
				.map((u) => userView(u, q));
			if (owners.length) body.includes = { users: owners };
		}
		return body;
	}

	function checkText(body, required) {
		if (!body || typeof body !== 'object')
			throw invalidRequest('A JSON body is required', { body: [] });
		if (body.name !== undefined || required) {
			const name = body.name;
			if (typeof name !== 'string' || chars(name) < 1 || chars(name) > 25)
				throw invalidRequest('name must be 1 to 25 characters', { name: [String(name ?? '')] });
		}
		if (body.description !== undefined) {
			if (typeof body.description !== 'string' || chars(body.description) > 100)
				throw invalidRequest('description must be at most 100 characters', {
					description: [String(body.description)],
				});
		}
		if (body.private !== undefined && typeof body.private !== 'boolean')
			throw invalidRequest('private must be a boolean', { private: [String(body.private)] });
	}

	// ---- Lists ----
	sb.route('POST', '/2/lists', 'user', ({ body, auth }) => {
		checkText(body, true);
		const id = sb.newId();
		store().lists.set(id, {
			id,
			name: body.name,
			description: body.description ?? '',
			private: body.private === true,
			owner_id: auth.userId,
			created_at: new Date().toISOString(),
			members: [],
			followers: [],
		});
		return { body: { data: { id, name: body.name } } };
	});

	sb.route('GET', '/2/lists/:id', 'any', ({ params, q, auth }) => {
		requireId(params.id, 'id');
		const list = store().lists.get(params.id);
		// A lookup answers a list it does not show with 200 and the problem in errors.
		if (!list || !visibleTo(list, auth))
			return {
				body: {
					errors: [
						{
							value: params.id,
							detail: `Could not find list with id: [${params.id}].`,
							title: 'Not Found Error',
							resource_type: 'list',
							parameter: 'id',
							resource_id: params.id,
							type: PROBLEM_BASE + 'resource-not-found',
						},
					],
				},
			};
		const body = listsBody([list], q);
		return { body: { ...body, data: body.data[0] } };
	});

	sb.route('PUT', '/2/lists/:id', 'user', ({ params, body, auth }) => {
		const list = ownedList(params.id, auth);
		checkText(body, false);
		for (const key of ['name', 'description', 'private'])
			if (body[key] !== undefined) list[key] = body[key];
		return { body: { data: { updated: true } } };
	});

	sb.route('DELETE', '/2/lists/:id', 'user', ({ params, auth }) => {
		ownedList(params.id, auth);
		const db = store();
		db.lists.delete(params.id);
		for (const [user, pinned] of db.pinnedLists)
			db.pinnedLists.set(
				user,
				pinned.filter((id) => id !== params.id),
			);
		return { body: { data: { deleted: true } } };
	});

	// ---- Members, followers, posts ----
	/**
	 * Members and followers in the order they were added (a member removed and added again goes to the
	 * end of the array), answered newest first as the service lists them.
	 */
	function usersPage(ids, q) {
		const users = [...ids]
			.reverse()
			.map((id) => sb.db.users.get(id))
			.filter(Boolean);
		const { page, next } = sb.pageOf(users, pageSize(q, 1, 100), q.pagination_token);
		const body = { meta: { result_count: page.length } };
		if (page.length) body.data = page.map((u) => userView(u, q));
		if (next) body.meta.next_token = next;
		const expansions = fieldsOf(q, 'expansions');
		const postIds = page.flatMap((u) =>
			['pinned_tweet_id', 'most_recent_tweet_id']
				.filter((f) => expansions.includes(f))
				.map((f) => u[f] || (f === 'most_recent_tweet_id' ? latestPostOf(u.id) : undefined))
				.filter(Boolean),
		);
		const tweets = [...new Set(postIds)].map((id) => sb.db.tweets.get(id)).filter(Boolean);
		if (tweets.length)
			body.includes = {
				tweets: tweets.map((t) => {
					const out = { id: t.id, text: t.text, edit_history_tweet_ids: t.edit_history_tweet_ids };
					for (const f of fieldsOf(q, 'tweet.fields')) if (t[f] !== undefined) out[f] = t[f];
					return out;
				}),
			};
		if (body.data && expansions.includes('most_recent_tweet_id'))
			for (const u of body.data) {
				const latest = latestPostOf(u.id);
				if (latest) u.most_recent_tweet_id = latest;
			}
		return { body };
	}

	function postsOf(userIds) {
		const ids = new Set(userIds);
		return [...sb.db.tweets.values()]
			.filter((t) => ids.has(t.author_id) && !t.deleted)
			.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? 1 : -1));
	}
	const latestPostOf = (userId) => postsOf([userId])[0]?.id;

	/** A list someone owns (control API), public unless `private`; `members`: user ids, oldest first. */
	sb.addList = (input = {}) => {
		const id = input.id !== undefined ? String(input.id) : sb.newId();
		requireId(id, 'id');
		const owner = String(input.owner_id || sb.keys.userId);
		if (!sb.db.users.get(owner)) throw notFound('user', 'owner_id', owner);
		const list = {
			id,
			name: String(input.name || 'A list'),
			description: String(input.description || ''),
			private: input.private === true,
			owner_id: owner,
			created_at: new Date().toISOString(),
			members: (input.members || []).map(String),
			followers: [],
		};
		sb.reserveId(id);
		store().lists.set(id, list);
		return list;
	};
	sb.route('POST', '/_sandbox/lists', 'control', ({ body }) => {
		const list = sb.addList(body || {});
		return { status: 201, body: { data: { id: list.id, name: list.name } } };
	});

	/**
	 * Someone added to a list or following it (`on`), or no longer (the control API; no owner check):
	 * added again, they are on top. Answers whether anything changed.
	 */
	sb.listRelate = (kind, listId, userId, on) => {
		const list = store().lists.get(String(listId));
		if (!list) throw notFound('list', 'id', listId);
		const key = kind === 'list_member' ? 'members' : 'followers';
		const had = list[key].includes(String(userId));
		if (on && !had) list[key].push(String(userId));
		if (!on) list[key] = list[key].filter((id) => id !== String(userId));
		return on !== had;
	};

	sb.route('GET', '/2/lists/:id/members', 'any', ({ params, q, auth }) =>
		usersPage(visibleList(params.id, auth).members, q),
	);
	sb.route('GET', '/2/lists/:id/followers', 'any', ({ params, q, auth }) =>
		usersPage(visibleList(params.id, auth).followers, q),
	);

	sb.route('GET', '/2/lists/:id/tweets', 'any', ({ params, q, auth }) => {
		const list = visibleList(params.id, auth);
		const { page, next } = sb.pageOf(
			postsOf(list.members),
			pageSize(q, 1, 100),
			q.pagination_token,
		);
		const body = page.length ? sb.postViews.withIncludes(page, q) : {};
		body.meta = { result_count: page.length };
		if (next) body.meta.next_token = next;
		return { body };
	});

	sb.route('POST', '/2/lists/:id/members', 'user', ({ params, body, auth }) => {
		const list = ownedList(params.id, auth);
		const userId = body && body.user_id;
		if (!userId) throw invalidRequest('user_id is required', { user_id: [] });
		requireId(userId, 'user_id');
		if (!sb.db.users.get(String(userId))) throw notFound('user', 'user_id', userId);
		if (!list.members.includes(String(userId))) list.members.push(String(userId));
		return { body: { data: { is_member: true } } };
	});

	sb.route('DELETE', '/2/lists/:id/members/:user_id', 'user', ({ params, auth }) => {
		const list = ownedList(params.id, auth);
		requireId(params.user_id, 'user_id');
		list.members = list.members.filter((id) => id !== params.user_id);
		return { body: { data: { is_member: false } } };
	});

	// ---- The authenticated user's follows and pins ----
	function listFromBody(body, auth) {
		const listId = body && body.list_id;
		if (!listId) throw invalidRequest('list_id is required', { list_id: [] });
		requireId(listId, 'list_id');
		return visibleList(String(listId), auth);
	}

	sb.route('POST', '/2/users/:id/followed_lists', 'user', ({ params, body, auth }) => {
		requireSelf(params.id, auth);
		const list = listFromBody(body, auth);
		if (!list.followers.includes(auth.userId)) list.followers.push(auth.userId);
		return { body: { data: { following: true } } };
	});
	sb.route('DELETE', '/2/users/:id/followed_lists/:list_id', 'user', ({ params, auth }) => {
		requireSelf(params.id, auth);
		requireId(params.list_id, 'list_id');
		const list = store().lists.get(params.list_id);
		if (list) list.followers = list.followers.filter((id) => id !== auth.userId);
		return { body: { data: { following: false } } };
	});
	sb.route('POST', '/2/users/:id/pinned_lists', 'user', ({ params, body, auth }) => {
		requireSelf(params.id, auth);
		const list = listFromBody(body, auth);
		const pinned = store().pinnedLists.get(auth.userId) || [];
		if (!pinned.includes(list.id)) pinned.push(list.id);
		store().pinnedLists.set(auth.userId, pinned);
		return { body: { data: { pinned: true } } };
	});
	sb.route('DELETE', '/2/users/:id/pinned_lists/:list_id', 'user', ({ params, auth }) => {
		requireSelf(params.id, auth);
		requireId(params.list_id, 'list_id');
		const pinned = store().pinnedLists.get(auth.userId) || [];
		store().pinnedLists.set(
			auth.userId,
			pinned.filter((id) => id !== params.list_id),
		);
		return { body: { data: { pinned: false } } };
	});

	// ---- A user's lists (owned reads) ----
	function userOf(id) {
		requireId(id, 'id');
		if (!sb.db.users.get(id)) throw notFound('user', 'id', id);
	}
	const userLists = {
		owned_lists: (id) => [...store().lists.values()].filter((l) => l.owner_id === id),
		followed_lists: (id) => [...store().lists.values()].filter((l) => l.followers.includes(id)),
		list_memberships: (id) => [...store().lists.values()].filter((l) => l.members.includes(id)),
	};
	for (const [suffix, of] of Object.entries(userLists))
		sb.route('GET', `/2/users/:id/${suffix}`, 'any', ({ params, q, auth }) => {
			userOf(params.id);
			const lists = of(params.id)
				.filter((l) => visibleTo(l, auth))
				.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? 1 : -1));
			const { page, next } = sb.pageOf(lists, pageSize(q, 1, 100), q.pagination_token);
			const body = page.length ? listsBody(page, q) : {};
			body.meta = { result_count: page.length };
			if (next) body.meta.next_token = next;
			return { body };
		});
	sb.route('GET', '/2/users/:id/pinned_lists', 'user', ({ params, q, auth }) => {
		userOf(params.id);
		requireSelf(params.id, auth);
		const lists = (store().pinnedLists.get(params.id) || [])
			.map((id) => store().lists.get(id))
			.filter(Boolean);
		const body = lists.length ? listsBody(lists, q) : {};
		body.meta = { result_count: lists.length };
		return { body };
	});
}

module.exports = { install, SEEDED_LIST_ID };
