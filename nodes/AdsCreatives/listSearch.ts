import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { ADS_API_VERSION } from '../shared/ads';
import { adsListSearch } from '../shared/listSearch';
import { ACCOUNT_ID } from './account';
import type { CreativeKind } from './kinds';
import { KINDS } from './kinds';

/** The list searches behind the "From List" modes: the ad accounts, and the objects of each kind. */

function currentAccount(ctx: ILoadOptionsFunctions): string {
	const raw = ctx.getCurrentNodeParameter('accountId', { extractValue: true }) as unknown;
	const value = String(
		raw && typeof raw === 'object' ? ((raw as IDataObject).value ?? '') : (raw ?? ''),
	).trim();
	return ACCOUNT_ID.test(value) ? value : '';
}

function label(o: IDataObject, id: string): string {
	const name =
		o.name ??
		(typeof o.text === 'string' ? o.text.slice(0, 60) : undefined) ??
		o.call_to_action ??
		o.creative_type;
	return name ? `${String(name)} (${id})` : id;
}

/**
 * GET /12/accounts is not among the creatives endpoints the service publishes; when it does not answer it
 * (404 or 405) the list says so and the account can be given by ID.
 */
export async function searchAccounts(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await adsListSearch(this, {
		path: `${ADS_API_VERSION}/accounts`,
		paginationToken,
		filter,
		unlistedNoun: 'Ad Accounts',
		label,
	});
}

function searchFor(kind: CreativeKind, idField = 'id') {
	return async function (
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	): Promise<INodeListSearchResult> {
		const account = currentAccount(this);
		// The editor would show a bare "No results": say what to choose first (the entry selects nothing).
		if (!account) return { results: [{ name: 'Choose an Ad Account First', value: '' }] };
		const useQ = kind.searchByQ === true;
		const qs: IDataObject = { count: Math.min(kind.maxCount, 200) };
		if (useQ && filter) qs.q = filter.slice(0, 80);
		return await adsListSearch(this, {
			path: `${ADS_API_VERSION}/accounts/${account}${kind.path}`,
			qs,
			paginationToken,
			filter: useQ ? undefined : filter,
			filterFields: ['name', idField, 'text'],
			idField,
			label,
		});
	};
}

export const listSearch = {
	searchAccounts,
	searchCards: searchFor(KINDS.card),
	searchPollCards: searchFor(KINDS.pollCard),
	searchVideoConversationCards: searchFor(KINDS.videoConversationCard),
	searchImageConversationCards: searchFor(KINDS.imageConversationCard),
	searchMediaLibrary: searchFor(KINDS.mediaLibrary, 'media_key'),
	searchAccountMedia: searchFor(KINDS.accountMedia),
	searchDraftPosts: searchFor(KINDS.draftPost),
	searchScheduledPosts: searchFor(KINDS.scheduledPost),
	searchPrerollCtas: searchFor(KINDS.prerollCta),
};
