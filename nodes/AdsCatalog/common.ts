import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';

import { ADS_API_VERSION, adsIdParameter } from '../shared/ads';
import { adsListSearch } from '../shared/listSearch';

/** What every AdsCatalog operation shares: the catalog and product set locators, ids, list searches. */

const ID_REGEX = '^[A-Za-z0-9_-]+$';
const ID = new RegExp(ID_REGEX);

export function catalogLocator(): INodeProperties {
	return {
		displayName: 'Catalog',
		name: 'catalogId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
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
				validation: [
					{ type: 'regex', properties: { regex: ID_REGEX, errorMessage: 'Not a catalog ID' } },
				],
			},
		],
	};
}

export function productSetLocator(): INodeProperties {
	return {
		displayName: 'Product Set',
		name: 'productSetId',
		type: 'resourceLocator',
		default: { mode: 'id', value: '' },
		required: true,
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
				validation: [
					{ type: 'regex', properties: { regex: ID_REGEX, errorMessage: 'Not a product set ID' } },
				],
			},
		],
	};
}

/** The Scheduled Feed ID field of Update and Delete (the service offers no list to choose from). */
export const feedIdProperty: INodeProperties = {
	displayName: 'Scheduled Feed ID',
	name: 'feedId',
	type: 'string',
	default: '',
	required: true,
	description: 'The ID of the feed (Scheduled Feed > Get Many shows it)',
};

export function catalogIdOf(ctx: IExecuteFunctions, itemIndex: number): string {
	return adsIdParameter(ctx, 'catalogId', 'Catalog', ID, itemIndex);
}

export function productSetIdOf(ctx: IExecuteFunctions, itemIndex: number): string {
	return adsIdParameter(ctx, 'productSetId', 'Product Set', ID, itemIndex);
}

export function feedIdOf(ctx: IExecuteFunctions, itemIndex: number): string {
	return adsIdParameter(ctx, 'feedId', 'Scheduled Feed ID', ID, itemIndex);
}

export function catalogPath(catalogId: string, suffix = ''): string {
	return `${ADS_API_VERSION}/product_catalogs/${encodeURIComponent(catalogId)}${suffix}`;
}

// ---- list search ----

const catalogLabel = (o: IDataObject, id: string) => `${String(o.name ?? id)} (${id})`;

export async function searchCatalogs(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await adsListSearch(this, {
		path: `${ADS_API_VERSION}/product_catalogs`,
		paginationToken,
		filter,
		label: catalogLabel,
	});
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
	const catalogId = String(
		raw && typeof raw === 'object' ? ((raw as IDataObject).value ?? '') : (raw ?? ''),
	).trim();
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
