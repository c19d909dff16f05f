import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { limitProperty, optionsCollection, readOptions, returnAllProperty } from '../shared/descriptions';
import { locatorValue } from '../shared/locators';
import type { ItemOperation } from '../shared/router';
import { showFor } from '../shared/router';
import type { PlatformContext, PlatformRequest } from '../shared/transport';
import { adsListSearch } from '../shared/listSearch';
import { paginate, platformRequest } from '../shared/transport';

/**
 * What the AdsCreatives operations share: the ad account locator, object locators, the Options
 * collection, list / get / delete operations built from a description of the object kind, and
 * the list searches behind the "From List" modes.
 */

const ACCOUNT_ID = /^[A-Za-z0-9]{1,32}$/;

/** An object kind of the creatives API: where it lives and how its id looks. */
export interface CreativeKind {
	resource: string;
	/** Lower-case noun for descriptions and actions: 'poll card'. */
	noun: string;
	/** Its plural when it is not noun + 's' ('preroll calls-to-action'). */
	plural?: string;
	/** Name of the id (resource locator) parameter. */
	idName: string;
	/** Label of that parameter in the UI. */
	idLabel: string;
	/** Path below /12/accounts/:account_id, e.g. /cards/poll. */
	path: string;
	idRegex: string;
	idPlaceholder: string;
	/** listSearch method of the "From List" mode. */
	searchMethod: string;
	/** Page size maximum of the list endpoint. */
	maxCount: number;
	/** Whether the endpoint takes `q` for a name search in the list. */
	searchByQ?: boolean;
}

export const KINDS = {
	card: { resource: 'card', noun: 'card', idName: 'cardId', idLabel: 'Card', path: '/cards', idRegex: '^[A-Za-z0-9]{1,32}$', idPlaceholder: '1b3ik', searchMethod: 'searchCards', maxCount: 200, searchByQ: true },
	pollCard: { resource: 'pollCard', noun: 'poll card', idName: 'pollCardId', idLabel: 'Poll Card', path: '/cards/poll', idRegex: '^[A-Za-z0-9]{1,32}$', idPlaceholder: '57i77', searchMethod: 'searchPollCards', maxCount: 1000, searchByQ: true },
	videoConversationCard: { resource: 'videoConversationCard', noun: 'video conversation card', idName: 'videoConversationCardId', idLabel: 'Video Conversation Card', path: '/cards/video_conversation', idRegex: '^[A-Za-z0-9]{1,32}$', idPlaceholder: '59woh', searchMethod: 'searchVideoConversationCards', maxCount: 1000, searchByQ: true },
	mediaLibrary: { resource: 'mediaLibrary', noun: 'media library object', idName: 'mediaKey', idLabel: 'Media Key', path: '/media_library', idRegex: '^\\d+_\\d+$', idPlaceholder: '3_1151345051455284224', searchMethod: 'searchMediaLibrary', maxCount: 50, searchByQ: true },
	accountMedia: { resource: 'accountMedia', noun: 'account media item', idName: 'accountMediaId', idLabel: 'Account Media', path: '/account_media', idRegex: '^[A-Za-z0-9]{1,32}$', idPlaceholder: '2pnfd', searchMethod: 'searchAccountMedia', maxCount: 1000 },
	draftPost: { resource: 'draftPost', noun: 'draft post', idName: 'draftPostId', idLabel: 'Draft Post', path: '/draft_tweets', idRegex: '^\\d{1,19}$', idPlaceholder: '994788364334325760', searchMethod: 'searchDraftPosts', maxCount: 200 },
	scheduledPost: { resource: 'scheduledPost', noun: 'scheduled post', idName: 'scheduledPostId', idLabel: 'Scheduled Post', path: '/scheduled_tweets', idRegex: '^\\d{1,19}$', idPlaceholder: '870321875435442177', searchMethod: 'searchScheduledPosts', maxCount: 200 },
	prerollCta: { resource: 'prerollCta', noun: 'preroll call-to-action', plural: 'preroll calls-to-action', idName: 'prerollCtaId', idLabel: 'Preroll Call-to-Action', path: '/preroll_call_to_actions', idRegex: '^[A-Za-z0-9]{1,32}$', idPlaceholder: '8f0', searchMethod: 'searchPrerollCtas', maxCount: 1000 },
} satisfies Record<string, CreativeKind>;

/** 'a poll card', 'an account media item': generated action names stay grammatical. */
export function aOrAn(noun: string): string {
	return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

export function pluralOf(kind: CreativeKind): string {
	return kind.plural ?? `${kind.noun}s`;
}

// ---- the ad account ----

/** The ad account every creative belongs to: chosen from GET /12/accounts, or by ID. */
export function accountLocator(resource: string): INodeProperties {
	return {
		displayName: 'Ad Account',
		name: 'accountId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		displayOptions: { show: { resource: [resource] } },
		description: 'The ad account (associated with the authenticated user) that holds the creatives',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchAccounts', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: '18ce54d4x5t',
				validation: [{ type: 'regex', properties: { regex: ACCOUNT_ID.source, errorMessage: 'An ad account ID is a short alphanumeric string' } }],
			},
		],
	};
}

export function accountId(ctx: IExecuteFunctions, itemIndex: number): string {
	return locatorValue(ctx.getNode(), ctx.getNodeParameter('accountId', itemIndex, ''), 'Ad Account', itemIndex, (v) =>
		ACCOUNT_ID.test(v.trim()) ? v.trim() : undefined,
	);
}

export function accountPath(ctx: IExecuteFunctions, itemIndex: number, rest: string): string {
	return `/12/accounts/${accountId(ctx, itemIndex)}${rest}`;
}

// ---- object ids ----

export function objectLocator(kind: CreativeKind, operations: string[]): INodeProperties {
	return {
		displayName: kind.idLabel,
		name: kind.idName,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		displayOptions: showFor(kind.resource, operations),
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: kind.searchMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: kind.idPlaceholder,
				validation: [{ type: 'regex', properties: { regex: kind.idRegex, errorMessage: `Not ${aOrAn(kind.noun)} ID` } }],
			},
		],
	};
}

export function objectId(ctx: IExecuteFunctions, itemIndex: number, kind: CreativeKind): string {
	const regex = new RegExp(kind.idRegex);
	const id = locatorValue(ctx.getNode(), ctx.getNodeParameter(kind.idName, itemIndex, ''), kind.idLabel, itemIndex, (v) =>
		regex.test(v.trim()) ? v.trim() : undefined,
	);
	return encodeURIComponent(id);
}

/** A comma list of ids for a filter: trimmed, at most 200. */
export function idList(ctx: IExecuteFunctions, value: unknown, label: string, itemIndex: number): string | undefined {
	const ids = String(value ?? '')
		.split(',')
		.map((v) => v.trim())
		.filter(Boolean);
	if (!ids.length) return undefined;
	if (ids.length > 200) {
		throw new NodeOperationError(ctx.getNode(), `Invalid input in item ${itemIndex + 1}: ${label}: at most 200 values (got ${ids.length})`, { itemIndex });
	}
	return ids.join(',');
}

// ---- requests ----

/** An advertising request; the rate-limit wait comes from the operation's Options. */
export async function adsRequest(
	ctx: IExecuteFunctions,
	itemIndex: number,
	request: Omit<PlatformRequest, 'api' | 'itemIndex'>,
): Promise<IDataObject> {
	return await platformRequest.call<PlatformContext, [PlatformRequest], Promise<IDataObject>>(ctx, {
		...request,
		api: 'ads',
		itemIndex,
		maxRateLimitWait: readOptions(ctx, itemIndex).maxRateLimitWait as number | undefined,
	});
}

/** `data` of an ads envelope; endpoints that answer with an array holding one object give that object. */
export function single(body: IDataObject): IDataObject {
	const data = body && typeof body === 'object' && 'data' in body ? body.data : body;
	return (Array.isArray(data) ? data[0] : data) as IDataObject;
}

/** Removes undefined and empty-string values (unset optional fields are not sent). */
export function compact(input: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(input)) if (value !== undefined && value !== '') out[key] = value;
	return out;
}

// ---- list, get, delete ----

export interface ListSpec {
	/** Whether the endpoint takes with_deleted and sort_by. */
	withDeleted?: boolean;
	sortBy?: boolean;
	/** Whether the endpoint takes with_total_count. */
	withTotalCount?: boolean;
	/** Options of the Filters collection. */
	filters?: INodeProperties[];
	/** Query parameters from the Filters collection (validated; throws naming the field). */
	readFilters?: (ctx: IExecuteFunctions, itemIndex: number, filters: IDataObject) => IDataObject;
}

const withDeletedOption: INodeProperties = {
	displayName: 'With Deleted',
	name: 'withDeleted',
	type: 'boolean',
	default: false,
	description: 'Whether to include deleted objects',
};

const withTotalCountOption: INodeProperties = {
	displayName: 'With Total Count',
	name: 'withTotalCount',
	type: 'boolean',
	default: false,
	description:
		'Whether to add total_count (how many objects match, counted by the service) to every item returned. Asked for with the first page only; such requests have a lower rate limit (200 per 15 minutes).',
};

const sortOptions: INodeProperties[] = [
	{
		displayName: 'Sort By',
		name: 'sortBy',
		type: 'string',
		default: '',
		placeholder: 'created_at',
		description: 'An attribute of the objects to sort by (sent as sort_by, e.g. created_at-desc)',
	},
	{
		displayName: 'Sort Direction',
		name: 'sortDirection',
		type: 'options',
		default: 'asc',
		options: [
			{ name: 'Ascending', value: 'asc' },
			{ name: 'Descending', value: 'desc' },
		],
		description: 'Used with Sort By',
	},
];

function listQuery(ctx: IExecuteFunctions, itemIndex: number, spec: ListSpec): IDataObject {
	const options = readOptions(ctx, itemIndex);
	const qs: IDataObject = spec.readFilters
		? spec.readFilters(ctx, itemIndex, (ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject) ?? {})
		: {};
	if (spec.withDeleted && options.withDeleted) qs.with_deleted = true;
	const sortBy = String(options.sortBy ?? '').trim();
	if (spec.sortBy && sortBy) {
		if (!/^[a-z_]+$/.test(sortBy)) {
			throw new NodeOperationError(ctx.getNode(), `Invalid input in item ${itemIndex + 1}: Sort By: "${sortBy}" is not an attribute name`, { itemIndex });
		}
		qs.sort_by = `${sortBy}-${options.sortDirection === 'desc' ? 'desc' : 'asc'}`;
	}
	return compact(qs);
}

/** Get Many: Return All / Limit through the cursor, count within the endpoint's range. */
export function listOperation(kind: CreativeKind, spec: ListSpec = {}, description?: string): ItemOperation {
	const show = { resource: [kind.resource], operation: ['getMany'] };
	const extraOptions = [
		...(spec.withDeleted ? [withDeletedOption] : []),
		...(spec.sortBy ? sortOptions : []),
		...(spec.withTotalCount ? [withTotalCountOption] : []),
	];
	const properties: INodeProperties[] = [returnAllProperty(show), limitProperty(show, 1000)];
	if (spec.filters?.length) {
		properties.push({
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			displayOptions: { show },
			options: spec.filters,
		});
	}
	properties.push(optionsCollection(kind.resource, 'getMany', extraOptions));
	return {
		option: {
			name: 'Get Many',
			value: 'getMany',
			description: description ?? `List the ${pluralOf(kind)} of the ad account`,
			action: `Get many ${pluralOf(kind)}`,
		},
		properties,
		async execute(this: IExecuteFunctions, itemIndex: number) {
			const qs = listQuery(this, itemIndex, spec);
			// with_total_count is refused together with a cursor: only the first request asks for it.
			const withTotalCount = spec.withTotalCount === true && readOptions(this, itemIndex).withTotalCount === true;
			let totalCount: IDataObject[string];
			const rows = await paginate.call(
				this,
				{
					method: 'GET',
					path: accountPath(this, itemIndex, kind.path),
					api: 'ads',
					qs,
					itemIndex,
					maxRateLimitWait: readOptions(this, itemIndex).maxRateLimitWait as number | undefined,
				},
				{
					returnAll: this.getNodeParameter('returnAll', itemIndex, false) as boolean,
					limit: this.getNodeParameter('limit', itemIndex, 50) as number,
					pageSizeParam: 'count',
					maxPageSize: kind.maxCount,
					style: 'ads',
					...(withTotalCount
						? {
								firstPageQs: { with_total_count: true },
								onPage: (body: IDataObject) => {
									if (totalCount === undefined && body?.total_count !== undefined) totalCount = body.total_count;
								},
							}
						: {}),
				},
			);
			return withTotalCount && totalCount !== undefined ? rows.map((row) => ({ ...row, total_count: totalCount })) : rows;
		},
	};
}

export function getOperation(kind: CreativeKind, spec: { withDeleted?: boolean } = {}): ItemOperation {
	return {
		option: { name: 'Get', value: 'get', description: `Get ${aOrAn(kind.noun)}`, action: `Get ${aOrAn(kind.noun)}` },
		properties: [objectLocator(kind, ['get']), optionsCollection(kind.resource, 'get', spec.withDeleted ? [withDeletedOption] : [])],
		async execute(this: IExecuteFunctions, itemIndex: number) {
			const id = objectId(this, itemIndex, kind);
			const qs: IDataObject = spec.withDeleted && readOptions(this, itemIndex).withDeleted ? { with_deleted: true } : {};
			return single(await adsRequest(this, itemIndex, { method: 'GET', path: accountPath(this, itemIndex, `${kind.path}/${id}`), qs }));
		},
	};
}

export function deleteOperation(kind: CreativeKind, spec: { hard?: boolean; notice?: string; description?: string } = {}): ItemOperation {
	const description = spec.description ?? (spec.hard
		? `Delete ${aOrAn(kind.noun)} for good (hard delete: it cannot be retrieved afterwards)`
		: `Delete ${aOrAn(kind.noun)} (soft delete: still returned with With Deleted)`);
	const properties: INodeProperties[] = [objectLocator(kind, ['delete'])];
	if (spec.hard) {
		properties.push({
			displayName:
				spec.notice ?? `The ${kind.noun} is deleted for good: it cannot be retrieved or restored afterwards, and posts that use it lose it`,
			name: 'hardDeleteNotice',
			type: 'notice',
			default: '',
			displayOptions: showFor(kind.resource, 'delete'),
		});
	}
	properties.push(optionsCollection(kind.resource, 'delete'));
	return {
		option: { name: 'Delete', value: 'delete', description, action: `Delete ${aOrAn(kind.noun)}` },
		properties,
		async execute(this: IExecuteFunctions, itemIndex: number) {
			const id = objectId(this, itemIndex, kind);
			return single(await adsRequest(this, itemIndex, { method: 'DELETE', path: accountPath(this, itemIndex, `${kind.path}/${id}`) }));
		},
	};
}

// ---- list searches ("From List" modes) ----

function currentAccount(ctx: ILoadOptionsFunctions): string {
	const raw = ctx.getCurrentNodeParameter('accountId', { extractValue: true }) as unknown;
	const value = String(raw && typeof raw === 'object' ? ((raw as IDataObject).value ?? '') : (raw ?? '')).trim();
	return ACCOUNT_ID.test(value) ? value : '';
}

function label(o: IDataObject, id: string): string {
	const name = o.name ?? (typeof o.text === 'string' ? o.text.slice(0, 60) : undefined) ?? o.call_to_action ?? o.creative_type;
	return name ? `${String(name)} (${id})` : id;
}

/**
 * GET /12/accounts is not part of the creatives document; when the service does not answer it
 * (404 or 405) the list says so and the account can be given by ID.
 */
export async function searchAccounts(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await adsListSearch(this, { path: '/12/accounts', paginationToken, filter, unlistedNoun: 'Ad Accounts', label });
}

function searchFor(kind: CreativeKind, idField = 'id') {
	return async function (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
		const account = currentAccount(this);
		// The editor would show a bare "No results": say what to choose first (the entry selects nothing).
		if (!account) return { results: [{ name: 'Choose an Ad Account First', value: '' }] };
		const useQ = kind.searchByQ === true;
		const qs: IDataObject = { count: Math.min(kind.maxCount, 200) };
		if (useQ && filter) qs.q = filter.slice(0, 80);
		return await adsListSearch(this, {
			path: `/12/accounts/${account}${kind.path}`,
			qs,
			paginationToken,
			filter: useQ ? undefined : filter,
			filterFields: ['name', idField, 'text'],
			idField,
			label,
		});
	};
}

export const listSearch = {
	searchAccounts,
	searchCards: searchFor(KINDS.card),
	searchPollCards: searchFor(KINDS.pollCard),
	searchVideoConversationCards: searchFor(KINDS.videoConversationCard),
	searchMediaLibrary: searchFor(KINDS.mediaLibrary, 'media_key'),
	searchAccountMedia: searchFor(KINDS.accountMedia),
	searchDraftPosts: searchFor(KINDS.draftPost),
	searchScheduledPosts: searchFor(KINDS.scheduledPost),
	searchPrerollCtas: searchFor(KINDS.prerollCta),
};
