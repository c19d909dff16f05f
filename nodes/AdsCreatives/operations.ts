import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { ZodType, ZodTypeDef } from 'zod';

import { single } from '../shared/ads';
import { limitProperty, returnAllProperty } from '../shared/descriptions';
import type { ItemOperation, OperationContext } from '../shared/router';
import { deletedResult } from '../shared/router';
import { validateInput } from '../shared/validation';
import { accountPath } from './account';
import type { CreativeKind } from './kinds';
import { aOrAn, objectId, objectLocator, pluralOf } from './kinds';
import { compact } from './shared/fields';

/** Get Many, Get and Delete of every object kind, built from the kind's description. */

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

function listQuery(ctx: OperationContext, itemIndex: number, spec: ListSpec): IDataObject {
	const options = ctx.options;
	const qs: IDataObject = spec.readFilters
		? spec.readFilters(
				ctx,
				itemIndex,
				(ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject) ?? {},
			)
		: {};
	if (spec.withDeleted && options.withDeleted) qs.with_deleted = true;
	const sortBy = String(options.sortBy ?? '').trim();
	if (spec.sortBy && sortBy) {
		if (!/^[a-z_]+$/.test(sortBy)) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Sort By: "${sortBy}" is not an attribute name`,
				{ itemIndex },
			);
		}
		qs.sort_by = `${sortBy}-${options.sortDirection === 'desc' ? 'desc' : 'asc'}`;
	}
	return compact(qs);
}

/** Get Many: Return All / Limit through the cursor, count within the endpoint's range. */
export function listOperation(
	kind: CreativeKind,
	spec: ListSpec = {},
	description?: string,
): ItemOperation {
	const extraOptions = [
		...(spec.withDeleted ? [withDeletedOption] : []),
		...(spec.sortBy ? sortOptions : []),
		...(spec.withTotalCount ? [withTotalCountOption] : []),
	];
	const properties: INodeProperties[] = [returnAllProperty(), limitProperty(1000)];
	if (spec.filters?.length) {
		properties.push({
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: spec.filters,
		});
	}
	return {
		option: {
			name: 'Get Many',
			value: 'getMany',
			description: description ?? `List the ${pluralOf(kind)} of the ad account`,
			action: `Get many ${pluralOf(kind)}`,
		},
		properties,
		options: extraOptions,
		async execute(ctx: OperationContext, itemIndex: number) {
			const qs = listQuery(ctx, itemIndex, spec);
			// with_total_count is refused together with a cursor: only the first request asks for it.
			const withTotalCount = spec.withTotalCount === true && ctx.options.withTotalCount === true;
			let totalCount: IDataObject[string];
			const rows = await ctx.paginate(
				{
					method: 'GET',
					path: accountPath(ctx, itemIndex, kind.path),
					qs,
				},
				{
					returnAll: ctx.getNodeParameter('returnAll', itemIndex, false) as boolean,
					limit: ctx.getNodeParameter('limit', itemIndex, 50) as number,
					pageSizeParam: 'count',
					maxPageSize: kind.maxCount,
					style: 'ads',
					...(withTotalCount
						? {
								firstPageQs: { with_total_count: true },
								onPage: (body: IDataObject) => {
									if (totalCount === undefined && body?.total_count !== undefined)
										totalCount = body.total_count;
								},
							}
						: {}),
				},
			);
			return withTotalCount && totalCount !== undefined
				? rows.map((row) => ({ ...row, total_count: totalCount }))
				: rows;
		},
	};
}

export function getOperation(
	kind: CreativeKind,
	spec: { withDeleted?: boolean } = {},
): ItemOperation {
	return {
		option: {
			name: 'Get',
			value: 'get',
			description: `Get ${aOrAn(kind.noun)}`,
			action: `Get ${aOrAn(kind.noun)}`,
		},
		properties: [objectLocator(kind)],
		options: spec.withDeleted ? [withDeletedOption] : [],
		async execute(ctx: OperationContext, itemIndex: number) {
			const id = objectId(ctx, itemIndex, kind);
			const qs: IDataObject =
				spec.withDeleted && ctx.options.withDeleted ? { with_deleted: true } : {};
			return single(
				await ctx.request({
					method: 'GET',
					path: accountPath(ctx, itemIndex, `${kind.path}/${id}`),
					qs,
				}),
			);
		},
	};
}

export function deleteOperation(
	kind: CreativeKind,
	spec: { hard?: boolean; notice?: string; description?: string } = {},
): ItemOperation {
	const description =
		spec.description ??
		(spec.hard
			? `Delete ${aOrAn(kind.noun)} for good (hard delete: it cannot be retrieved afterwards)`
			: `Delete ${aOrAn(kind.noun)} (soft delete: still returned with With Deleted)`);
	const properties: INodeProperties[] = [objectLocator(kind)];
	if (spec.hard) {
		properties.push({
			displayName:
				spec.notice ??
				`The ${kind.noun} is deleted for good: it cannot be retrieved or restored afterwards, and posts that use it lose it`,
			name: 'hardDeleteNotice',
			type: 'notice',
			default: '',
		});
	}
	return {
		option: { name: 'Delete', value: 'delete', description, action: `Delete ${aOrAn(kind.noun)}` },
		properties,
		async execute(ctx: OperationContext, itemIndex: number) {
			const id = objectId(ctx, itemIndex, kind);
			const path = accountPath(ctx, itemIndex, `${kind.path}/${id}`);
			return deletedResult(id, single(await ctx.request({ method: 'DELETE', path })));
		},
	};
}

/**
 * Update of an object from its Update Fields collection: the set fields, validated with `schema`
 * before any request, sent as the query of a PUT.
 */
export async function updateFromFields<T extends IDataObject>(
	ctx: OperationContext,
	itemIndex: number,
	kind: CreativeKind,
	schema: ZodType<T, ZodTypeDef, unknown>,
	labels: Record<string, string>,
): Promise<IDataObject> {
	const id = objectId(ctx, itemIndex, kind);
	const qs = validateInput(
		ctx.getNode(),
		schema,
		compact(ctx.getNodeParameter('updateFields', itemIndex, {}) as IDataObject),
		itemIndex,
		labels,
	);
	const path = accountPath(ctx, itemIndex, `${kind.path}/${id}`);
	return single(await ctx.request({ method: 'PUT', path, qs }));
}
