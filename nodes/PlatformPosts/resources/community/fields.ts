import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

const COMMUNITY_FIELDS = [
	'access',
	'created_at',
	'description',
	'join_policy',
	'member_count',
	'name',
];

export const communityFieldsProperty: INodeProperties = {
	displayName: 'Community Fields',
	name: 'communityFields',
	type: 'multiOptions',
	default: [],
	description: 'Fields of each Community to return besides ID and name (community.fields)',
	options: COMMUNITY_FIELDS.map((value) => ({ name: value, value })),
};

export function communityFieldsQuery(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const fields = (ctx.getNodeParameter('communityFields', itemIndex, []) as string[]) ?? [];
	return fields.length ? { 'community.fields': fields.join(',') } : {};
}

/** A Community URL: https://<host>/i/communities/<id>. */
export const COMMUNITY_URL_REGEX = '^https?://[^/\\s]+/i/communities/(\\d{1,19})(?:[/?#].*)?$';

/** A Community id from an id or a Community URL. */
export function communityIdFrom(value: string): string | undefined {
	const trimmed = value.trim();
	if (/^\d{1,19}$/.test(trimmed)) return trimmed;
	return trimmed.match(new RegExp(COMMUNITY_URL_REGEX, 'i'))?.[1];
}
