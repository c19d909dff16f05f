import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PlatformRequest } from '../../../shared/transport';
import { CREDENTIAL_TYPES } from '../../../shared/transport';
import type { OperationContext } from '../../../shared/router';

/**
 * Admin operations manage the app (webhooks, subscriptions, streaming connections, stream rules):
 * the service takes them only with the app-only bearer token (the resource declares APP_ONLY, so the
 * router refuses any other kind before a request), and their requests always use it.
 */

export const BEARER_NOTE =
	'Needs the App-Only Bearer Token credential: choose "App-Only Bearer Token" in the Authentication field';

type AdminRequest = Omit<PlatformRequest, 'api' | 'itemIndex' | 'credentialType'>;

export async function adminRequest(
	this: OperationContext,
	itemIndex: number,
	request: AdminRequest,
): Promise<IDataObject> {
	return await this.request({ ...request, credentialType: CREDENTIAL_TYPES.appOnly });
}

export async function adminPaginate(
	this: OperationContext,
	itemIndex: number,
	request: AdminRequest,
	maxPageSize?: number,
): Promise<IDataObject[]> {
	return await this.paginate(
		{ ...request, credentialType: CREDENTIAL_TYPES.appOnly },
		{
			returnAll: this.getNodeParameter('returnAll', itemIndex, false) as boolean,
			limit: this.getNodeParameter('limit', itemIndex, 50) as number,
			pageSizeParam: maxPageSize ? 'max_results' : undefined,
			maxPageSize,
			tokenParam: 'pagination_token',
		},
	);
}

/** A required id field (1-19 digits). */
export function idProperty(
	operation: string,
	name: string,
	displayName: string,
	description: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'string',
		default: '',
		required: true,
		placeholder: '1146654567674912769',
		description,
	};
}

export function readId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
): string {
	const value = String(ctx.getNodeParameter(name, itemIndex, '') ?? '').trim();
	if (!/^\d{1,19}$/.test(value)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Invalid input in item ${itemIndex + 1}: ${label}: "${value}" is not an ID (1-19 digits)`,
			{
				itemIndex,
			},
		);
	}
	return value;
}

/** The list of a `data` envelope (or a bare list). */
export function listOf(body: unknown): IDataObject[] {
	const data =
		body && typeof body === 'object' && !Array.isArray(body) && 'data' in body
			? (body as IDataObject).data
			: body;
	if (Array.isArray(data)) return data as IDataObject[];
	return data && typeof data === 'object' ? [data as IDataObject] : [];
}

/** yyyymmddhhmm in UTC, as the replay endpoint takes it. */
export function replayStamp(date: Date): string {
	return date.toISOString().replace(/[-T:]/g, '').slice(0, 12);
}
