'use strict';
/** In-memory stores and the shared helpers of the route files. */

/** What sb.relate keeps: who follows whom, who likes and who bookmarked which post. */
const RELATION_KINDS = ['follow', 'like', 'bookmark'];

function install(sb) {
	/**
	 * A relation made (`on`) or undone: `from` follows the user `to`, likes or bookmarked the post `to`.
	 * The service lists these newest first by when they were made, so each remembers its place in that
	 * order: one undone and made again comes back on top; made again while it holds keeps its place (the
	 * service changes nothing then). Answers whether anything changed.
	 */
	sb.relate = (kind, from, to, on) => {
		if (!RELATION_KINDS.includes(kind)) throw new Error(`sb.relate: unknown kind ${kind}`);
		const r = sb.db.relations;
		if (!r.byKind.has(kind)) r.byKind.set(kind, new Map());
		const made = r.byKind.get(kind);
		const key = `${from} ${to}`;
		if (on) {
			if (made.has(key)) return false;
			made.set(key, ++r.seq);
			return true;
		}
		return made.delete(key);
	};
	/**
	 * The other ends of one end's relations of a kind, newest first by when they were made:
	 * `{from}` gives whom or what `from` follows, likes or bookmarked; `{to}` who follows or likes `to`.
	 */
	sb.related = (kind, { from, to }) => {
		const made = sb.db.relations.byKind.get(kind) || new Map();
		const out = [];
		for (const [key, seq] of made) {
			const [a, b] = key.split(' ');
			if (from !== undefined && a === String(from)) out.push([b, seq]);
			if (to !== undefined && b === String(to)) out.push([a, seq]);
		}
		return out.sort((x, y) => y[1] - x[1]).map(([id]) => id);
	};
	sb.relationKinds = RELATION_KINDS;

	sb.reset = () => {
		const k = sb.keys;
		sb.db = {
			users: new Map([
				[
					k.userId,
					{
						id: k.userId,
						name: 'Sandbox User',
						username: k.username,
						created_at: '2020-01-01T00:00:00.000Z',
						description: 'The sandbox account',
						location: 'Localhost',
						profile_image_url: 'https://pbs.sandbox.local/profile.png',
						protected: false,
						verified: false,
						verified_type: 'none',
						public_metrics: {
							followers_count: 42,
							following_count: 7,
							tweet_count: 0,
							listed_count: 1,
						},
					},
				],
				[
					'1000000002',
					{
						id: '1000000002',
						name: 'Other Person',
						username: 'other_person',
						created_at: '2021-05-05T00:00:00.000Z',
						description: '',
						protected: false,
						verified: true,
						verified_type: 'blue',
						public_metrics: {
							followers_count: 1000,
							following_count: 10,
							tweet_count: 5,
							listed_count: 0,
						},
					},
				],
			]),
			tweets: new Map(),
			media: new Map(),
			webhooks: new Map(),
			subscriptions: new Map(),
			/** Account Activity: webhook id -> Set of subscribed user ids. */
			accountSubscriptions: new Map(),
			/** Every event ever emitted, with its raw body and the webhooks it was for (the replay source). */
			events: [],
			deliveries: [],
			crcChecks: [],
			replayJobs: [],
			streamRules: new Map(),
			streamLinks: new Map(),
			notes: [],
			dmEvents: [],
			/**
			 * What a user does that can be undone and done again (see sb.relate): kind -> Map(`from to` ->
			 * the order it was made in).
			 */
			relations: { seq: 0, byKind: new Map() },
			ads: {
				accounts: new Map([
					[k.adsAccountId, { id: k.adsAccountId, name: 'Sandbox Ads Account', user_id: k.userId }],
				]),
				catalogs: new Map(),
				products: new Map(), // catalogId -> Map(itemId -> product)
				productSets: new Map(),
				feeds: new Map(),
				cards: new Map(),
				pollCards: new Map(),
				vcCards: new Map(),
				icCards: new Map(),
				accountMedia: new Map(),
				mediaLibrary: new Map(),
				drafts: new Map(),
				scheduled: new Map(),
				prerollCtas: new Map(),
				adTweets: new Map(),
			},
		};
		sb.records = [];
		sb.faults = { latencyMs: 0, rules: [] };
		if (sb.rateWindows) sb.rateWindows.clear();
		// The two seeded accounts follow each other.
		sb.relate('follow', k.userId, '1000000002', true);
		sb.relate('follow', '1000000002', k.userId, true);
		const ts = '2026-01-01T00:00:00Z';
		sb.db.ads.accountMedia.set('am0001', {
			id: 'am0001',
			video_id: null,
			media_url: 'https://pbs.sandbox.local/banner.png',
			creative_type: 'BANNER',
			created_at: ts,
			updated_at: ts,
			deleted: false,
		});
		sb.db.ads.accountMedia.set('am0002', {
			id: 'am0002',
			video_id: '13_1700000000000000001',
			media_url: null,
			creative_type: 'PREROLL',
			created_at: ts,
			updated_at: ts,
			deleted: false,
		});
	};
	sb.reset();

	/** Offset cursors: opaque strings, null at the end. */
	sb.pageOf = (list, count, cursor) => {
		const start = cursor
			? Number(Buffer.from(String(cursor), 'base64url').toString('utf8').replace(/^o:/, '')) || 0
			: 0;
		const page = list.slice(start, start + count);
		// 16 to 19 characters: within every pagination token schema of the contract (PaginationToken32
		// needs at least 16, PaginationTokenLong at most 19).
		const next =
			start + count < list.length
				? Buffer.from(`o:${String(start + count).padStart(10, '0')}`).toString('base64url')
				: null;
		return { page, next };
	};
	sb.isoSeconds = (d = new Date()) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
	sb.isoMillis = (d = new Date()) => d.toISOString();
	sb.ymdhm = (d) => d.toISOString().replace(/[-T:]/g, '').slice(0, 12);
	sb.parseYmdhm = (s) =>
		new Date(
			Date.UTC(
				+s.slice(0, 4),
				+s.slice(4, 6) - 1,
				+s.slice(6, 8),
				+s.slice(8, 10),
				+s.slice(10, 12),
			),
		);
}

module.exports = { install };
