import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readOptions } from '../shared/descriptions';
import type { PaginateOptions, PlatformContext, PlatformRequest } from '../shared/transport';
import { CREDENTIAL_TYPES, chosenCredentialType, paginate, platformRequest } from '../shared/transport';

/**
 * What the PlatformPosts operations share: the Options collection of each operation (its own
 * options plus Max Rate Limit Wait), requests that honour that wait, and the user-context check.
 */

export { optionsCollection, readOptions } from '../shared/descriptions';

/** Max Rate Limit Wait from the operation's Options (undefined: the transport default). */
export function maxWait(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	const value = readOptions(ctx, itemIndex).maxRateLimitWait;
	return value === undefined || value === '' ? undefined : Number(value);
}

/** A platform request whose rate-limit wait comes from the operation's Options. */
export async function postsRequest(
	this: IExecuteFunctions,
	itemIndex: number,
	request: Omit<PlatformRequest, 'api' | 'itemIndex'>,
): Promise<IDataObject> {
	return await platformRequest.call<PlatformContext, [PlatformRequest], Promise<IDataObject>>(this, {
		maxRateLimitWait: maxWait(this, itemIndex),
		...request,
		api: 'platform',
		itemIndex,
	});
}

/** Return All / Limit over `data`, with the rate-limit wait from the operation's Options. */
export async function postsPaginate(
	this: IExecuteFunctions,
	itemIndex: number,
	request: Omit<PlatformRequest, 'api' | 'itemIndex'>,
	options: PaginateOptions,
): Promise<IDataObject[]> {
	return await paginate.call(
		this,
		{ maxRateLimitWait: maxWait(this, itemIndex), ...request, api: 'platform', itemIndex },
		{ style: 'platform', ...options },
	);
}

/** Operations that act as a user refuse the app-only bearer before any request. */
export function requireUserContext(ctx: IExecuteFunctions, itemIndex: number, what: string): void {
	if (chosenCredentialType(ctx, itemIndex) === CREDENTIAL_TYPES.appOnly) {
		throw new NodeOperationError(ctx.getNode(), `${what} needs a user-context credential`, {
			itemIndex,
			description:
				'The app-only bearer token can only read public data. Choose OAuth2 (User Context) or one of the OAuth1 options in the Authentication field.',
		});
	}
}

/** Splits a comma / whitespace separated list. */
export function splitList(value: unknown): string[] {
	return String(value ?? '')
		.split(/[\s,]+/)
		.map((s) => s.trim())
		.filter(Boolean);
}

/** ISO 8601 from an n8n dateTime value; undefined when empty. */
export function isoTime(
	ctx: IExecuteFunctions,
	value: unknown,
	label: string,
	itemIndex: number,
): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const date = new Date(String(value));
	if (Number.isNaN(date.getTime())) {
		throw new NodeOperationError(ctx.getNode(), `Invalid input in item ${itemIndex + 1}: ${label}: not a date and time`, {
			itemIndex,
		});
	}
	return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
