import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { accountIdProperty, accountPath, listAll, listProperties } from '../../common';

export const getMany: ItemOperation = {
	option: { name: 'Get Many', value: 'getMany', description: 'List the cards of the ad account', action: 'Get many cards' },
	properties: [
		accountIdProperty('card', ['getMany']),
		...listProperties('card', 200),
		{ displayName: 'Name Prefix', name: 'q', type: 'string', default: '', displayOptions: showFor('card', 'getMany'), description: 'Only cards whose name starts with this (case-insensitive, at most 80 characters)' },
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const q = String(this.getNodeParameter('q', itemIndex, '')).slice(0, 80);
		const qs: IDataObject = q ? { q } : {};
		return await listAll(this, itemIndex, accountPath(this, itemIndex, '/cards'), 200, qs);
	},
};
