import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { formatZodIssues } from '../shared/validation';

/**
 * The product attributes of the advertising interface's catalog and the rules the service applies to them, checked
 * before anything is sent. `normalizeProduct` turns an input item (spreadsheet rows, shop exports)
 * into the request shape; `productSchema` checks one product; `crossItemProblems` checks what only
 * shows across items (variants without item_group_id).
 */

export const AVAILABILITY = [
	'in stock',
	'available for order',
	'preorder',
	'out of stock',
	'discontinued',
] as const;
export const CONDITION = ['new', 'used', 'refurbished'] as const;
export const GENDER = ['female', 'male', 'unisex'] as const;
export const AGE_GROUP = [
	'adult',
	'all ages',
	'teen',
	'kids',
	'toddler',
	'infant',
	'newborn',
] as const;

export const REQUIRED_FIELDS = [
	'id',
	'title',
	'description',
	'availability',
	'condition',
	'price',
	'link',
	'image_link',
] as const;

export const OPTIONAL_FIELDS = [
	'product_key',
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
	'gender',
	'color',
	'size',
	'age_group',
	'custom_label_0',
	'custom_label_1',
	'custom_label_2',
	'custom_label_3',
	'custom_label_4',
] as const;

/** Every attribute a PUT may carry (item_group_key is service-generated and never sent). */
export const PRODUCT_FIELDS: readonly string[] = [...REQUIRED_FIELDS, ...OPTIONAL_FIELDS];

export const MAX_TITLE = 150;
export const MAX_DESCRIPTION = 5000;
export const MAX_ADDITIONAL_IMAGES = 10;

/** Active ISO 4217 codes (alphabetic), so that "9.99 ABC" is refused before it reaches the service. */
const ISO_4217 = new Set(
	(
		'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD ' +
		'CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP ' +
		'GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW ' +
		'KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN ' +
		'NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL ' +
		'SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES ' +
		'VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XCG XDR XOF XPD XPF XPT XSU XTS XUA XXX YER ZAR ZMW ZWG ZWL'
	).split(' '),
);

const PRICE_SHAPE = /^(\d+(?:\.\d+)?) ([A-Z]{3})$/;

export interface ParsedPrice {
	amount: number;
	currency: string;
}

/** "12.50 EUR" → {amount, currency}; undefined when the shape is wrong. */
export function parsePrice(value: string): ParsedPrice | undefined {
	const match = PRICE_SHAPE.exec(value.trim());
	if (!match || !ISO_4217.has(match[2])) return undefined;
	return { amount: Number(match[1]), currency: match[2] };
}

/** Why a price string is refused, or undefined when it is fine. */
export function priceProblem(value: string): string | undefined {
	const text = value.trim();
	if (/^\d+,\d+ [A-Za-z]{3}$/.test(text))
		return `"${value}" uses a comma: write the amount with "." as the decimal point, e.g. "9.99 EUR"`;
	const match = /^(\d+(?:\.\d+)?) ([A-Za-z]{3})$/.exec(text);
	if (!match)
		return `"${value}" is not a price: write a number, a space and a 3-letter ISO 4217 currency code, e.g. "9.99 USD"`;
	if (!/^[A-Z]{3}$/.test(match[2]) || !ISO_4217.has(match[2])) {
		return `"${match[2]}" in "${value}" is not an ISO 4217 currency code (3 capital letters, e.g. USD, EUR)`;
	}
	return undefined;
}

function httpsProblem(value: string): string | undefined {
	let url: URL;
	try {
		url = new URL(value.trim());
	} catch {
		return `"${value}" is not a URL`;
	}
	if (url.protocol !== 'https:') return `"${value}" must use https`;
	return undefined;
}

/** Image URLs may use http or https: the catalog requires https only for the product pages. */
function webUrlProblem(value: string): string | undefined {
	let url: URL;
	try {
		url = new URL(value.trim());
	} catch {
		return `"${value}" is not a URL`;
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:')
		return `"${value}" must be an http or https URL`;
	return undefined;
}

const TIMESTAMP_SOURCE = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(?::\\d{2})?(?:Z|[+-]\\d{2}:?\\d{2})';
const DATE_RANGE = new RegExp(`^${TIMESTAMP_SOURCE}/${TIMESTAMP_SOURCE}$`);

/** Splits an additional_image_link value (comma-separated string or array) into URLs. */
export function imageList(value: string): string[] {
	return value
		.split(',')
		.map((v) => v.trim())
		.filter((v) => v !== '');
}

/*
 * The schema uses zod's built-in checks (regular expressions, lengths, enums) with error maps
 * that explain a failure in detail only when it happens: this keeps a check at a few
 * microseconds per product, so 10,000 products are checked in tens of milliseconds.
 */
const PRICE = new RegExp(`^\\d+(?:\\.\\d+)? (?:${[...ISO_4217].join('|')})$`);
const HTTPS_URL = /^https:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/;
const WEB_URL = /^https?:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/;
const IMAGE_LIST = new RegExp(
	`^\\s*https?://[^\\s,/?#@]+(?:[/?#][^\\s,]*)?(?:\\s*,\\s*https?://[^\\s,/?#@]+(?:[/?#][^\\s,]*)?){0,${MAX_ADDITIONAL_IMAGES - 1}}\\s*,?\\s*$`,
);
const NO_MARKUP = /^(?![\s\S]*(?:<\/?[a-z][a-z0-9]*(?:\s[^<>]*)?\/?>|&(?:[a-z]+|#\d+);))/i;
const NOT_HEX = /^(?!#?(?:[0-9a-f]{3}|[0-9a-f]{6})$)/i;

type Explain = (value: unknown) => string;

/** An error map: "required" / "must be text" for type errors, else the explanation of the value. */
function explained(field: string, explain: Explain): z.ZodErrorMap {
	return (issue, ctx) => {
		if (issue.code === 'invalid_type') {
			return {
				message: ctx.data === undefined ? `"${field}" is required` : `"${field}" must be text`,
			};
		}
		return { message: explain(ctx.data) };
	};
}

const requiredText = (field: string, max?: number) => {
	let schema = z
		.string({ errorMap: explained(field, () => `"${field}" is required`) })
		.trim()
		.min(1);
	if (max) schema = schema.max(max, `is longer than ${max} characters`);
	return schema;
};

const text = () => z.string().trim().min(1, 'must not be empty');

const httpsUrl = (field: string) =>
	z
		.string({
			errorMap: explained(
				field,
				(v) => httpsProblem(String(v)) ?? `"${String(v)}" is not a valid https URL`,
			),
		})
		.regex(HTTPS_URL);

const imageUrl = (field: string) =>
	z
		.string({
			errorMap: explained(
				field,
				(v) => webUrlProblem(String(v)) ?? `"${String(v)}" is not a valid image URL`,
			),
		})
		.regex(WEB_URL);

const price = (field: string) =>
	z
		.string({
			errorMap: explained(
				field,
				(v) => priceProblem(String(v)) ?? `"${String(v)}" is not a valid price`,
			),
		})
		.regex(PRICE);

function imagesProblem(value: unknown): string {
	const urls = imageList(String(value));
	if (urls.length > MAX_ADDITIONAL_IMAGES)
		return `holds ${urls.length} images: at most ${MAX_ADDITIONAL_IMAGES} are allowed`;
	for (const url of urls) {
		const problem = webUrlProblem(url);
		if (problem) return problem;
	}
	return 'must be image URLs (http or https) separated by commas';
}

function enumOf<T extends readonly [string, ...string[]]>(field: string, values: T) {
	return z.enum(values as unknown as [string, ...string[]], {
		errorMap: explained(field, (v) => `must be one of: ${values.join(', ')} (got "${String(v)}")`),
	});
}

export const productSchema = z
	.object({
		id: requiredText('id'),
		product_key: z.string().optional(),
		title: requiredText('title', MAX_TITLE),
		description: requiredText('description', MAX_DESCRIPTION).regex(
			NO_MARKUP,
			'must be plain text: remove the HTML tags and entities',
		),
		availability: enumOf('availability', AVAILABILITY),
		condition: enumOf('condition', CONDITION),
		price: price('price'),
		link: httpsUrl('link'),
		image_link: imageUrl('image_link'),
		brand: text().optional(),
		gtin: text().optional(),
		mpn: text().optional(),
		mobile_link: httpsUrl('mobile_link').optional(),
		additional_image_link: z
			.string({ errorMap: explained('additional_image_link', imagesProblem) })
			.regex(IMAGE_LIST)
			.optional(),
		partnera_product_category: text().optional(),
		product_type: text().optional(),
		inventory: z
			.number({ invalid_type_error: 'must be a whole number' })
			.int('must be a whole number')
			.min(0, 'must not be negative')
			.optional(),
		sale_price: price('sale_price').optional(),
		sale_price_effective_date: z
			.string()
			.regex(
				DATE_RANGE,
				'is not a range <start>/<end> of ISO 8601 timestamps, e.g. 2026-11-27T00:00+01:00/2026-11-30T23:59+01:00',
			)
			.optional(),
		item_group_id: text().optional(),
		gender: enumOf('gender', GENDER).optional(),
		color: text().regex(NOT_HEX, 'must be a color name, not a hex code').optional(),
		size: text().optional(),
		age_group: enumOf('age_group', AGE_GROUP).optional(),
		custom_label_0: z.string().optional(),
		custom_label_1: z.string().optional(),
		custom_label_2: z.string().optional(),
		custom_label_3: z.string().optional(),
		custom_label_4: z.string().optional(),
	})
	.strict();

/**
 * The rules that join several attributes, as "attribute: message" lines (the format of
 * formatZodIssues). Runs on the normalized product whether or not the schema accepted it.
 */
export function crossFieldProblems(p: IDataObject): string[] {
	const problems: string[] = [];
	const has = (v: unknown) => v !== undefined && v !== null && String(v).trim() !== '';
	if (!has(p.brand) && !has(p.gtin) && !has(p.mpn))
		problems.push('brand: one of brand, gtin or mpn is required');
	if (
		p.availability === 'in stock' &&
		typeof p.inventory === 'number' &&
		p.inventory < 1 &&
		p.inventory >= 0
	) {
		problems.push('inventory: must be at least 1 when availability is "in stock"');
	}
	if (typeof p.sale_price === 'string' && typeof p.price === 'string') {
		const regular = parsePrice(p.price);
		const sale = parsePrice(p.sale_price);
		if (regular && sale) {
			if (regular.currency !== sale.currency) {
				problems.push(
					`sale_price: is in ${sale.currency} but price is in ${regular.currency}: use the same currency`,
				);
			} else if (sale.amount >= regular.amount) {
				problems.push(`sale_price: (${p.sale_price}) must be lower than price (${p.price})`);
			}
		}
	}
	if (
		typeof p.sale_price_effective_date === 'string' &&
		DATE_RANGE.test(p.sale_price_effective_date)
	) {
		const [start, end] = p.sale_price_effective_date.split('/').map((d) => Date.parse(d));
		if (!Number.isFinite(start) || !Number.isFinite(end)) {
			problems.push(
				`sale_price_effective_date: "${p.sale_price_effective_date}" holds an impossible date`,
			);
		} else if (start >= end) {
			problems.push('sale_price_effective_date: the start must be before the end');
		}
	}
	return problems;
}

/** Checks one normalized product: the request body when valid, else every problem found. */
export function checkProduct(product: IDataObject): { data?: IDataObject; errors: string[] } {
	const parsed = productSchema.safeParse(product);
	const errors = parsed.success ? [] : formatZodIssues(parsed.error);
	errors.push(...crossFieldProblems(product));
	return errors.length ? { errors } : { data: parsed.data as IDataObject, errors };
}

export type Product = z.infer<typeof productSchema>;

const STRINGY = new Set(PRODUCT_FIELDS.filter((f) => f !== 'inventory'));

/**
 * The request shape of one input: known attributes only, empty cells and nulls dropped, numbers
 * turned into text where the service wants text (ids, GTINs), inventory into a number, image
 * arrays joined. Returns the product and the names of input fields that were left out.
 */
export function normalizeProduct(input: IDataObject): { product: IDataObject; ignored: string[] } {
	const product: IDataObject = {};
	const ignored: string[] = [];
	for (const [key, raw] of Object.entries(input)) {
		if (!PRODUCT_FIELDS.includes(key)) {
			if (key !== 'item_group_key') ignored.push(key);
			continue;
		}
		if (raw === undefined || raw === null) continue;
		if (typeof raw === 'string' && raw.trim() === '') continue;
		let value: unknown = raw;
		if (key === 'additional_image_link' && Array.isArray(raw)) {
			value = raw
				.map((v) => String(v).trim())
				.filter((v) => v !== '')
				.join(',');
		} else if (key === 'inventory') {
			value = typeof raw === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : raw;
		} else if (STRINGY.has(key) && (typeof raw === 'number' || typeof raw === 'bigint')) {
			value = String(raw);
		} else if (typeof raw === 'string') {
			value = raw.trim();
		}
		product[key] = value as IDataObject[string];
	}
	return { product, ignored };
}

const VARIANT_FIELDS = ['size', 'color', 'gender', 'age_group'] as const;

function present(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	const text = String(value).trim();
	return text === '' ? undefined : text;
}

/**
 * Products that share a title but differ in size, color, gender or age group are variants: each
 * needs an item_group_id. Works on the raw input (before normalizeProduct), so that it can run
 * over all items cheaply. Returns a message per position that breaks this rule.
 */
export function variantProblems(products: Array<IDataObject | undefined>): Map<number, string> {
	const byTitle = new Map<string, number[]>();
	products.forEach((p, index) => {
		const title = present(p?.title);
		if (!p || title === undefined) return;
		if (!VARIANT_FIELDS.some((f) => present(p[f]) !== undefined)) return;
		const key = title.toLowerCase();
		const list = byTitle.get(key);
		if (list) list.push(index);
		else byTitle.set(key, [index]);
	});
	const problems = new Map<number, string>();
	for (const indexes of byTitle.values()) {
		if (indexes.length < 2) continue;
		const signature = (i: number) =>
			VARIANT_FIELDS.map((f) => present(products[i]?.[f]) ?? '').join('|');
		if (new Set(indexes.map(signature)).size < 2) continue;
		for (const i of indexes) {
			if (present(products[i]?.item_group_id) === undefined) {
				const others = indexes
					.filter((j) => j !== i)
					.map((j) => `"${present(products[j]?.id) ?? `item ${j + 1}`}"`);
				const named =
					others.length > 5
						? `${others.slice(0, 5).join(', ')} and ${others.length - 5} more`
						: others.join(', ');
				problems.set(
					i,
					`item_group_id: is required for variants: this product shares its title with ${named} but differs in size, color, gender or age group`,
				);
			}
		}
	}
	return problems;
}
