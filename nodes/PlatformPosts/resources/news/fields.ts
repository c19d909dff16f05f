import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

const NEWS_FIELDS = [
	'category',
	'cluster_posts_results',
	'contexts',
	'disclaimer',
	'hook',
	'keywords',
	'last_updated_at_ms',
	'name',
	'summary',
];

/**
 * The story's time of last update comes back as `last_updated_at_ms`, which is what the option
 * stores, but the service asks for it as `updated_at`: the stored value is sent under that name.
 */
const WIRE_NEWS_FIELDS: Record<string, string> = { last_updated_at_ms: 'updated_at' };

export const newsFieldsProperty: INodeProperties = {
	displayName: 'News Fields',
	name: 'newsFields',
	type: 'multiOptions',
	default: [],
	description:
		'Fields of each story to return besides its ID (news.fields); without any the service returns the name',
	options: NEWS_FIELDS.map((value) => ({
		name: value,
		value,
		...(WIRE_NEWS_FIELDS[value]
			? { description: `The time of the last update (asked for as ${WIRE_NEWS_FIELDS[value]})` }
			: {}),
	})),
};

export function newsFieldsQuery(ctx: IExecuteFunctions, itemIndex: number): Record<string, string> {
	const fields = (ctx.getNodeParameter('newsFields', itemIndex, []) as string[]) ?? [];
	const wire = [...new Set(fields.map((field) => WIRE_NEWS_FIELDS[field] ?? field))];
	return wire.length ? { 'news.fields': wire.join(',') } : {};
}

/** A news story URL: https://<host>/i/trending/<id>. */
export const NEWS_URL_REGEX = '^https?://[^/\\s]+/i/trending/(\\d{1,19})(?:[/?#].*)?$';

/** A news story id from an id or a story URL (https://<host>/i/trending/<id>). */
export function newsIdFrom(value: string): string | undefined {
	const trimmed = value.trim();
	if (/^\d{1,19}$/.test(trimmed)) return trimmed;
	return trimmed.match(new RegExp(NEWS_URL_REGEX, 'i'))?.[1];
}
