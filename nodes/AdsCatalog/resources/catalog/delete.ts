import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { adsData, adsRequest, catalogIdOf, catalogLocator, catalogPath, optionsCollection } from '../../common';

export const deleteCatalog: ItemOperation = {
	option: {
		name: 'Delete',
		value: 'delete',
		description: 'Permanently delete a product catalog with its products, product sets and scheduled feeds',
		action: 'Delete a catalog',
	},
	properties: [
		{
			displayName:
				'Deleting a catalog is permanent: its products, product sets and scheduled feeds are deleted with it and cannot be restored',
			name: 'deleteNotice',
			type: 'notice',
			default: '',
			displayOptions: showFor('catalog', 'delete'),
		},
		catalogLocator('catalog', 'delete'),
		optionsCollection('catalog', 'delete'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const catalogId = catalogIdOf(this, itemIndex);
		const body = await adsRequest.call(this, itemIndex, { method: 'DELETE', path: catalogPath(catalogId) });
		return { deleted: true, ...adsData<IDataObject>(body) };
	},
};
