import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import type { PlatformContext, PlatformRequest } from './transport';
import {
	chosenCredentialType,
	CREDENTIAL_TYPES,
	platformRequest,
	platformRequestFull,
} from './transport';
import { asNodeError, errorInfo } from './errors';
import { fetchAuthenticatedUserId } from './users';

/** The "From List" modes of the advertising nodes: one page of an ads list, filtered and labelled. */

export function matches(filter: string | undefined, ...values: unknown[]): boolean {
	if (!filter) return true;
	const needle = filter.toLowerCase();
	return values.some((v) =>
		String(v ?? '')
			.toLowerCase()
			.includes(needle),
	);
}

export interface AdsListSearch {
	path: string;
	qs?: IDataObject;
	paginationToken?: string;
	/** Case-insensitive substring filter applied to the page (when the endpoint has no search). */
	filter?: string;
	filterFields?: string[];
	idField?: string;
	label: (o: IDataObject, id: string) => string;
	/**
	 * When set, a 404 or 405 (the service does not offer the list) becomes one entry saying so,
	 * with this noun: the object can always be given by ID.
	 */
	unlistedNoun?: string;
}

export async function adsListSearch(
	ctx: ILoadOptionsFunctions,
	search: AdsListSearch,
): Promise<INodeListSearchResult> {
	const qs: IDataObject = { ...(search.qs ?? {}) };
	if (search.paginationToken) qs.cursor = search.paginationToken;
	let body: IDataObject;
	try {
		const response = await platformRequestFull.call<
			PlatformContext,
			[PlatformRequest],
			Promise<{ body: IDataObject }>
		>(ctx, {
			method: 'GET',
			path: search.path,
			api: 'ads',
			qs: Object.keys(qs).length ? qs : undefined,
		});
		body = response.body;
	} catch (error) {
		if (search.unlistedNoun && [404, 405].includes(errorInfo(error).httpStatus ?? 0)) {
			return {
				results: [
					{
						name: `Listing ${search.unlistedNoun} Is Not Offered by the Service: Enter the ID`,
						value: '',
					},
				],
			};
		}
		throw asNodeError(ctx, error);
	}
	const idField = search.idField ?? 'id';
	const fields = search.filterFields ?? ['name', idField];
	const list = Array.isArray(body?.data) ? (body.data as IDataObject[]) : [];
	return {
		results: list
			.filter((o) => matches(search.filter, ...fields.map((f) => o[f])))
			.map((o) => ({ name: search.label(o, String(o[idField])), value: String(o[idField]) })),
		paginationToken: body?.next_cursor ? String(body.next_cursor) : undefined,
	};
}

/**
 * The editor's From List mode: the lists the authenticated user owns (GET /2/users/me, then
 * GET /2/users/:id/owned_lists), a page of 100 at a time, filtered by name or id.
 */
export async function searchOwnedLists(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const send = async (request: Omit<PlatformRequest, 'api' | 'itemIndex'>) =>
		await platformRequest.call<PlatformContext, [PlatformRequest], Promise<IDataObject>>(this, {
			api: 'platform',
			...request,
		});
	// The app-only bearer has no user whose lists to show; the list can still be given by ID or URL.
	if (chosenCredentialType(this) === CREDENTIAL_TYPES.appOnly)
		return {
			results: [{ name: 'Your Lists Need a User Credential: Enter the ID or URL', value: '' }],
		};
	try {
		const me = await fetchAuthenticatedUserId(this.getNode(), send);
		const qs: IDataObject = { max_results: 100 };
		if (paginationToken) qs.pagination_token = paginationToken;
		const body = await send({ method: 'GET', path: `/2/users/${me}/owned_lists`, qs });
		const lists = (Array.isArray(body?.data) ? body.data : []) as IDataObject[];
		const next = (body?.meta as IDataObject | undefined)?.next_token;
		return {
			results: lists
				.filter((l) => matches(filter, l.name, l.id))
				.map((l) => ({ name: `${String(l.name ?? l.id)} (${String(l.id)})`, value: String(l.id) })),
			paginationToken: next ? String(next) : undefined,
		};
	} catch (error) {
		throw asNodeError(this, error);
	}
}
