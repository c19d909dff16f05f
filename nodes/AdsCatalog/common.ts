import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';

import { readOptions } from '../shared/descriptions';
import { locatorValue } from '../shared/locators';
import { showFor } from '../shared/router';
import type { PlatformContext, PlatformRequest } from '../shared/transport';
import { platformRequest } from '../shared/transport';
import { adsListSearch } from '../shared/listSearch';

/** What every AdsCatalog operation shares: ids, locators, the Options collection, ads requests. */

export const API_VERSION = '/12';
const ID_REGEX = '^[A-Za-z0-9_-]+$';

export function catalogLocator(resource: string, operation: string | string[]): INodeProperties {
	return {
		displayName: 'Catalog',
		name: 'catalogId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		displayOptions: showFor(resource, operation),
		description: 'The product catalog. A user has at most one.',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchCatalogs', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: '1473981234567890123',
				validation: [{ type: 'regex', properties: { regex: ID_REGEX, errorMessage: 'Not a catalog ID' } }],
			},
		],
	};
}

export function productSetLocator(resource: string, operation: string | string[]): INodeProperties {
	return {
		displayName: 'Product Set',
		name: 'productSetId',
		type: 'resourceLocator',
		default: { mode: 'id', value: '' },
		required: true,
		displayOptions: showFor(resource, operation),
		description: 'The product set of the catalog chosen above',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchProductSets', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: '1480000000000000001',
				validation: [{ type: 'regex', properties: { regex: ID_REGEX, errorMessage: 'Not a product set ID' } }],
			},
		],
	};
}

export { optionsCollection, readOptions } from '../shared/descriptions';

function checkId(ctx: IExecuteFunctions, raw: unknown, field: string, itemIndex: number): string {
	return locatorValue(ctx.getNode(), raw, field, itemIndex, (v) => {
		const trimmed = v.trim();
		return new RegExp(ID_REGEX).test(trimmed) ? trimmed : undefined;
	});
}

export function catalogIdOf(ctx: IExecuteFunctions, itemIndex: number): string {
	return checkId(ctx, ctx.getNodeParameter('catalogId', itemIndex, ''), 'Catalog', itemIndex);
}

export function productSetIdOf(ctx: IExecuteFunctions, itemIndex: number): string {
	return checkId(ctx, ctx.getNodeParameter('productSetId', itemIndex, ''), 'Product Set', itemIndex);
}

export function idParameter(ctx: IExecuteFunctions, name: string, label: string, itemIndex: number): string {
	return checkId(ctx, ctx.getNodeParameter(name, itemIndex, ''), label, itemIndex);
}

export function catalogPath(catalogId: string, suffix = ''): string {
	return `${API_VERSION}/product_catalogs/${encodeURIComponent(catalogId)}${suffix}`;
}

/** An advertising request; the rate-limit wait comes from the operation's Options. */
export async function adsRequest<T = IDataObject>(
	this: IExecuteFunctions,
	itemIndex: number,
	request: Omit<PlatformRequest, 'api' | 'itemIndex'>,
): Promise<T> {
	const options = readOptions(this, itemIndex);
	return await platformRequest.call<PlatformContext, [PlatformRequest], Promise<T>>(this, {
		...request,
		api: 'ads',
		itemIndex,
		maxRateLimitWait: options.maxRateLimitWait as number | undefined,
	});
}

/** `data` of an ads envelope (an object; arrays are returned as they are). */
export function adsData<T = IDataObject>(body: unknown): T {
	if (body && typeof body === 'object' && 'data' in (body as object)) return (body as { data: T }).data;
	return body as T;
}

// ---- list search ----

const catalogLabel = (o: IDataObject, id: string) => `${String(o.name ?? id)} (${id})`;

export async function searchCatalogs(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await adsListSearch(this, { path: `${API_VERSION}/product_catalogs`, paginationToken, filter, label: catalogLabel });
}

/**
 * The service publishes no endpoint that lists the product sets of a catalog. The list asks for
 * GET .../product_sets and, when the service does not offer it (404 or 405), says so in the list
 * instead of failing: the set can always be given by ID.
 */
export async function searchProductSets(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const raw = this.getCurrentNodeParameter('catalogId', { extractValue: true }) as unknown;
	const catalogId = String(raw && typeof raw === 'object' ? ((raw as IDataObject).value ?? '') : (raw ?? '')).trim();
	// The editor would show a bare "No results": say what to choose first (the entry selects nothing).
	if (!catalogId) return { results: [{ name: 'Choose a Catalog First', value: '' }] };
	return await adsListSearch(this, {
		path: catalogPath(catalogId, '/product_sets'),
		paginationToken,
		filter,
		unlistedNoun: 'Product Sets',
		label: (s: IDataObject, id: string) => `${String(s.name ?? id)} (${String(s.type ?? '')})`,
	});
}
