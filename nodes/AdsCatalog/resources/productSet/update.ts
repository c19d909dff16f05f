import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

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
import { productKeysFrom } from './common';

export const update: ItemOperation = {
	option: {
		name: 'Update',
		value: 'update',
		description: 'Change the name, description or products of a MANUAL product set (FILTERED sets cannot be updated)',
		action: 'Update a product set',
	},
	properties: [
		{
			displayName: 'Only MANUAL sets can be updated: the service does not support updating FILTERED sets',
			name: 'updateNotice',
			type: 'notice',
			default: '',
			displayOptions: showFor('productSet', 'update'),
		},
		catalogLocator('productSet', 'update'),
		productSetLocator('productSet', 'update'),
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: showFor('productSet', 'update'),
			options: [
				{ displayName: 'Description', name: 'description', type: 'string', default: '' },
				{ displayName: 'Name', name: 'name', type: 'string', default: '' },
				{
					displayName: 'Product Keys',
					name: 'productKeys',
					type: 'string',
					default: '',
					description: 'The complete new list of product keys, separated by commas or new lines (replaces the current list)',
				},
			],
		},
		optionsCollection('productSet', 'update'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const catalogId = catalogIdOf(this, itemIndex);
		const setId = productSetIdOf(this, itemIndex);
		const fields = (this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject) ?? {};
		const body: IDataObject = {};
		if (fields.name !== undefined) {
			const name = String(fields.name).trim();
			if (!name) throw new NodeOperationError(this.getNode(), `Name in item ${itemIndex + 1} must not be empty`, { itemIndex });
			body.name = name;
		}
		if (fields.description !== undefined) body.description = String(fields.description);
		if (fields.productKeys !== undefined) {
			const keys = productKeysFrom(fields.productKeys);
			if (!keys.length) {
				throw new NodeOperationError(this.getNode(), `Product Keys in item ${itemIndex + 1} is empty`, {
					itemIndex,
					description: 'A MANUAL set needs at least one product key; delete the set to remove all products.',
				});
			}
			body.product_keys = keys;
		}
		if (!Object.keys(body).length) {
			throw new NodeOperationError(this.getNode(), `Nothing to update in item ${itemIndex + 1}`, {
				itemIndex,
				description: 'Add a field to Update Fields: name, description or product keys.',
			});
		}
		const path = catalogPath(catalogId, `/product_sets/${encodeURIComponent(setId)}`);
		const current = adsData<IDataObject>(await adsRequest.call(this, itemIndex, { method: 'GET', path }));
		if (current?.type === 'FILTERED') {
			throw new NodeOperationError(this.getNode(), `Product set ${setId} is a FILTERED set: the service cannot update FILTERED sets`, {
				itemIndex,
				description:
					'Only MANUAL sets can be changed. To change a FILTERED set, create a new set with the new filters (Product Set > Create) and delete this one.',
			});
		}
		return adsData<IDataObject>(await adsRequest.call(this, itemIndex, { method: 'PUT', path, body }));
	},
};
