import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ADS_API_VERSION, adsIdParameter } from '../shared/ads';

/** The ad account every creative belongs to, and the paths below it. */

export const ACCOUNT_ID = /^[A-Za-z0-9]{1,32}$/;

/** The ad account every creative belongs to: chosen from GET /12/accounts, or by ID. */
export function accountLocator(resource: string): INodeProperties {
	return {
		displayName: 'Ad Account',
		name: 'accountId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		displayOptions: { show: { resource: [resource] } },
		description: 'The ad account (associated with the authenticated user) that holds the creatives',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchAccounts', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: '18ce54d4x5t',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: ACCOUNT_ID.source,
							errorMessage: 'An ad account ID is a short alphanumeric string',
						},
					},
				],
			},
		],
	};
}

export function accountId(ctx: IExecuteFunctions, itemIndex: number): string {
	return adsIdParameter(ctx, 'accountId', 'Ad Account', ACCOUNT_ID, itemIndex);
}

export function accountPath(ctx: IExecuteFunctions, itemIndex: number, rest: string): string {
	return `${ADS_API_VERSION}/accounts/${accountId(ctx, itemIndex)}${rest}`;
}
