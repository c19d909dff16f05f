import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { optionsCollection, readOptions } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { accountPath, adsRequest, idList } from '../../common';

/** GET cards/all: cards of any type, legacy ones included, by card URI. */
export const getByUris: ItemOperation = {
	option: {
		name: 'Get Many by URI',
		value: 'getByUris',
		description: 'Get cards of any type (legacy types included) by their card URIs',
		action: 'Get cards by URI',
	},
	properties: [
		{
			displayName: 'Card URIs',
			name: 'cardUris',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'card://1234567890, card://1234567891',
			displayOptions: showFor('card', 'getByUris'),
			description: 'Comma-separated, up to 200',
		},
		optionsCollection('card', 'getByUris', [
			{ displayName: 'With Deleted', name: 'withDeleted', type: 'boolean', default: false, description: 'Whether to include deleted cards' },
		]),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const uris = idList(this, this.getNodeParameter('cardUris', itemIndex, ''), 'Card URIs', itemIndex);
		const bad = uris?.split(',').find((u) => !/^card:\/\/\d+$/.test(u));
		if (!uris || bad !== undefined) {
			const problem = bad === undefined ? 'is required' : `"${bad}" is not a card URI (card://<digits>)`;
			throw new NodeOperationError(this.getNode(), `Invalid input in item ${itemIndex + 1}: Card URIs: ${problem}`, { itemIndex });
		}
		const qs: IDataObject = { card_uris: uris };
		if (readOptions(this, itemIndex).withDeleted) qs.with_deleted = true;
		const body = await adsRequest(this, itemIndex, { method: 'GET', path: accountPath(this, itemIndex, '/cards/all'), qs });
		return (Array.isArray(body.data) ? body.data : []) as IDataObject[];
	},
};
