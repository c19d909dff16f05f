import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ItemOperation, OperationContext } from '../shared/router';
import { deletedResult } from '../shared/router';
import { unwrapData } from '../shared/transport';
import {
	catalogIdOf,
	catalogLocator,
	catalogPath,
	feedIdOf,
	feedIdProperty,
	productSetIdOf,
	productSetLocator,
} from './common';

/**
 * The objects of a catalog that Get and Delete act on: where each lives below its catalog and
 * which field chooses it. The catalog's own locator is a field of the resource (Product, Product
 * Set, Scheduled Feed), except for the catalog itself, which its field chooses.
 */
export interface CatalogObject {
	/** Path below the catalog; '' for the catalog itself. */
	path: string;
	/** The field that chooses the object. */
	field: INodeProperties;
	/** Reads the object's id; absent for the catalog itself (its id is the catalog's). */
	idOf?: (ctx: IExecuteFunctions, itemIndex: number) => string;
}

export const CATALOG_OBJECTS = {
	catalog: { path: '', field: catalogLocator() },
	productSet: { path: '/product_sets', field: productSetLocator(), idOf: productSetIdOf },
	scheduledFeed: { path: '/scheduled_feeds', field: feedIdProperty, idOf: feedIdOf },
} satisfies Record<string, CatalogObject>;

function located(
	ctx: OperationContext,
	itemIndex: number,
	object: CatalogObject,
): { id: string; path: string } {
	const catalogId = catalogIdOf(ctx, itemIndex);
	if (!object.idOf) return { id: catalogId, path: catalogPath(catalogId) };
	const id = object.idOf(ctx, itemIndex);
	return { id, path: catalogPath(catalogId, `${object.path}/${encodeURIComponent(id)}`) };
}

type Option = { description: string; action: string };

export function getOperation(object: CatalogObject, option: Option): ItemOperation {
	return {
		option: { name: 'Get', value: 'get', ...option },
		properties: [object.field],
		async execute(ctx: OperationContext, itemIndex: number) {
			const { path } = located(ctx, itemIndex, object);
			return unwrapData<IDataObject>(await ctx.request({ method: 'GET', path }));
		},
	};
}

/** Delete; `notice` (that it is permanent) is shown above the fields. */
export function deleteOperation(
	object: CatalogObject,
	option: Option,
	notice?: string,
): ItemOperation {
	return {
		option: { name: 'Delete', value: 'delete', ...option },
		notice: notice
			? { displayName: notice, name: 'deleteNotice', type: 'notice', default: '' }
			: undefined,
		properties: [object.field],
		async execute(ctx: OperationContext, itemIndex: number) {
			const { id, path } = located(ctx, itemIndex, object);
			return deletedResult(
				id,
				unwrapData<IDataObject>(await ctx.request({ method: 'DELETE', path })),
			);
		},
	};
}
