import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { z } from 'zod';

import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { adsData, adsRequest, catalogIdOf, catalogLocator, catalogPath, optionsCollection } from '../../common';

const schema = z.object({ name: z.string().trim().min(1, 'must not be empty').max(255, 'is too long') });

export const update: ItemOperation = {
	option: {
		name: 'Update',
		value: 'update',
		description: 'Rename a product catalog',
		action: 'Update a catalog',
	},
	properties: [
		catalogLocator('catalog', 'update'),
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
			displayOptions: showFor('catalog', 'update'),
			description: 'The new name of the catalog',
		},
		optionsCollection('catalog', 'update'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const catalogId = catalogIdOf(this, itemIndex);
		const { name } = validateInput(this.getNode(), schema, { name: this.getNodeParameter('name', itemIndex, '') }, itemIndex, {
			name: 'Name',
		});
		const body = await adsRequest.call(this, itemIndex, { method: 'PUT', path: catalogPath(catalogId), qs: { name } });
		return adsData<IDataObject>(body);
	},
};
