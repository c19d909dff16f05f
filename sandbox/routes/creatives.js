'use strict';
/**
 * Advertising interface, creatives: account media, cards (component-based, poll,
 * video and image conversation), media library, preroll call-to-actions, draft and scheduled posts, posts.
 */
const { adsError } = require('../lib/http');

const CARD_TYPES = [
	'IMAGE_APP',
	'IMAGE_CAROUSEL_APP',
	'IMAGE_CAROUSEL_WEBSITE',
	'IMAGE_MULTI_DEST_CAROUSEL_WEBSITE',
	'IMAGE_WEBSITE',
	'MIXED_MEDIA_MULTI_DEST_CAROUSEL_WEBSITE',
	'MIXED_MEDIA_SINGLE_DEST_CAROUSEL_APP',
	'MIXED_MEDIA_SINGLE_DEST_CAROUSEL_WEBSITE',
	'VIDEO_APP',
	'VIDEO_CAROUSEL_APP',
	'VIDEO_CAROUSEL_WEBSITE',
	'VIDEO_MULTI_DEST_CAROUSEL_WEBSITE',
	'VIDEO_WEBSITE',
];
const LABELS = ['BOOK', 'CONNECT', 'INSTALL', 'OPEN', 'ORDER', 'PLAY', 'SHOP'];
const CTAS = ['GO_TO', 'SEE_MORE', 'SHOP', 'VISIT_SITE', 'WATCH_NOW'];
const CREATIVE_TYPES = [
	'BANNER',
	'BANNER_TABLET',
	'INTERSTITIAL',
	'INTERSTITIAL_LANDSCAPE',
	'INTERSTITIAL_LANDSCAPE_TABLET',
	'INTERSTITIAL_TABLET',
	'MEDIUM_RECTANGLE',
	'PREROLL',
	'VAST_PREROLL',
];
const SAMPLE_IMAGE_KEY = '3_1700000000000000001';
const SAMPLE_VIDEO_KEY = '13_1700000000000000002';

function install(sb) {
	const ads = () => sb.db.ads;
	const missing = (name) =>
		adsError(400, 'MISSING_PARAMETER', `"${name}" is a required parameter`, name);
	const invalid = (name, message, value) =>
		adsError(400, 'INVALID_PARAMETER', message, name, value);
	const ts = () => sb.isoSeconds();
	let cardUriSeq = 1700000000000000000n;
	const cardUri = () => `card://${(cardUriSeq += 7n)}`;

	// Sample media in the account's media library (and in the upload store) for cards and posts.
	const seed = () => {
		const lib = ads().mediaLibrary;
		if (lib.size) return;
		const t = '2026-01-01T00:00:00Z';
		lib.set(SAMPLE_IMAGE_KEY, {
			media_key: SAMPLE_IMAGE_KEY,
			media_type: 'IMAGE',
			media_category: 'TWEET_IMAGE',
			media_status: 'TRANSCODE_COMPLETED',
			media_url: 'https://pbs.sandbox.local/media/sample.png',
			name: 'Sample image',
			file_name: 'sample.png',
			title: null,
			description: null,
			poster_media_url: null,
			poster_media_key: null,
			duration: null,
			aspect_ratio: '1.91:1',
			tweeted: false,
			created_at: t,
			updated_at: t,
			deleted: false,
		});
		lib.set(SAMPLE_VIDEO_KEY, {
			media_key: SAMPLE_VIDEO_KEY,
			media_type: 'VIDEO',
			media_category: 'AMPLIFY_VIDEO',
			media_status: 'TRANSCODE_COMPLETED',
			media_url: 'https://video.sandbox.local/sample.mp4',
			name: 'Sample video',
			file_name: 'sample.mp4',
			title: 'Sample',
			description: null,
			poster_media_url: 'https://pbs.sandbox.local/media/poster.jpg',
			poster_media_key: '3_1700000000000000003',
			duration: 15000,
			aspect_ratio: '16:9',
			tweeted: false,
			created_at: t,
			updated_at: t,
			deleted: false,
		});
	};
	const origReset = sb.reset;
	sb.reset = () => {
		origReset();
		seed();
	};
	seed();

	function account(ctx) {
		const a = ads().accounts.get(ctx.params.account);
		if (!a)
			throw adsError(
				404,
				'NOT_FOUND',
				`Account ${ctx.params.account} not found`,
				'account_id',
				ctx.params.account,
			);
		if (a.user_id !== ctx.auth.userId)
			throw adsError(
				403,
				'UNAUTHORIZED_ACCESS',
				'The authenticated user is not associated with this account',
				'account_id',
				ctx.params.account,
			);
		return a;
	}
	const bool = (v) => v === true || v === 'true';
	const p = (ctx) => sb.adsParams(ctx);
	const A = '/12/accounts/:account';

	/**
	 * Lists with count / cursor / with_deleted / with_total_count / sort_by. `totalCount: false` for the
	 * endpoints whose parameters do not include with_total_count (cards, media library, drafts,
	 * scheduled posts): they refuse it.
	 */
	function list(ctx, items, dflt, max, { totalCount = true } = {}) {
		const q = ctx.q;
		if (!totalCount && q.with_total_count !== undefined)
			throw invalid('with_total_count', 'with_total_count is not a parameter of this endpoint');
		if (q.with_total_count !== undefined && !['true', 'false'].includes(String(q.with_total_count)))
			throw invalid('with_total_count', 'with_total_count must be true or false');
		if (bool(q.with_total_count) && q.cursor)
			throw invalid('with_total_count', 'with_total_count is exclusive with cursor');
		let rows = items.filter((x) => bool(q.with_deleted) || !x.deleted);
		if (q.sort_by) {
			const [field, dir] = String(q.sort_by).split('-');
			rows = rows
				.slice()
				.sort(
					(a, b) =>
						(String(a[field]) < String(b[field])
							? -1
							: String(a[field]) > String(b[field])
								? 1
								: 0) * (dir === 'desc' ? -1 : 1),
				);
		}
		const { page, next } = sb.pageOf(rows, sb.adsCount(q, dflt, max), q.cursor);
		const extra = { next_cursor: next };
		if (bool(q.with_total_count)) extra.total_count = rows.length;
		return sb.adsEnvelope(ctx, page, extra);
	}
	function idList(value, name) {
		if (value === undefined) return undefined;
		const ids = String(value).split(',').filter(Boolean);
		if (ids.length > 200) throw invalid(name, `${name} takes at most 200 values`);
		return ids;
	}
	function get(map, id, what, ctx) {
		const x = map.get(id);
		// An object of another ad account is not found through this one.
		const elsewhere = x && x.account_id !== undefined && x.account_id !== ctx.params.account;
		if (!x || elsewhere || (x.deleted && !bool(ctx.q.with_deleted)))
			throw adsError(
				404,
				'NOT_FOUND',
				`${what} ${id} not found`,
				`${what.toLowerCase().replace(/ /g, '_')}_id`,
				id,
			);
		return x;
	}
	const softDelete = (x) => Object.assign(x, { deleted: true, updated_at: ts() });
	const inAccount = (map, ctx) =>
		[...map.values()].filter((x) => x.account_id === ctx.params.account);
	const strip = (x) => {
		const out = Object.assign({}, x);
		delete out.account_id;
		return out;
	};
	function knownMediaKey(key) {
		if (!/^[0-9]+_[0-9]+$/.test(String(key))) return false;
		return (
			ads().mediaLibrary.has(String(key)) ||
			[...sb.db.media.values()].some((m) => m.media_key === String(key) && m.state === 'succeeded')
		);
	}

	// ---- Ad accounts ----
	const accountView = (a) => ({
		id: a.id,
		name: a.name,
		business_name: null,
		timezone: 'Etc/UTC',
		currency: 'USD',
		approval_status: 'ACCEPTED',
		deleted: false,
		created_at: '2026-01-01T00:00:00Z',
		updated_at: '2026-01-01T00:00:00Z',
	});
	sb.route('GET', '/12/accounts', 'ads', (ctx) => {
		let rows = [...ads().accounts.values()]
			.filter((a) => a.user_id === ctx.auth.userId)
			.map(accountView);
		if (ctx.q.q)
			rows = rows.filter((a) => a.name.toLowerCase().startsWith(String(ctx.q.q).toLowerCase()));
		return list(ctx, rows, 200, 1000);
	});
	sb.route('GET', '/12/accounts/:account', 'ads', (ctx) =>
		sb.adsEnvelope(ctx, accountView(account(ctx))),
	);

	// ---- Account media ----
	sb.route('GET', `${A}/account_media`, 'ads', (ctx) => {
		account(ctx);
		let rows = [...ads().accountMedia.values()];
		const ids = idList(ctx.q.account_media_ids, 'account_media_ids');
		if (ids) rows = rows.filter((r) => ids.includes(r.id));
		if (ctx.q.creative_types) {
			const types = ctx.q.creative_types.split(',');
			for (const t of types)
				if (!CREATIVE_TYPES.includes(t))
					throw invalid(
						'creative_types',
						`creative_types must be among ${CREATIVE_TYPES.join(', ')}`,
						t,
					);
			rows = rows.filter((r) => types.includes(r.creative_type));
		}
		return list(ctx, rows, 200, 1000);
	});
	sb.route(
		'GET',
		`${A}/account_media/:id`,
		'ads',
		(ctx) => (
			account(ctx),
			sb.adsEnvelope(ctx, get(ads().accountMedia, ctx.params.id, 'Account media', ctx))
		),
	);
	sb.route(
		'DELETE',
		`${A}/account_media/:id`,
		'ads',
		(ctx) => (
			account(ctx),
			sb.adsEnvelope(ctx, softDelete(get(ads().accountMedia, ctx.params.id, 'Account media', ctx)))
		),
	);

	// ---- Cards (component-based) ----
	function validateDestination(d, where) {
		if (!d || typeof d !== 'object') throw missing(`${where}.destination`);
		if (d.type === 'WEBSITE') {
			if (!d.url) throw missing(`${where}.destination.url`);
			if (!/^https?:\/\//.test(String(d.url)))
				throw invalid(`${where}.destination.url`, 'url must be an http(s) URL', d.url);
			return 'WEBSITE';
		}
		if (d.type === 'APP') {
			if (!d.country_code || !/^[A-Z]{2}$/.test(String(d.country_code)))
				throw invalid(
					`${where}.destination.country_code`,
					'country_code must be ISO 3166-1 alpha-2',
					d.country_code,
				);
			if (!d.partneraplay_app_id && !d.partnerb_app_store_identifier)
				throw missing(`${where}.destination.partneraplay_app_id or partnerb_app_store_identifier`);
			if (d.partneraplay_deep_link && !d.partneraplay_app_id)
				throw invalid(
					`${where}.destination.partneraplay_deep_link`,
					'partneraplay_deep_link needs partneraplay_app_id',
				);
			if (d.partnerb_deep_link && !d.partnerb_app_store_identifier)
				throw invalid(
					`${where}.destination.partnerb_deep_link`,
					'partnerb_deep_link needs partnerb_app_store_identifier',
				);
			return 'APP';
		}
		throw invalid(`${where}.destination.type`, 'destination type must be WEBSITE or APP', d.type);
	}
	/** Returns the card_type a component list implies. */
	function validateComponents(components, where = 'components') {
		if (!Array.isArray(components) || !components.length) throw missing(where);
		let media = null;
		let dest = null;
		let mediaKinds = [];
		components.forEach((c, i) => {
			const at = `${where}[${i}]`;
			if (!c || typeof c !== 'object') throw invalid(at, 'a component must be an object');
			switch (c.type) {
				case 'MEDIA':
					if (!c.media_key) throw missing(`${at}.media_key`);
					if (!knownMediaKey(c.media_key))
						throw invalid(
							`${at}.media_key`,
							`media_key ${c.media_key} is not in the account's media library`,
							c.media_key,
						);
					media = 'single';
					mediaKinds = [c.media_key];
					break;
				case 'SWIPEABLE_MEDIA':
					if (!Array.isArray(c.media_keys) || c.media_keys.length < 2 || c.media_keys.length > 6)
						throw invalid(
							`${at}.media_keys`,
							'SWIPEABLE_MEDIA takes 2 to 6 media keys',
							c.media_keys,
						);
					for (const k of c.media_keys)
						if (!knownMediaKey(k))
							throw invalid(
								`${at}.media_keys`,
								`media_key ${k} is not in the account's media library`,
								k,
							);
					media = 'carousel';
					mediaKinds = c.media_keys;
					break;
				case 'DETAILS':
					if (!c.title) throw missing(`${at}.title`);
					if (validateDestination(c.destination, at) !== 'WEBSITE')
						throw invalid(`${at}.destination.type`, 'DETAILS takes a WEBSITE destination only');
					if (c.label) throw invalid(`${at}.label`, 'label is for BUTTON components only');
					dest = 'WEBSITE';
					break;
				case 'BUTTON':
					if (!c.label || c.label.type !== 'ENUM' || !LABELS.includes(c.label.value))
						throw invalid(
							`${at}.label`,
							`label must be {type: ENUM, value: one of ${LABELS.join(', ')}}`,
							c.label,
						);
					if (validateDestination(c.destination, at) !== 'APP')
						throw invalid(`${at}.destination.type`, 'BUTTON takes an APP destination only');
					dest = 'APP';
					break;
				default:
					throw invalid(
						`${at}.type`,
						'component type must be MEDIA, SWIPEABLE_MEDIA, DETAILS or BUTTON',
						c.type,
					);
			}
		});
		if (!media) throw invalid(where, 'a card needs one MEDIA or SWIPEABLE_MEDIA component');
		if (!dest) throw invalid(where, 'a card needs a DETAILS or a BUTTON component');
		const isVideo = (k) => String(k).startsWith('13_') || String(k).startsWith('7_');
		const kind = mediaKinds.every(isVideo)
			? 'VIDEO'
			: mediaKinds.some(isVideo)
				? 'MIXED_MEDIA'
				: 'IMAGE';
		if (media === 'single') return `${kind === 'VIDEO' ? 'VIDEO' : 'IMAGE'}_${dest}`;
		return kind === 'MIXED_MEDIA'
			? `MIXED_MEDIA_SINGLE_DEST_CAROUSEL_${dest}`
			: `${kind}_CAROUSEL_${dest}`;
	}
	function validateCardBody(b, partial) {
		if (!partial && !b.name) throw missing('name');
		if (b.name !== undefined && String(b.name).length > 80)
			throw invalid('name', 'name is at most 80 characters', b.name);
		if (b.components !== undefined && b.slides !== undefined)
			throw invalid('components', 'send components or slides, not both');
		if (!partial && b.components === undefined && b.slides === undefined)
			throw missing('components');
		if (b.components !== undefined) return validateComponents(b.components);
		if (b.slides !== undefined) {
			if (!Array.isArray(b.slides) || b.slides.length < 2)
				throw invalid('slides', 'slides must be an array of at least 2 slides');
			const types = b.slides.map((s, i) => validateComponents(s, `slides[${i}]`));
			return types.every((t) => t.startsWith('VIDEO'))
				? 'VIDEO_MULTI_DEST_CAROUSEL_WEBSITE'
				: types.every((t) => t.startsWith('IMAGE'))
					? 'IMAGE_MULTI_DEST_CAROUSEL_WEBSITE'
					: 'MIXED_MEDIA_MULTI_DEST_CAROUSEL_WEBSITE';
		}
		return undefined;
	}
	const cardView = (c) => {
		const out = {
			name: c.name,
			id: c.id,
			card_uri: c.card_uri,
			card_type: c.card_type,
			created_at: c.created_at,
			updated_at: c.updated_at,
			deleted: c.deleted,
		};
		if (c.components) out.components = c.components;
		if (c.slides) out.slides = c.slides;
		return out;
	};
	const allCards = (ctx) => [
		...inAccount(ads().cards, ctx),
		...inAccount(ads().pollCards, ctx),
		...inAccount(ads().vcCards, ctx),
		...inAccount(ads().icCards, ctx),
	];

	// Specific card paths first.
	sb.route('GET', `${A}/cards/all`, 'ads', (ctx) => {
		account(ctx);
		const uris = idList(ctx.q.card_uris, 'card_uris');
		if (!uris || !uris.length) throw missing('card_uris');
		const rows = allCards(ctx).filter(
			(c) => uris.includes(c.card_uri) && (bool(ctx.q.with_deleted) || !c.deleted),
		);
		return sb.adsEnvelope(ctx, rows.map(strip), { next_cursor: null });
	});
	sb.route('GET', `${A}/cards/all/:id`, 'ads', (ctx) => {
		account(ctx);
		const c = allCards(ctx).find(
			(x) => x.id === ctx.params.id && (bool(ctx.q.with_deleted) || !x.deleted),
		);
		if (!c)
			throw adsError(404, 'NOT_FOUND', `Card ${ctx.params.id} not found`, 'card_id', ctx.params.id);
		return sb.adsEnvelope(ctx, strip(c));
	});

	// ---- Image conversation cards ----
	// The service documents only their delete (soft: the answer carries deleted true); the other
	// endpoints and fields follow the video conversation card, with an image in place of the video.
	const IC_FIELDS = [
		'name',
		'media_key',
		'title',
		'first_cta',
		'first_cta_tweet',
		'second_cta',
		'second_cta_tweet',
		'third_cta',
		'third_cta_tweet',
		'fourth_cta',
		'fourth_cta_tweet',
		'thank_you_text',
		'thank_you_url',
		'unlocked_image_media_key',
	];
	function libraryImage(key) {
		const k = String(key);
		const item = ads().mediaLibrary.get(k);
		if (item) return item.media_type === 'IMAGE' && !item.deleted ? item : null;
		const up = [...sb.db.media.values()].find((m) => m.media_key === k && m.state === 'succeeded');
		return up && up.type === 'photo' ? { media_url: up.url } : null;
	}
	function validateIc(b, partial) {
		if (!partial)
			for (const f of ['first_cta', 'first_cta_tweet', 'media_key', 'name', 'thank_you_text'])
				if (!b[f]) throw missing(f);
		if (b.name !== undefined && (!String(b.name) || String(b.name).length > 80))
			throw invalid('name', 'name is 1 to 80 characters', b.name);
		for (const f of ['first_cta', 'second_cta', 'third_cta', 'fourth_cta'])
			if (b[f] !== undefined && String(b[f]).replace(/^#/, '').length > 20)
				throw invalid(f, `${f} is at most 20 characters, not counting the #`, b[f]);
		for (const f of ['title', 'thank_you_text'])
			if (b[f] !== undefined && String(b[f]).length > 23)
				throw invalid(f, `${f} is at most 23 characters`, b[f]);
		if (!partial && !b.title && !b.second_cta)
			throw invalid('title', 'title is required when second_cta is unset');
		for (const n of ['second', 'third', 'fourth'])
			if (b[`${n}_cta`] && !b[`${n}_cta_tweet`]) throw missing(`${n}_cta_tweet`);
		for (const f of ['media_key', 'unlocked_image_media_key'])
			if (b[f] !== undefined && !libraryImage(b[f]))
				throw invalid(f, `${f} must be an image in the account's media library`, b[f]);
		if (b.thank_you_url !== undefined && !/^https?:\/\//.test(String(b.thank_you_url)))
			throw invalid('thank_you_url', 'thank_you_url must be a URL', b.thank_you_url);
	}
	const icView = (c) => {
		const out = { id: c.id };
		for (const f of IC_FIELDS)
			if (c[f] !== undefined && f !== 'unlocked_image_media_key') out[f] = c[f];
		return Object.assign(out, {
			media_url: c.media_url,
			card_uri: c.card_uri,
			card_type: 'IMAGE_CONVERSATION',
			created_at: c.created_at,
			updated_at: c.updated_at,
			deleted: c.deleted,
		});
	};
	sb.route('GET', `${A}/cards/image_conversation`, 'ads', (ctx) => {
		account(ctx);
		let rows = inAccount(ads().icCards, ctx).map(icView);
		const ids = idList(ctx.q.card_ids, 'card_ids');
		if (ids) rows = rows.filter((r) => ids.includes(r.id));
		if (ctx.q.q !== undefined) {
			if (String(ctx.q.q).length > 80) throw invalid('q', 'q is at most 80 characters', ctx.q.q);
			rows = rows.filter((r) => r.name.toLowerCase().startsWith(String(ctx.q.q).toLowerCase()));
		}
		return list(ctx, rows, 200, 1000);
	});
	sb.route(
		'GET',
		`${A}/cards/image_conversation/:id`,
		'ads',
		(ctx) => (
			account(ctx),
			sb.adsEnvelope(ctx, icView(get(ads().icCards, ctx.params.id, 'Card', ctx)))
		),
	);
	sb.route('POST', `${A}/cards/image_conversation`, 'ads', (ctx) => {
		account(ctx);
		const b = p(ctx);
		validateIc(b, false);
		const card = { account_id: ctx.params.account, id: sb.shortId('i') };
		for (const f of IC_FIELDS) if (b[f] !== undefined) card[f] = String(b[f]);
		Object.assign(card, {
			media_url: libraryImage(b.media_key).media_url,
			card_uri: cardUri(),
			card_type: 'IMAGE_CONVERSATION',
			created_at: ts(),
			updated_at: ts(),
			deleted: false,
		});
		ads().icCards.set(card.id, card);
		return Object.assign({ status: 201 }, sb.adsEnvelope(ctx, icView(card)));
	});
	sb.route('PUT', `${A}/cards/image_conversation/:id`, 'ads', (ctx) => {
		account(ctx);
		const c = get(ads().icCards, ctx.params.id, 'Card', ctx);
		const b = p(ctx);
		validateIc(b, true);
		for (const f of IC_FIELDS) if (b[f] !== undefined) c[f] = String(b[f]);
		if (b.media_key !== undefined) c.media_url = libraryImage(b.media_key).media_url;
		c.updated_at = ts();
		return sb.adsEnvelope(ctx, icView(c));
	});
	sb.route('DELETE', `${A}/cards/image_conversation/:id`, 'ads', (ctx) => {
		account(ctx);
		const c = softDelete(get(ads().icCards, ctx.params.id, 'Card', ctx));
		const { name, id, created_at, updated_at, deleted } = c;
		return sb.adsEnvelope(ctx, {
			name,
			id,
			created_at,
			updated_at,
			deleted,
			card_type: 'IMAGE_CONVERSATION',
		});
	});

	// ---- Poll cards ----
	sb.route('GET', `${A}/cards/poll`, 'ads', (ctx) => {
		account(ctx);
		let rows = inAccount(ads().pollCards, ctx).map(strip);
		const ids = idList(ctx.q.card_ids, 'card_ids');
		if (ids) rows = rows.filter((r) => ids.includes(r.id));
		if (ctx.q.q) rows = rows.filter((r) => r.name.toLowerCase().startsWith(ctx.q.q.toLowerCase()));
		return list(ctx, rows, 200, 1000);
	});
	sb.route(
		'GET',
		`${A}/cards/poll/:id`,
		'ads',
		(ctx) => (
			account(ctx),
			sb.adsEnvelope(ctx, strip(get(ads().pollCards, ctx.params.id, 'Card', ctx)))
		),
	);
	sb.route('POST', `${A}/cards/poll`, 'ads', (ctx) => {
		account(ctx);
		const b = p(ctx);
		if (!b.name) throw missing('name');
		const d = Number(b.duration_in_minutes);
		if (b.duration_in_minutes === undefined) throw missing('duration_in_minutes');
		if (!Number.isInteger(d) || d < 5 || d > 10080)
			throw invalid(
				'duration_in_minutes',
				'duration_in_minutes must be 5 to 10080',
				b.duration_in_minutes,
			);
		for (const f of ['first_choice', 'second_choice']) if (!b[f]) throw missing(f);
		for (const f of ['first_choice', 'second_choice', 'third_choice', 'fourth_choice'])
			if (b[f] !== undefined && String(b[f]).length > 25)
				throw invalid(f, `${f} is at most 25 characters`, b[f]);
		if (b.fourth_choice && !b.third_choice)
			throw invalid('fourth_choice', 'fourth_choice requires third_choice');
		if (b.media_key && !knownMediaKey(b.media_key))
			throw invalid('media_key', 'media_key is not in the media library', b.media_key);
		const now = new Date();
		const card = {
			account_id: ctx.params.account,
			id: sb.shortId('p'),
			name: String(b.name),
			first_choice: b.first_choice,
			second_choice: b.second_choice,
			start_time: sb.isoSeconds(now),
			end_time: sb.isoSeconds(new Date(now.getTime() + d * 60000)),
			duration_in_minutes: String(d),
			card_uri: cardUri(),
			card_type: b.media_key
				? String(b.media_key).startsWith('13_')
					? 'VIDEO_POLLS'
					: 'IMAGE_POLLS'
				: 'TEXT_POLLS',
			created_at: ts(),
			updated_at: ts(),
			deleted: false,
		};
		if (b.third_choice) card.third_choice = b.third_choice;
		if (b.fourth_choice) card.fourth_choice = b.fourth_choice;
		ads().pollCards.set(card.id, card);
		return Object.assign({ status: 201 }, sb.adsEnvelope(ctx, strip(card)));
	});
	sb.route('DELETE', `${A}/cards/poll/:id`, 'ads', (ctx) => {
		account(ctx);
		const c = get(ads().pollCards, ctx.params.id, 'Card', ctx);
		ads().pollCards.delete(c.id);
		return sb.adsEnvelope(ctx, Object.assign(strip(c), { deleted: true }));
	});

	// ---- Video conversation cards ----
	function validateVc(b, partial) {
		if (!partial)
			for (const f of ['first_cta', 'first_cta_tweet', 'media_key', 'name', 'thank_you_text'])
				if (!b[f]) throw missing(f);
		const cta = (f) =>
			b[f] !== undefined &&
			String(b[f]).replace(/^#/, '').length > 20 &&
			(() => {
				throw invalid(f, `${f} is at most 20 characters`, b[f]);
			})();
		['first_cta', 'second_cta', 'third_cta', 'fourth_cta'].forEach(cta);
		for (const f of ['title', 'thank_you_text'])
			if (b[f] !== undefined && String(b[f]).length > 23)
				throw invalid(f, `${f} is at most 23 characters`, b[f]);
		if (!partial && !b.title && !b.second_cta)
			throw invalid('title', 'title is required when second_cta is unset');
		for (const n of ['second', 'third', 'fourth'])
			if (b[`${n}_cta`] && !b[`${n}_cta_tweet`]) throw missing(`${n}_cta_tweet`);
		if (b.media_key && !knownMediaKey(b.media_key))
			throw invalid('media_key', 'media_key must be a video in the media library', b.media_key);
	}
	sb.route('GET', `${A}/cards/video_conversation`, 'ads', (ctx) => {
		account(ctx);
		let rows = inAccount(ads().vcCards, ctx).map(strip);
		const ids = idList(ctx.q.card_ids, 'card_ids');
		if (ids) rows = rows.filter((r) => ids.includes(r.id));
		return list(ctx, rows, 200, 1000);
	});
	sb.route(
		'GET',
		`${A}/cards/video_conversation/:id`,
		'ads',
		(ctx) => (
			account(ctx),
			sb.adsEnvelope(ctx, strip(get(ads().vcCards, ctx.params.id, 'Card', ctx)))
		),
	);
	sb.route('POST', `${A}/cards/video_conversation`, 'ads', (ctx) => {
		account(ctx);
		const b = p(ctx);
		validateVc(b, false);
		const card = Object.assign({ account_id: ctx.params.account, id: sb.shortId('v') }, b, {
			media_url: 'https://video.sandbox.local/sample.mp4',
			card_uri: cardUri(),
			card_type: 'VIDEO_CONVERSATION',
			created_at: ts(),
			updated_at: ts(),
			deleted: false,
		});
		ads().vcCards.set(card.id, card);
		return Object.assign({ status: 201 }, sb.adsEnvelope(ctx, strip(card)));
	});
	sb.route('PUT', `${A}/cards/video_conversation/:id`, 'ads', (ctx) => {
		account(ctx);
		const c = get(ads().vcCards, ctx.params.id, 'Card', ctx);
		const b = p(ctx);
		validateVc(b, true);
		Object.assign(c, b, { updated_at: ts() });
		return sb.adsEnvelope(ctx, strip(c));
	});
	sb.route('DELETE', `${A}/cards/video_conversation/:id`, 'ads', (ctx) => {
		account(ctx);
		const c = get(ads().vcCards, ctx.params.id, 'Card', ctx);
		ads().vcCards.delete(c.id);
		return sb.adsEnvelope(ctx, Object.assign(strip(c), { deleted: true }));
	});

	// ---- Component cards ----
	sb.route('GET', `${A}/cards`, 'ads', (ctx) => {
		account(ctx);
		let rows = inAccount(ads().cards, ctx).map(cardView);
		if (ctx.q.card_types) {
			const types = ctx.q.card_types.split(',');
			for (const t of types)
				if (!CARD_TYPES.includes(t)) throw invalid('card_types', 'unknown card type', t);
			rows = rows.filter((r) => types.includes(r.card_type));
		}
		const ids = idList(ctx.q.card_id, 'card_id');
		if (ids) rows = rows.filter((r) => ids.includes(r.id));
		const uris = idList(ctx.q.card_uris, 'card_uris');
		if (uris) rows = rows.filter((r) => uris.includes(r.card_uri));
		if (ctx.q.q !== undefined) {
			if (String(ctx.q.q).length > 80) throw invalid('q', 'q is at most 80 characters', ctx.q.q);
			rows = rows.filter((r) => r.name.toLowerCase().startsWith(String(ctx.q.q).toLowerCase()));
		}
		return list(ctx, rows, 100, 200, { totalCount: false });
	});
	sb.route(
		'GET',
		`${A}/cards/:id`,
		'ads',
		(ctx) => (
			account(ctx),
			sb.adsEnvelope(ctx, [cardView(get(ads().cards, ctx.params.id, 'Card', ctx))])
		),
	);
	sb.route('POST', `${A}/cards`, 'ads', (ctx) => {
		account(ctx);
		if (ctx.bodyKind !== 'json')
			throw adsError(
				400,
				'INVALID_PARAMETER',
				'POST cards takes a JSON body only (Content-Type: application/json)',
				'Content-Type',
				ctx.headers['content-type'],
			);
		const b = ctx.body || {};
		const type = validateCardBody(b, false);
		const card = {
			account_id: ctx.params.account,
			id: sb.shortId('c'),
			name: String(b.name),
			card_uri: cardUri(),
			card_type: type,
			created_at: ts(),
			updated_at: ts(),
			deleted: false,
		};
		if (b.components) card.components = b.components;
		if (b.slides) card.slides = b.slides;
		ads().cards.set(card.id, card);
		return Object.assign({ status: 201 }, sb.adsEnvelope(ctx, cardView(card)));
	});
	sb.route('PUT', `${A}/cards/:id`, 'ads', (ctx) => {
		account(ctx);
		if (ctx.bodyKind !== 'json')
			throw adsError(
				400,
				'INVALID_PARAMETER',
				'PUT cards takes a JSON body only',
				'Content-Type',
				ctx.headers['content-type'],
			);
		const c = get(ads().cards, ctx.params.id, 'Card', ctx);
		const b = ctx.body || {};
		const type = validateCardBody(b, true);
		if (b.name !== undefined) c.name = String(b.name);
		if (b.components !== undefined)
			Object.assign(c, { components: b.components, slides: undefined, card_type: type });
		if (b.slides !== undefined)
			Object.assign(c, { slides: b.slides, components: undefined, card_type: type });
		c.updated_at = ts();
		return sb.adsEnvelope(ctx, [cardView(c)]);
	});
	sb.route(
		'DELETE',
		`${A}/cards/:id`,
		'ads',
		(ctx) => (
			account(ctx),
			sb.adsEnvelope(ctx, [cardView(softDelete(get(ads().cards, ctx.params.id, 'Card', ctx)))])
		),
	);

	// ---- Media library ----
	sb.route('GET', `${A}/media_library`, 'ads', (ctx) => {
		account(ctx);
		let rows = [...ads().mediaLibrary.values()];
		if (ctx.q.media_type) {
			if (!['GIF', 'IMAGE', 'VIDEO'].includes(ctx.q.media_type))
				throw invalid('media_type', 'media_type must be GIF, IMAGE or VIDEO', ctx.q.media_type);
			rows = rows.filter((r) => r.media_type === ctx.q.media_type);
		}
		if (ctx.q.q !== undefined) {
			const term = String(ctx.q.q).toLowerCase();
			if (!term.length || term.length > 255)
				throw invalid('q', 'q is 1 to 255 characters', ctx.q.q);
			rows = rows.filter((r) =>
				['name', 'title', 'file_name', 'description'].some((f) =>
					String(r[f] || '')
						.toLowerCase()
						.includes(term),
				),
			);
		}
		return list(ctx, rows, 20, 50, { totalCount: false });
	});
	sb.route(
		'GET',
		`${A}/media_library/:key`,
		'ads',
		(ctx) => (
			account(ctx),
			sb.adsEnvelope(ctx, get(ads().mediaLibrary, ctx.params.key, 'Media', ctx))
		),
	);
	function validateLibrary(b, video) {
		const limits = { name: 100, file_name: 255, title: 70, description: 200 };
		for (const [f, n] of Object.entries(limits))
			if (b[f] !== undefined && String(b[f]).length > n)
				throw invalid(f, `${f} is at most ${n} characters`, b[f]);
		if (!video)
			for (const f of ['title', 'description', 'poster_media_key'])
				if (b[f] !== undefined) throw invalid(f, `${f} is for videos only`, b[f]);
	}
	sb.route('POST', `${A}/media_library`, 'ads', (ctx) => {
		account(ctx);
		const b = p(ctx);
		if (!b.media_key) throw missing('media_key');
		const uploaded = [...sb.db.media.values()].find((m) => m.media_key === String(b.media_key));
		if (!uploaded || uploaded.state !== 'succeeded')
			throw invalid(
				'media_key',
				'media_key is not a finished upload with a media category',
				b.media_key,
			);
		const video = uploaded.type === 'video';
		validateLibrary(b, video);
		const item = {
			media_key: uploaded.media_key,
			media_type: { photo: 'IMAGE', animated_gif: 'GIF', video: 'VIDEO' }[uploaded.type],
			media_category: String(uploaded.media_category).toUpperCase(),
			media_status: 'TRANSCODE_COMPLETED',
			media_url: uploaded.url,
			name: b.name ?? null,
			file_name: b.file_name ?? null,
			title: b.title ?? null,
			description: b.description ?? null,
			poster_media_url: null,
			poster_media_key: b.poster_media_key ?? null,
			duration: uploaded.duration_ms ?? null,
			aspect_ratio: '1.91:1',
			tweeted: false,
			created_at: ts(),
			updated_at: ts(),
			deleted: false,
		};
		ads().mediaLibrary.set(item.media_key, item);
		if (item.media_category === 'AMPLIFY_VIDEO')
			ads().accountMedia.set(sb.shortId('am'), {
				id: sb.shortId('am'),
				video_id: item.media_key,
				media_url: null,
				creative_type: 'PREROLL',
				created_at: ts(),
				updated_at: ts(),
				deleted: false,
			});
		return Object.assign({ status: 201 }, sb.adsEnvelope(ctx, item));
	});
	sb.route('PUT', `${A}/media_library/:key`, 'ads', (ctx) => {
		account(ctx);
		const item = get(ads().mediaLibrary, ctx.params.key, 'Media', ctx);
		const b = p(ctx);
		validateLibrary(b, item.media_type === 'VIDEO');
		for (const f of ['name', 'file_name', 'title', 'description', 'poster_media_key'])
			if (b[f] !== undefined) item[f] = b[f];
		item.updated_at = ts();
		return sb.adsEnvelope(ctx, item);
	});
	sb.route(
		'DELETE',
		`${A}/media_library/:key`,
		'ads',
		(ctx) => (
			account(ctx),
			sb.adsEnvelope(ctx, softDelete(get(ads().mediaLibrary, ctx.params.key, 'Media', ctx)))
		),
	);

	// ---- Preroll call-to-actions ----
	sb.route('GET', `${A}/preroll_call_to_actions`, 'ads', (ctx) => {
		account(ctx);
		let rows = inAccount(ads().prerollCtas, ctx).map(strip);
		const li = idList(ctx.q.line_item_ids, 'line_item_ids');
		if (li) rows = rows.filter((r) => li.includes(r.line_item_id));
		const ids = idList(ctx.q.preroll_call_to_action_ids, 'preroll_call_to_action_ids');
		if (ids) rows = rows.filter((r) => ids.includes(r.id));
		return list(ctx, rows, 200, 1000);
	});
	sb.route(
		'GET',
		`${A}/preroll_call_to_actions/:id`,
		'ads',
		(ctx) => (
			account(ctx),
			sb.adsEnvelope(
				ctx,
				strip(get(ads().prerollCtas, ctx.params.id, 'Preroll call to action', ctx)),
			)
		),
	);
	function validateCta(b, partial) {
		if (!partial)
			for (const f of ['call_to_action', 'call_to_action_url', 'line_item_id'])
				if (!b[f]) throw missing(f);
		if (b.call_to_action !== undefined && !CTAS.includes(b.call_to_action))
			throw invalid(
				'call_to_action',
				`call_to_action must be one of ${CTAS.join(', ')}`,
				b.call_to_action,
			);
		if (b.call_to_action_url !== undefined && !/^https?:\/\//.test(String(b.call_to_action_url)))
			throw invalid('call_to_action_url', 'call_to_action_url must be a URL', b.call_to_action_url);
	}
	sb.route('POST', `${A}/preroll_call_to_actions`, 'ads', (ctx) => {
		account(ctx);
		const b = p(ctx);
		validateCta(b, false);
		const cta = {
			account_id: ctx.params.account,
			id: sb.shortId('r'),
			line_item_id: String(b.line_item_id),
			call_to_action: b.call_to_action,
			call_to_action_url: b.call_to_action_url,
			created_at: ts(),
			updated_at: ts(),
			deleted: false,
		};
		ads().prerollCtas.set(cta.id, cta);
		return Object.assign({ status: 201 }, sb.adsEnvelope(ctx, strip(cta)));
	});
	sb.route('PUT', `${A}/preroll_call_to_actions/:id`, 'ads', (ctx) => {
		account(ctx);
		const c = get(ads().prerollCtas, ctx.params.id, 'Preroll call to action', ctx);
		const b = p(ctx);
		validateCta(b, true);
		for (const f of ['call_to_action', 'call_to_action_url']) if (b[f] !== undefined) c[f] = b[f];
		c.updated_at = ts();
		return sb.adsEnvelope(ctx, strip(c));
	});
	sb.route(
		'DELETE',
		`${A}/preroll_call_to_actions/:id`,
		'ads',
		(ctx) => (
			account(ctx),
			sb.adsEnvelope(
				ctx,
				strip(softDelete(get(ads().prerollCtas, ctx.params.id, 'Preroll call to action', ctx))),
			)
		),
	);

	// ---- Draft and scheduled posts ----
	function mediaKeysParam(v) {
		if (v === undefined || v === null || v === '') return [];
		const keys = Array.isArray(v) ? v.map(String) : String(v).split(',').filter(Boolean);
		for (const k of keys)
			if (!ads().mediaLibrary.has(k))
				throw invalid('media_keys', `media key ${k} is not in the account's media library`, k);
		const types = keys.map((k) => ads().mediaLibrary.get(k).media_type);
		if (keys.length > 4 || (keys.length > 1 && types.some((t) => t !== 'IMAGE')))
			throw invalid('media_keys', 'up to 4 images, or 1 GIF, or 1 video', v);
		return keys;
	}
	function checkCardUri(ctx, uri) {
		if (uri === undefined || uri === null || uri === '') return null;
		if (!/^card:\/\/[0-9]+$/.test(String(uri)))
			throw invalid('card_uri', 'card_uri must look like card://<digits>', uri);
		if (!allCards(ctx).some((c) => c.card_uri === String(uri) && !c.deleted))
			throw invalid('card_uri', `card ${uri} does not belong to this account`, uri);
		return String(uri);
	}
	/** `name: false`: draft posts, which take no name (one sent is not kept). */
	function postFields(ctx, b, partial, { name = true } = {}) {
		const out = {};
		if (!partial || b.as_user_id !== undefined) {
			if (!b.as_user_id) throw missing('as_user_id');
			if (!/^[0-9]{1,19}$/.test(String(b.as_user_id)))
				throw invalid('as_user_id', 'as_user_id must be a user id', b.as_user_id);
			if (String(b.as_user_id) !== ctx.auth.userId)
				throw adsError(
					403,
					'UNAUTHORIZED_ACCESS',
					'as_user_id is not a promotable user of this account',
					'as_user_id',
					b.as_user_id,
				);
			out.user_id = String(b.as_user_id);
		}
		if (b.media_keys !== undefined) out.media_keys = mediaKeysParam(b.media_keys);
		if (b.text !== undefined) out.text = String(b.text);
		if (!partial && !out.text && !(out.media_keys && out.media_keys.length)) throw missing('text');
		if (out.text && [...out.text].length > 25000)
			throw invalid('text', 'text is too long', out.text.length);
		if (b.card_uri !== undefined) out.card_uri = checkCardUri(ctx, b.card_uri);
		if (b.nullcast !== undefined) out.nullcast = bool(b.nullcast);
		if (name && b.name !== undefined) {
			if (String(b.name).length > 80)
				throw invalid('name', 'name is at most 80 characters', b.name);
			out.name = String(b.name);
		}
		return out;
	}
	const draftView = (d) => ({
		id: d.id,
		name: d.name ?? null,
		text: d.text ?? '',
		user_id: d.user_id,
		nullcast: d.nullcast ?? true,
		card_uri: d.card_uri ?? null,
		media_keys: d.media_keys || [],
		created_at: d.created_at,
		updated_at: d.updated_at,
	});
	const scheduledView = (s) =>
		Object.assign(draftView(s), {
			completed_at: s.completed_at ?? null,
			scheduled_at: s.scheduled_at,
			scheduled_status: s.scheduled_status,
			tweet_id: s.tweet_id ?? null,
		});
	function mine(ctx, rows) {
		const user = ctx.q.user_id || ctx.auth.userId;
		return rows.filter((r) => r.user_id === String(user));
	}

	sb.route(
		'GET',
		`${A}/draft_tweets`,
		'ads',
		(ctx) => (
			account(ctx),
			list(ctx, mine(ctx, inAccount(ads().drafts, ctx)).map(draftView), 100, 200, {
				totalCount: false,
			})
		),
	);
	sb.route(
		'GET',
		`${A}/draft_tweets/:id`,
		'ads',
		(ctx) => (
			account(ctx),
			sb.adsEnvelope(ctx, draftView(get(ads().drafts, ctx.params.id, 'Draft tweet', ctx)))
		),
	);
	sb.route('POST', `${A}/draft_tweets`, 'ads', (ctx) => {
		account(ctx);
		const f = postFields(ctx, p(ctx), false, { name: false });
		const d = Object.assign(
			{ account_id: ctx.params.account, id: sb.newId(), created_at: ts(), updated_at: ts() },
			f,
		);
		ads().drafts.set(d.id, d);
		return Object.assign({ status: 201 }, sb.adsEnvelope(ctx, draftView(d)));
	});
	sb.route('PUT', `${A}/draft_tweets/:id`, 'ads', (ctx) => {
		account(ctx);
		const d = get(ads().drafts, ctx.params.id, 'Draft tweet', ctx);
		const f = postFields(ctx, p(ctx), true, { name: false });
		// A draft keeps text or media, as on creation.
		const text = f.text !== undefined ? f.text : d.text;
		const media = f.media_keys !== undefined ? f.media_keys : d.media_keys;
		if (!text && !(media && media.length)) throw missing('text');
		Object.assign(d, f, { updated_at: ts() });
		return sb.adsEnvelope(ctx, draftView(d));
	});
	sb.route('DELETE', `${A}/draft_tweets/:id`, 'ads', (ctx) => {
		account(ctx);
		const d = get(ads().drafts, ctx.params.id, 'Draft tweet', ctx);
		ads().drafts.delete(d.id);
		return sb.adsEnvelope(ctx, draftView(d));
	});

	function scheduledAt(v) {
		if (v === undefined) throw missing('scheduled_at');
		const d = new Date(String(v));
		if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(String(v)) || isNaN(d))
			throw invalid('scheduled_at', 'scheduled_at must be an ISO 8601 date-time', v);
		if (d.getTime() < Date.now() - 60000)
			throw invalid('scheduled_at', 'scheduled_at must be in the future', v);
		return sb.isoSeconds(d);
	}
	sb.route(
		'GET',
		`${A}/scheduled_tweets`,
		'ads',
		(ctx) => (
			account(ctx),
			list(ctx, mine(ctx, inAccount(ads().scheduled, ctx)).map(scheduledView), 100, 200, {
				totalCount: false,
			})
		),
	);
	sb.route(
		'GET',
		`${A}/scheduled_tweets/:id`,
		'ads',
		(ctx) => (
			account(ctx),
			sb.adsEnvelope(
				ctx,
				scheduledView(get(ads().scheduled, ctx.params.id, 'Scheduled tweet', ctx)),
			)
		),
	);
	sb.route('POST', `${A}/scheduled_tweets`, 'ads', (ctx) => {
		account(ctx);
		const b = p(ctx);
		const f = postFields(ctx, b, false);
		const s = Object.assign(
			{
				account_id: ctx.params.account,
				id: sb.newId(),
				created_at: ts(),
				updated_at: ts(),
				scheduled_at: scheduledAt(b.scheduled_at),
				scheduled_status: 'SCHEDULED',
			},
			f,
		);
		ads().scheduled.set(s.id, s);
		return Object.assign({ status: 201 }, sb.adsEnvelope(ctx, scheduledView(s)));
	});
	sb.route('PUT', `${A}/scheduled_tweets/:id`, 'ads', (ctx) => {
		account(ctx);
		const s = get(ads().scheduled, ctx.params.id, 'Scheduled tweet', ctx);
		if (s.scheduled_status !== 'SCHEDULED')
			throw adsError(
				400,
				'INVALID_PARAMETER',
				'Only pending scheduled posts can be updated',
				'scheduled_tweet_id',
				s.id,
			);
		const b = p(ctx);
		Object.assign(
			s,
			postFields(ctx, b, true),
			b.scheduled_at !== undefined ? { scheduled_at: scheduledAt(b.scheduled_at) } : {},
			{ updated_at: ts() },
		);
		return sb.adsEnvelope(ctx, scheduledView(s));
	});
	sb.route('DELETE', `${A}/scheduled_tweets/:id`, 'ads', (ctx) => {
		account(ctx);
		const s = get(ads().scheduled, ctx.params.id, 'Scheduled tweet', ctx);
		if (s.scheduled_status !== 'SCHEDULED')
			throw adsError(
				400,
				'INVALID_PARAMETER',
				'Only pending scheduled posts can be deleted',
				'scheduled_tweet_id',
				s.id,
			);
		ads().scheduled.delete(s.id);
		return sb.adsEnvelope(ctx, scheduledView(s));
	});

	// ---- Posts through the account ----
	function legacyPost(t, full) {
		const id = BigInt(t.id);
		const out = {
			created_at: new Date(t.created).toUTCString().replace(/GMT/, '+0000'),
			id: Number(id),
			id_str: t.id,
			text: t.text,
			name: t.name ?? null,
			truncated: false,
			entities: { hashtags: [], symbols: [], user_mentions: [], urls: [] },
			source: 'Sandbox Ads',
			in_reply_to_status_id: null,
			in_reply_to_status_id_str: null,
			in_reply_to_user_id: null,
			in_reply_to_user_id_str: null,
			in_reply_to_screen_name: null,
			user: { id: Number(t.user_id), id_str: t.user_id },
			geo: null,
			coordinates: null,
			place: null,
			contributors: null,
			retweet_count: 0,
			favorite_count: 0,
			favorited: false,
			retweeted: false,
			scopes: { followers: !t.nullcast },
			lang: 'en',
		};
		if (full)
			Object.assign(out, {
				conversation_settings: t.conversation_settings || 'EVERYONE',
				display_text_range: [0, t.text.length],
				full_text: t.text,
				nullcast: t.nullcast,
				scheduled_status: null,
				scheduled_at: null,
				tweet_type: 'PUBLISHED',
				tweet_id: t.id,
				user: Object.assign(
					{ id: Number(t.user_id), id_str: t.user_id },
					sb.db.users.get(t.user_id) || {},
				),
			});
		return out;
	}
	sb.route('POST', `${A}/tweet`, 'ads', (ctx) => {
		account(ctx);
		const b = p(ctx);
		const f = postFields(ctx, b, false);
		if (
			b.conversation_settings !== undefined &&
			!['EVERYONE', 'FOLLOWING', 'MENTIONED_USERS'].includes(b.conversation_settings)
		)
			throw invalid(
				'conversation_settings',
				'conversation_settings must be EVERYONE, FOLLOWING or MENTIONED_USERS',
				b.conversation_settings,
			);
		if (b.video_cta !== undefined && !['VISIT_SITE', 'WATCH_NOW'].includes(b.video_cta))
			throw invalid('video_cta', 'video_cta must be VISIT_SITE or WATCH_NOW', b.video_cta);
		if (b.tweet_mode !== undefined && !['compat', 'extended'].includes(b.tweet_mode))
			throw invalid('tweet_mode', 'tweet_mode must be compat or extended', b.tweet_mode);
		if (f.nullcast === false && f.user_id !== ctx.auth.userId)
			throw invalid('nullcast', 'organic posts are only for the authenticated user');
		const t = Object.assign(
			{
				account_id: ctx.params.account,
				id: sb.newId(),
				created: Date.now(),
				nullcast: true,
				conversation_settings: b.conversation_settings,
			},
			f,
		);
		ads().adTweets.set(t.id, t);
		const out = legacyPost(t, false);
		if (b.tweet_mode === 'extended') {
			// Extended mode: the whole text in full_text with its display range, no text / truncated.
			out.full_text = out.text;
			out.display_text_range = [0, String(out.text || '').length];
			delete out.text;
			delete out.truncated;
		} else if (String(out.text || '').length > 140) {
			out.text = String(out.text).slice(0, 139) + '…';
			out.truncated = true;
		}
		return sb.adsEnvelope(ctx, out);
	});
	sb.route('PUT', `${A}/tweets/:id/name`, 'ads', (ctx) => {
		account(ctx);
		const t = ads().adTweets.get(ctx.params.id);
		if (!t)
			throw adsError(
				404,
				'NOT_FOUND',
				`Tweet ${ctx.params.id} not found`,
				'tweet_id',
				ctx.params.id,
			);
		const b = p(ctx);
		if (b.name !== undefined && String(b.name).length > 80)
			throw invalid('name', 'name is at most 80 characters', b.name);
		t.name = b.name ?? null;
		return sb.adsEnvelope(ctx, legacyPost(t, true));
	});
}

module.exports = { install, SAMPLE_IMAGE_KEY, SAMPLE_VIDEO_KEY };
