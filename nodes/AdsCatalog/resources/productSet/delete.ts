import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import {
	adsData,
	adsRequest,
	catalogIdOf,
	catalogLocator,
	catalogPath,
	optionsCollection,
	productSetIdOf,
	productSetLocator,
} from '../../common';

export const deleteProductSet: ItemOperation = {
	option: {
		name: 'Delete',
		value: 'delete',
		description: 'Permanently delete a product set (its products stay in the catalog)',
		action: 'Delete a product set',
	},
	properties: [
		{
			displayName: 'Deleting a product set is permanent (the products stay in the catalog)',
			name: 'deleteNotice',
			type: 'notice',
			default: '',
			displayOptions: showFor('productSet', 'delete'),
		},
		catalogLocator('productSet', 'delete'),
		productSetLocator('productSet', 'delete'),
		optionsCollection('productSet', 'delete'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const catalogId = catalogIdOf(this, itemIndex);
		const setId = productSetIdOf(this, itemIndex);
		const body = await adsRequest.call(this, itemIndex, {
			method: 'DELETE',
			path: catalogPath(catalogId, `/product_sets/${encodeURIComponent(setId)}`),
		});
		return { deleted: true, ...adsData<IDataObject>(body) };
	},
};
