import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { limitProperty, returnAllProperty } from '../shared/descriptions';
import type { PlatformRequest } from '../shared/transport';
import { paginate, platformRequest } from '../shared/transport';

/** The ad account every creative belongs to. */
export function accountIdProperty(resource: string, operations: string[]): INodeProperties {
	return {
		displayName: 'Ad Account ID',
		name: 'accountId',
		type: 'string',
		default: '',
		required: true,
		placeholder: '18ce54d4x5t',
		displayOptions: { show: { resource: [resource], operation: operations } },
		description: 'The ad account (short alphanumeric ID) associated with the authenticated user',
	};
}

export function accountPath(ctx: IExecuteFunctions, itemIndex: number, rest: string): string {
	const accountId = String(ctx.getNodeParameter('accountId', itemIndex, '')).trim();
	if (!/^[A-Za-z0-9]{1,32}$/.test(accountId)) {
		throw new NodeOperationError(ctx.getNode(), `Invalid input in item ${itemIndex + 1}: Ad Account ID: "${accountId}" is not an account ID`, { itemIndex });
	}
	return `/12/accounts/${accountId}${rest}`;
}

export function objectIdProperty(displayName: string, name: string, resource: string, operations: string[]): INodeProperties {
	return {
		displayName,
		name,
		type: 'string',
		default: '',
		required: true,
		displayOptions: { show: { resource: [resource], operation: operations } },
	};
}

export function objectId(ctx: IExecuteFunctions, itemIndex: number, name: string, label: string): string {
	const id = String(ctx.getNodeParameter(name, itemIndex, '')).trim();
	if (!/^[A-Za-z0-9_]{1,64}$/.test(id)) {
		throw new NodeOperationError(ctx.getNode(), `Invalid input in item ${itemIndex + 1}: ${label}: "${id}" is not an ID`, { itemIndex });
	}
	return encodeURIComponent(id);
}

/** Return All / Limit via cursor, with_deleted and count within the endpoint's range. */
export function listProperties(resource: string, maxCount: number): INodeProperties[] {
	const show = { resource: [resource], operation: ['getMany'] };
	return [
		returnAllProperty(show),
		limitProperty(show, 1000),
		{
			displayName: 'With Deleted',
			name: 'withDeleted',
			type: 'boolean',
			default: false,
			displayOptions: { show },
			description: `Whether to include deleted objects (page size at most ${maxCount})`,
		},
	];
}

export async function listAll(ctx: IExecuteFunctions, itemIndex: number, path: string, maxCount: number, qs: IDataObject = {}) {
	const query: IDataObject = { ...qs };
	if (ctx.getNodeParameter('withDeleted', itemIndex, false)) query.with_deleted = true;
	return await paginate.call(
		ctx,
		{ method: 'GET', path, api: 'ads', qs: query, itemIndex },
		{
			returnAll: ctx.getNodeParameter('returnAll', itemIndex, false) as boolean,
			limit: ctx.getNodeParameter('limit', itemIndex, 50) as number,
			pageSizeParam: 'count',
			maxPageSize: maxCount,
			style: 'ads',
		},
	);
}

export async function adsRequest(ctx: IExecuteFunctions, request: PlatformRequest): Promise<IDataObject> {
	return await platformRequest.call<IExecuteFunctions, [PlatformRequest], Promise<IDataObject>>(ctx, { ...request, api: 'ads' });
}
