import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import type { PlatformContext, PlatformRequest } from './transport';
import { platformRequestFull } from './transport';
import { asNodeError, errorInfo } from './errors';

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
