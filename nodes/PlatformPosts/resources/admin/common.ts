import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PlatformRequest } from '../../../shared/transport';
import { CREDENTIAL_TYPES } from '../../../shared/transport';
export { listOf } from '../../../shared/transport';
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

/** yyyymmddhhmm in UTC, as the replay endpoint takes it. */
export function replayStamp(date: Date): string {
	return date.toISOString().replace(/[-T:]/g, '').slice(0, 12);
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The From and To fields of the replay operations. */
export const replayWindowProperties: INodeProperties[] = [
	{
		displayName: 'From',
		name: 'from',
		type: 'dateTime',
		default: '',
		required: true,
		description:
			'Start of the window (inclusive, at most 24 hours ago; minutes precision, UTC unless a zone is given)',
	},
	{
		displayName: 'To',
		name: 'to',
		type: 'dateTime',
		default: '',
		required: true,
		description: 'End of the window (minutes precision)',
	},
];

/**
 * The From and To fields as the service takes them (yyyymmddhhmm, UTC), checked before any request:
 * dates, From before To, From within the past 24 hours (the service replays no further back).
 */
export function readReplayWindow(
	ctx: IExecuteFunctions,
	itemIndex: number,
): { from_date: string; to_date: string } {
	const invalid = (message: string) =>
		new NodeOperationError(ctx.getNode(), `Invalid input in item ${itemIndex + 1}: ${message}`, {
			itemIndex,
		});
	const from = new Date(String(ctx.getNodeParameter('from', itemIndex, '') ?? ''));
	const to = new Date(String(ctx.getNodeParameter('to', itemIndex, '') ?? ''));
	if (Number.isNaN(from.getTime())) throw invalid('From: not a date and time');
	if (Number.isNaN(to.getTime())) throw invalid('To: not a date and time');
	if (from.getTime() >= to.getTime()) throw invalid('From must be before To');
	// A few minutes of tolerance for clock differences.
	if (Date.now() - from.getTime() > DAY_MS + 5 * 60 * 1000) {
		throw invalid('From: the service replays only the past 24 hours');
	}
	return { from_date: replayStamp(from), to_date: replayStamp(to) };
}
