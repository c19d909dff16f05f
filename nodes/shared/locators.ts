import type {
	IExecuteFunctions,
	INode,
	INodeParameterResourceLocator,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { splitList } from './lists';

/** Post id from an id or a post URL (https://<host>/<user>/status/<id>). */
export function postIdFrom(value: string): string | undefined {
	const trimmed = value.trim();
	if (/^\d{1,19}$/.test(trimmed)) return trimmed;
	const match = trimmed.match(
		/^https?:\/\/[^/\s]+\/(?:[^/\s]+|i\/web)\/status(?:es)?\/(\d{1,19})(?:[/?#].*)?$/i,
	);
	return match?.[1];
}

/** A list's address: https://<host>/i/lists/<id>. */
export const LIST_URL_REGEX = '^https?://[^/\\s]+/i/lists/(\\d{1,19})(?:[/?#].*)?$';

/** List id from an id or a list URL. */
export function listIdFrom(value: string): string | undefined {
	const trimmed = value.trim();
	if (/^\d{1,19}$/.test(trimmed)) return trimmed;
	return trimmed.match(new RegExp(LIST_URL_REGEX, 'i'))?.[1];
}

/**
 * The List field: from the authenticated user's lists (the node needs listSearch.searchOwnedLists from
 * listSearch.ts), by ID or by URL.
 */
export function listLocator(
	description = 'The list',
	name = 'listId',
	displayOptions?: INodeProperties['displayOptions'],
): INodeProperties {
	return {
		displayName: 'List',
		name,
		displayOptions,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchOwnedLists', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: '1146654567674912769',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\d{1,19}$', errorMessage: 'A list ID is 1-19 digits' },
					},
				],
			},
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: 'https://x.com/i/lists/1146654567674912769',
				extractValue: { type: 'regex', regex: LIST_URL_REGEX },
				validation: [
					{ type: 'regex', properties: { regex: LIST_URL_REGEX, errorMessage: 'Not a list URL' } },
				],
			},
		],
	};
}

export const POST_URL_REGEX =
	'^https?://[^/\\s]+/(?:[^/\\s]+|i/web)/status(?:es)?/(\\d{1,19})(?:[/?#].*)?$';

/** A resource locator for a post: by ID or by URL. */
export function postLocator(
	name: string,
	displayName: string,
	displayOptions?: INodeProperties['displayOptions'],
	required = true,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode: 'id', value: '' },
		required,
		displayOptions,
		description: 'The post, by its ID or by its URL',
		modes: [
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: '1346889436626259968',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\d{1,19}$', errorMessage: 'A post ID is 1-19 digits' },
					},
				],
			},
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: 'https://x.com/user/status/1346889436626259968',
				extractValue: { type: 'regex', regex: POST_URL_REGEX },
				validation: [
					{ type: 'regex', properties: { regex: POST_URL_REGEX, errorMessage: 'Not a post URL' } },
				],
			},
		],
	};
}

/** Reads a resource locator value (n8n extracts URL modes already; ids and URLs are both accepted). */
export function locatorValue(
	node: INode,
	raw: unknown,
	field: string,
	itemIndex: number,
	parse: (value: string) => string | undefined = (v) => (v.trim() ? v.trim() : undefined),
): string {
	const value =
		raw && typeof raw === 'object'
			? String((raw as INodeParameterResourceLocator).value ?? '')
			: String(raw ?? '');
	const parsed = parse(value);
	if (!parsed) {
		throw new NodeOperationError(
			node,
			`"${field}" in item ${itemIndex + 1} is not valid: "${value}"`,
			{ itemIndex },
		);
	}
	return parsed;
}

const USERNAME = /^@?([A-Za-z0-9_]{1,15})$/;
export const PROFILE_URL_REGEX = '^https?://[^/\\s]+/@?([A-Za-z0-9_]{1,15})/?(?:[?#].*)?$';
const RESERVED_PATHS = new Set([
	'home',
	'i',
	'search',
	'explore',
	'notifications',
	'messages',
	'settings',
	'intent',
]);

export type UserRef = { by: 'id' | 'username'; value: string };

/** A user from an ID, an @username or a profile URL. */
export function userRefFrom(mode: string, raw: string): UserRef | undefined {
	const value = raw.trim();
	if (mode === 'id') return /^\d{1,19}$/.test(value) ? { by: 'id', value } : undefined;
	if (mode === 'url') {
		const match = value.match(new RegExp(PROFILE_URL_REGEX, 'i'));
		if (!match || RESERVED_PATHS.has(match[1].toLowerCase())) return undefined;
		return { by: 'username', value: match[1] };
	}
	const match = value.match(USERNAME);
	return match ? { by: 'username', value: match[1] } : undefined;
}

/** A resource locator for a user: by username, by ID or by profile URL. */
export function userLocator(
	name: string,
	displayOptions?: INodeProperties['displayOptions'],
): INodeProperties {
	return {
		displayName: 'User',
		name,
		type: 'resourceLocator',
		default: { mode: 'username', value: '' },
		required: true,
		displayOptions,
		description: 'The user, by handle (the @username, e.g. n8n_io), by ID or by profile URL',
		modes: [
			{
				displayName: 'Handle',
				name: 'username',
				type: 'string',
				placeholder: 'n8n_io',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: '^@?[A-Za-z0-9_]{1,15}$',
							errorMessage: 'A username is 1-15 letters, digits or _',
						},
					},
				],
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: '2244994945',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\d{1,19}$', errorMessage: 'A user ID is 1-19 digits' },
					},
				],
			},
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: 'https://x.com/n8n_io',
				validation: [
					{
						type: 'regex',
						properties: { regex: PROFILE_URL_REGEX, errorMessage: 'Not a profile URL' },
					},
				],
			},
		],
	};
}

/** A user from a locator value (a plain string is taken as an ID when all digits, else as a username). */
export function userRefFromValue(
	node: INode,
	raw: unknown,
	itemIndex: number,
	field = 'User',
): UserRef {
	const locator =
		typeof raw === 'object' && raw !== null ? (raw as INodeParameterResourceLocator) : undefined;
	const value = String(locator ? (locator.value ?? '') : (raw ?? ''));
	const mode = locator ? String(locator.mode) : /^\d+$/.test(value.trim()) ? 'id' : 'username';
	const ref =
		userRefFrom(mode, value) ?? (mode === 'username' ? userRefFrom('url', value) : undefined);
	if (!ref) {
		throw new NodeOperationError(
			node,
			`"${field}" in item ${itemIndex + 1} is not a valid ${mode === 'id' ? 'user ID' : mode === 'url' ? 'profile URL' : 'username'}: "${value}"`,
			{
				itemIndex,
			},
		);
	}
	return ref;
}

/** Reads a user locator (a plain string is taken as an ID when all digits, else as a username). */
export function userRefParameter(ctx: IExecuteFunctions, name: string, itemIndex: number): UserRef {
	return userRefFromValue(ctx.getNode(), ctx.getNodeParameter(name, itemIndex), itemIndex);
}

/** Reads the post locator `name` (an ID or a post URL), refused naming the Post field and the item. */
export function postIdParameter(ctx: IExecuteFunctions, name: string, itemIndex: number): string {
	return locatorValue(
		ctx.getNode(),
		ctx.getNodeParameter(name, itemIndex, ''),
		'Post',
		itemIndex,
		postIdFrom,
	);
}

/** Post ids from a list of ids and post URLs (comma, space or newline separated, or an array). */
export function postIdsFrom(raw: unknown): { ids: string[]; invalid: string[] } {
	const parts = splitList(raw);
	const ids: string[] = [];
	const invalid: string[] = [];
	for (const part of parts) {
		const id = postIdFrom(part);
		if (id) ids.push(id);
		else invalid.push(part);
	}
	return { ids, invalid };
}
