'use strict';
/** Advertising interface, catalog management: catalogs, products, product sets, scheduled feeds. */
const { adsError } = require('../lib/http');

const AVAILABILITY = [
	'in stock',
	'available for order',
	'preorder',
	'out of stock',
	'discontinued',
];
const CONDITION = ['new', 'used', 'refurbished'];
const GENDER = ['female', 'male', 'unisex'];
const AGE_GROUP = ['adult', 'all ages', 'teen', 'kids', 'toddler', 'infant', 'newborn'];
const PRODUCT_FIELDS = [
	'id',
	'product_key',
	'title',
	'description',
	'availability',
	'condition',
	'price',
	'link',
	'image_link',
	'brand',
	'gtin',
	'mpn',
	'mobile_link',
	'additional_image_link',
	'partnera_product_category',
	'product_type',
	'inventory',
	'sale_price',
	'sale_price_effective_date',
	'item_group_id',
	'item_group_key',
	'gender',
	'color',
	'size',
	'age_group',
	'custom_label_0',
	'custom_label_1',
	'custom_label_2',
	'custom_label_3',
	'custom_label_4',
];
const FILTER_ATTRIBUTES = [
	'price',
	'product_type',
	'partnera_product_category',
	'sale_price',
	'inventory',
	'custom_label_0',
	'custom_label_1',
	'custom_label_2',
	'custom_label_3',
	'custom_label_4',
];
const FILTER_OPERATORS = [
	'GREATER_THAN',
	'EQUAL_TO',
	'LESS_THAN',
	'MATCH',
	'NOT_CONTAINS',
	'CONTAINS',
];
const PRICE = /^[0-9]+(\.[0-9]+)? [A-Z]{3}$/;

function install(sb) {
	const ads = () => sb.db.ads;

	/** Query parameters plus a JSON or form body: the service reads "parameters" from either. */
	sb.adsParams = (ctx) => {
		const p = Object.assign({}, ctx.q);
		if (
			ctx.body &&
			typeof ctx.body === 'object' &&
			!Array.isArray(ctx.body) &&
			(ctx.bodyKind === 'json' || ctx.bodyKind === 'form')
		)
			Object.assign(p, ctx.body);
		return p;
	};
	sb.adsEnvelope = (ctx, data, extra = {}) => ({
		body: Object.assign({ request: { params: Object.assign({}, ctx.params, ctx.q) }, data }, extra),
	});
	sb.adsCount = (q, dflt, max) => {
		if (q.count === undefined) return dflt;
		const n = Number(q.count);
		if (!Number.isInteger(n) || n < 1 || n > max)
			throw adsError(
				400,
				'INVALID_PARAMETER',
				`Expected an integer between 1 and ${max} for count`,
				'count',
				q.count,
			);
		return n;
	};
	const missing = (name) =>
		adsError(400, 'MISSING_PARAMETER', `"${name}" is a required parameter`, name);
	const invalid = (name, message, value) =>
		adsError(400, 'INVALID_PARAMETER', message, name, value);

	function catalogFor(ctx) {
		const c = ads().catalogs.get(ctx.params.catalog);
		if (!c || c.owner !== ctx.auth.userId)
			throw adsError(
				404,
				'NOT_FOUND',
				`Product catalog ${ctx.params.catalog} not found`,
				'product_catalog_id',
				ctx.params.catalog,
			);
		return c;
	}
	const catalogView = (c) => ({ id: c.id, name: c.name });

	// ---- Catalogs ----
	sb.route('GET', '/12/product_catalogs', 'ads', (ctx) => {
		const user = ctx.q.user_id || ctx.auth.userId;
		const list = [...ads().catalogs.values()]
			.filter((c) => c.owner === String(user))
			.map(catalogView);
		const { page, next } = sb.pageOf(list, sb.adsCount(ctx.q, 100, 1000), ctx.q.cursor);
		return sb.adsEnvelope(ctx, page, { next_cursor: next });
	});
	sb.route('POST', '/12/product_catalogs', 'ads', (ctx) => {
		const p = sb.adsParams(ctx);
		if (!p.name) throw missing('name');
		const owner = String(p.user_id || ctx.auth.userId);
		if (owner !== ctx.auth.userId)
			throw adsError(
				403,
				'UNAUTHORIZED_ACCESS',
				'The user_id is not the authenticated user',
				'user_id',
				p.user_id,
			);
		if ([...ads().catalogs.values()].some((c) => c.owner === owner))
			throw adsError(
				400,
				'INVALID_PARAMETER',
				'A user can create only one product catalog',
				'user_id',
				owner,
			);
		const c = { id: sb.newId(), name: String(p.name), owner };
		ads().catalogs.set(c.id, c);
		ads().products.set(c.id, new Map());
		return Object.assign({ status: 201 }, sb.adsEnvelope(ctx, catalogView(c)));
	});
	sb.route('PUT', '/12/product_catalogs/:catalog', 'ads', (ctx) => {
		const c = catalogFor(ctx);
		const p = sb.adsParams(ctx);
		if (!p.name) throw missing('name');
		c.name = String(p.name);
		return sb.adsEnvelope(ctx, catalogView(c));
	});
	sb.route('DELETE', '/12/product_catalogs/:catalog', 'ads', (ctx) => {
		const c = catalogFor(ctx);
		ads().catalogs.delete(c.id);
		ads().products.delete(c.id);
		for (const [id, s] of ads().productSets) if (s.catalog === c.id) ads().productSets.delete(id);
		for (const [id, f] of ads().feeds) if (f.product_catalog_id === c.id) ads().feeds.delete(id);
		return sb.adsEnvelope(ctx, catalogView(c));
	});

	// ---- Products ----
	function productView(p) {
		const out = {};
		for (const f of PRODUCT_FIELDS) out[f] = p[f] === undefined ? null : p[f];
		return out;
	}
	function validateProduct(p) {
		const errors = [];
		const warnings = [];
		if (!p || typeof p !== 'object') return { errors: ['product must be an object'], warnings };
		for (const f of [
			'id',
			'title',
			'description',
			'availability',
			'condition',
			'price',
			'link',
			'image_link',
		])
			if (p[f] === undefined || p[f] === null || p[f] === '') errors.push(`${f} is required`);
		const unknown = Object.keys(p).filter((k) => !PRODUCT_FIELDS.includes(k));
		if (unknown.length) warnings.push(`unknown attributes ignored: ${unknown.join(', ')}`);
		if (p.title && String(p.title).length > 150) errors.push('title is longer than 150 characters');
		if (p.description && String(p.description).length > 5000)
			errors.push('description is longer than 5000 characters');
		if (p.availability && !AVAILABILITY.includes(p.availability))
			errors.push(`availability must be one of ${AVAILABILITY.join(', ')}`);
		if (p.condition && !CONDITION.includes(p.condition))
			errors.push(`condition must be one of ${CONDITION.join(', ')}`);
		if (p.price && !PRICE.test(String(p.price)))
			errors.push('price must be a number, a space and a 3-letter currency code, like "9.99 USD"');
		if (p.sale_price !== undefined && p.sale_price !== null) {
			if (!PRICE.test(String(p.sale_price))) errors.push('sale_price has the price format');
			else if (
				p.price &&
				PRICE.test(String(p.price)) &&
				parseFloat(p.sale_price) >= parseFloat(p.price)
			)
				errors.push('sale_price must be lower than price');
		}
		// Product pages must use https; images may be http or https.
		for (const f of ['link', 'mobile_link'])
			if (p[f] && !/^https:\/\//.test(String(p[f]))) errors.push(`${f} must use https`);
		if (p.image_link && !/^https?:\/\/\S+$/.test(String(p.image_link)))
			errors.push('image_link must be an http or https URL');
		if (
			p.additional_image_link &&
			String(p.additional_image_link)
				.split(',')
				.some((u) => !/^https?:\/\/\S+$/.test(u.trim()))
		)
			errors.push('additional_image_link must hold http or https URLs');
		if (!p.brand && !p.gtin && !p.mpn) errors.push('one of brand, gtin or mpn is required');
		if (p.additional_image_link && String(p.additional_image_link).split(',').length > 10)
			errors.push('additional_image_link holds at most 10 URLs');
		if (
			p.inventory !== undefined &&
			p.inventory !== null &&
			(!Number.isInteger(Number(p.inventory)) || Number(p.inventory) < 0)
		)
			errors.push('inventory must be a whole number');
		if (
			p.availability === 'in stock' &&
			p.inventory !== undefined &&
			p.inventory !== null &&
			Number(p.inventory) < 1
		)
			errors.push('inventory must be at least 1 when availability is in stock');
		if (p.gender && !GENDER.includes(p.gender))
			errors.push(`gender must be one of ${GENDER.join(', ')}`);
		if (p.age_group && !AGE_GROUP.includes(p.age_group))
			errors.push(`age_group must be one of ${AGE_GROUP.join(', ')}`);
		if (p.color && /^#?[0-9a-f]{6}$/i.test(String(p.color)))
			errors.push('color must be a name, not a hex code');
		if (
			p.sale_price_effective_date &&
			!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?([+-]\d{2}:?\d{2}|Z)\/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?([+-]\d{2}:?\d{2}|Z)$/.test(
				String(p.sale_price_effective_date),
			)
		)
			errors.push('sale_price_effective_date must be an ISO 8601 range <start>/<end>');
		return { errors, warnings };
	}

	sb.route('GET', '/12/product_catalogs/:catalog/products', 'ads', (ctx) => {
		const c = catalogFor(ctx);
		const count = sb.adsCount(ctx.q, 100, 100);
		let list = [...ads().products.get(c.id).values()];
		if (ctx.q.item_group_key) list = list.filter((p) => p.item_group_key === ctx.q.item_group_key);
		else {
			// Only the first-submitted product of a group is returned.
			const seen = new Set();
			list = list.filter((p) => {
				if (!p.item_group_id) return true;
				if (seen.has(p.item_group_id)) return false;
				seen.add(p.item_group_id);
				return true;
			});
		}
		const { page, next } = sb.pageOf(list.map(productView), count, ctx.q.cursor);
		return sb.adsEnvelope(ctx, page, { next_cursor: next });
	});

	sb.route('PUT', '/12/product_catalogs/:catalog/products', 'ads', (ctx) => {
		const c = catalogFor(ctx);
		if (ctx.bodyKind !== 'json')
			throw adsError(
				400,
				'INVALID_PARAMETER',
				'The request body must be JSON {"products": [...]}',
				'products',
			);
		const products = ctx.body && ctx.body.products;
		if (!Array.isArray(products) || !products.length) throw missing('products');
		if (products.length > 25)
			throw adsError(
				400,
				'INVALID_PARAMETER',
				`At most 25 products per request (got ${products.length})`,
				'products',
				products.length,
			);
		const store = ads().products.get(c.id);
		const counts = {};
		for (const p of products)
			if (p && p.id !== undefined) counts[String(p.id)] = (counts[String(p.id)] || 0) + 1;
		const results = products.map((p) => {
			const id = p && p.id !== undefined ? String(p.id) : null;
			if (id && counts[id] > 1)
				return {
					warnings: [],
					errors: [
						`id ${id} appears ${counts[id]} times in the request: all instances are ignored`,
					],
					product_key: null,
					id,
					status: 'ERROR',
				};
			const { errors, warnings } = validateProduct(p);
			if (errors.length) return { warnings, errors, product_key: null, id, status: 'ERROR' };
			const existing = store.get(id);
			const clean = {};
			for (const f of PRODUCT_FIELDS)
				if (p[f] !== undefined && f !== 'product_key' && f !== 'item_group_key') clean[f] = p[f];
			clean.id = id;
			if (existing) {
				const before = JSON.stringify(
					Object.fromEntries(
						PRODUCT_FIELDS.filter((f) => f !== 'product_key' && f !== 'item_group_key').map((f) => [
							f,
							existing[f] === undefined ? null : existing[f],
						]),
					),
				);
				const merged = Object.assign(
					{ product_key: existing.product_key, item_group_key: existing.item_group_key },
					clean,
				);
				const after = JSON.stringify(
					Object.fromEntries(
						PRODUCT_FIELDS.filter((f) => f !== 'product_key' && f !== 'item_group_key').map((f) => [
							f,
							merged[f] === undefined ? null : merged[f],
						]),
					),
				);
				store.set(id, merged);
				return {
					warnings,
					errors: [],
					product_key: existing.product_key,
					id,
					status: before === after ? 'NO_CHANGE' : 'UPDATE_SUCCESS',
				};
			}
			clean.product_key = sb.newId();
			if (clean.item_group_id) {
				const sibling = [...store.values()].find((x) => x.item_group_id === clean.item_group_id);
				clean.item_group_key = sibling ? sibling.item_group_key : sb.newId();
			}
			store.set(id, clean);
			return { warnings, errors: [], product_key: clean.product_key, id, status: 'CREATE_SUCCESS' };
		});
		return sb.adsEnvelope(ctx, { products_response: results });
	});

	sb.route('DELETE', '/12/product_catalogs/:catalog/products', 'ads', (ctx) => {
		const c = catalogFor(ctx);
		const keys = ctx.body && ctx.body.product_keys;
		if (!Array.isArray(keys) || !keys.length) throw missing('product_keys');
		const store = ads().products.get(c.id);
		const results = keys.map((key) => {
			const entry = [...store.entries()].find(([, p]) => p.product_key === String(key));
			if (!entry)
				return {
					product_key: String(key),
					failed_product_key: String(key),
					message: 'Product not found',
				};
			store.delete(entry[0]);
			return { product_key: String(key), failed_product_key: null, message: null };
		});
		return sb.adsEnvelope(ctx, { delete_products: results });
	});

	// ---- Product sets ----
	const setView = (s) => {
		if (s.processing_status === 'PROCESSING' && Date.now() - s.created > 300)
			s.processing_status = 'DONE';
		return {
			id: s.id,
			name: s.name,
			description: s.description ?? null,
			type: s.type,
			product_ids: s.product_ids,
			processing_status: s.processing_status,
			filters: s.filters,
		};
	};
	function findSet(ctx) {
		const c = catalogFor(ctx);
		const s = ads().productSets.get(ctx.params.set);
		if (!s || s.catalog !== c.id)
			throw adsError(
				404,
				'NOT_FOUND',
				`Product set ${ctx.params.set} not found`,
				'product_set_id',
				ctx.params.set,
			);
		return s;
	}
	function idsForKeys(catalogId, keys) {
		const store = ads().products.get(catalogId);
		return keys.map((k) => {
			const p = [...store.values()].find((x) => x.product_key === String(k));
			if (!p)
				throw adsError(400, 'INVALID_PARAMETER', `Unknown product key ${k}`, 'product_keys', k);
			return p.id;
		});
	}
	sb.route('GET', '/12/product_catalogs/:catalog/product_sets/:set', 'ads', (ctx) =>
		sb.adsEnvelope(ctx, setView(findSet(ctx))),
	);
	sb.route('POST', '/12/product_catalogs/:catalog/product_sets', 'ads', (ctx) => {
		const c = catalogFor(ctx);
		if (ctx.bodyKind !== 'json')
			throw adsError(400, 'INVALID_PARAMETER', 'The request body must be JSON', 'body');
		const b = ctx.body || {};
		if (!b.name) throw missing('name');
		if (!['MANUAL', 'FILTERED'].includes(b.type))
			throw invalid('type', 'type must be MANUAL or FILTERED', b.type);
		const s = {
			id: sb.newId(),
			catalog: c.id,
			name: String(b.name),
			description: b.description ?? null,
			type: b.type,
			filters: [],
			product_ids: [],
			created: Date.now(),
		};
		if (b.type === 'MANUAL') {
			if (!Array.isArray(b.product_keys) || !b.product_keys.length) throw missing('product_keys');
			if (b.filters && b.filters.length)
				throw invalid('filters', 'filters are for FILTERED sets only');
			s.product_ids = idsForKeys(c.id, b.product_keys);
			s.processing_status = 'DONE';
		} else {
			if (!Array.isArray(b.filters) || !b.filters.length) throw missing('filters');
			for (const f of b.filters) {
				if (!f || !FILTER_ATTRIBUTES.includes(f.attribute))
					throw invalid(
						'filters.attribute',
						`attribute must be one of ${FILTER_ATTRIBUTES.join(', ')}`,
						f && f.attribute,
					);
				if (!FILTER_OPERATORS.includes(f.operator))
					throw invalid(
						'filters.operator',
						`operator must be one of ${FILTER_OPERATORS.join(', ')}`,
						f.operator,
					);
				if (f.value === undefined || f.value === '') throw missing('filters.value');
				if (['price', 'sale_price'].includes(f.attribute) && !PRICE.test(String(f.value)))
					throw invalid(
						'filters.value',
						'a price filter value has the price format, like "10.00 USD"',
						f.value,
					);
			}
			s.filters = b.filters.map((f) => ({
				attribute: f.attribute,
				operator: f.operator,
				value: String(f.value),
			}));
			s.processing_status = 'PROCESSING';
		}
		ads().productSets.set(s.id, s);
		return Object.assign({ status: 201 }, sb.adsEnvelope(ctx, setView(s)));
	});
	sb.route('PUT', '/12/product_catalogs/:catalog/product_sets/:set', 'ads', (ctx) => {
		const s = findSet(ctx);
		if (s.type === 'FILTERED')
			throw adsError(
				400,
				'INVALID_PARAMETER',
				'Updating FILTERED product sets is not supported',
				'product_set_id',
				s.id,
			);
		const b = ctx.body || {};
		if (b.name !== undefined) s.name = String(b.name);
		if (b.description !== undefined) s.description = b.description;
		if (b.product_keys !== undefined) s.product_ids = idsForKeys(s.catalog, b.product_keys);
		return sb.adsEnvelope(ctx, setView(s));
	});
	sb.route('DELETE', '/12/product_catalogs/:catalog/product_sets/:set', 'ads', (ctx) => {
		const s = findSet(ctx);
		ads().productSets.delete(s.id);
		return sb.adsEnvelope(ctx, setView(s));
	});

	// ---- Scheduled feeds (query parameters) ----
	const HOURLY = ['1', '2', '3', '4', '6', '8', '12'];
	const DAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];
	function validateFeed(f) {
		if (!/^https?:\/\//.test(String(f.feed_url)))
			throw invalid('feed_url', 'feed_url must be a URL', f.feed_url);
		if (!['CSV', 'TSV', 'XML'].includes(f.feed_format))
			throw invalid('feed_format', 'feed_format must be CSV, TSV or XML', f.feed_format);
		if (!['HOURLY', 'DAILY', 'WEEKLY'].includes(f.frequency))
			throw invalid('frequency', 'frequency must be HOURLY, DAILY or WEEKLY', f.frequency);
		if (!/^([01][0-9]|2[0-3]):[0-5][0-9]$/.test(String(f.start_time)))
			throw invalid('start_time', 'start_time must be HH:MM', f.start_time);
		if (!/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(String(f.time_zone)))
			throw invalid('time_zone', 'time_zone must be an IANA time zone name', f.time_zone);
		if (f.frequency === 'DAILY' && f.repeat !== undefined && f.repeat !== null && f.repeat !== '')
			throw invalid('repeat', 'DAILY feeds must omit repeat', f.repeat);
		if (f.frequency === 'WEEKLY' && !DAYS.includes(String(f.repeat)))
			throw invalid('repeat', 'WEEKLY feeds need repeat MONDAY to SUNDAY', f.repeat);
		if (f.frequency === 'HOURLY' && !HOURLY.includes(String(f.repeat)))
			throw invalid('repeat', `HOURLY feeds need repeat ${HOURLY.join(', ')}`, f.repeat);
	}
	const FEED_FIELDS = ['feed_url', 'feed_format', 'frequency', 'repeat', 'start_time', 'time_zone'];
	const feedView = (f) => ({
		id: f.id,
		product_catalog_id: f.product_catalog_id,
		feed_url: f.feed_url,
		feed_format: f.feed_format,
		frequency: f.frequency,
		repeat: f.repeat ?? null,
		start_time: f.start_time,
		time_zone: f.time_zone,
		created_at: f.created_at,
		updated_at: f.updated_at,
	});
	sb.route('GET', '/12/product_catalogs/:catalog/scheduled_feeds', 'ads', (ctx) => {
		const c = catalogFor(ctx);
		const list = [...ads().feeds.values()]
			.filter((f) => f.product_catalog_id === c.id)
			.map(feedView);
		return sb.adsEnvelope(ctx, list, { next_cursor: null });
	});
	sb.route('POST', '/12/product_catalogs/:catalog/scheduled_feeds', 'ads', (ctx) => {
		const c = catalogFor(ctx);
		const p = sb.adsParams(ctx);
		for (const f of ['feed_url', 'feed_format', 'frequency', 'start_time', 'time_zone'])
			if (!p[f]) throw missing(f);
		validateFeed(p);
		if ([...ads().feeds.values()].some((f) => f.owner === ctx.auth.userId))
			throw adsError(
				400,
				'INVALID_PARAMETER',
				'Only one scheduled feed is supported per user',
				'product_catalog_id',
				c.id,
			);
		const now = new Date().toISOString();
		const feed = {
			id: sb.newId(),
			product_catalog_id: c.id,
			owner: ctx.auth.userId,
			created_at: now,
			updated_at: now,
		};
		for (const f of FEED_FIELDS) if (p[f] !== undefined && p[f] !== '') feed[f] = String(p[f]);
		ads().feeds.set(feed.id, feed);
		return Object.assign({ status: 201 }, sb.adsEnvelope(ctx, feedView(feed)));
	});
	function findFeed(ctx) {
		const c = catalogFor(ctx);
		const f = ads().feeds.get(ctx.params.feed);
		if (!f || f.product_catalog_id !== c.id)
			throw adsError(
				404,
				'NOT_FOUND',
				`Scheduled feed ${ctx.params.feed} not found`,
				'scheduled_feed_id',
				ctx.params.feed,
			);
		return f;
	}
	sb.route('PUT', '/12/product_catalogs/:catalog/scheduled_feeds/:feed', 'ads', (ctx) => {
		const f = findFeed(ctx);
		const p = sb.adsParams(ctx);
		const next = Object.assign({}, f);
		for (const k of FEED_FIELDS)
			if (p[k] !== undefined) next[k] = p[k] === '' ? undefined : String(p[k]);
		if (p.frequency === 'DAILY' && p.repeat === undefined) next.repeat = undefined;
		validateFeed(next);
		Object.assign(f, next, { updated_at: new Date().toISOString() });
		return sb.adsEnvelope(ctx, feedView(f));
	});
	sb.route('DELETE', '/12/product_catalogs/:catalog/scheduled_feeds/:feed', 'ads', (ctx) => {
		const f = findFeed(ctx);
		ads().feeds.delete(f.id);
		return sb.adsEnvelope(ctx, feedView(f));
	});
}

module.exports = { install };
