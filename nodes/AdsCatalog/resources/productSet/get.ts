import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
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

export const get: ItemOperation = {
	option: {
		name: 'Get',
		value: 'get',
		description: 'Get a product set with its products, filters and processing status',
		action: 'Get a product set',
	},
	properties: [catalogLocator('productSet', 'get'), productSetLocator('productSet', 'get'), optionsCollection('productSet', 'get')],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const catalogId = catalogIdOf(this, itemIndex);
		const setId = productSetIdOf(this, itemIndex);
		const body = await adsRequest.call(this, itemIndex, {
			method: 'GET',
			path: catalogPath(catalogId, `/product_sets/${encodeURIComponent(setId)}`),
		});
		return adsData<IDataObject>(body);
	},
};
