import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath, adsRequest, single } from '../../common';
import { builderProperties, cardContent, modeProperties } from './builder';
import { CARD_LABELS, cardSchema } from './schema';

export const create: ItemOperation = {
	option: { name: 'Create', value: 'create', description: 'Create a component-based card (website or app)', action: 'Create a card' },
	properties: [
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
			displayOptions: showFor('card', 'create'),
			description: 'Card name, at most 80 characters',
		},
		...modeProperties,
		...builderProperties,
		optionsCollection('card', 'create'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const card = { name: this.getNodeParameter('name', itemIndex, '') as string, ...cardContent(this, itemIndex) };
		const body = validateInput(this.getNode(), cardSchema, card, itemIndex, CARD_LABELS);
		const path = accountPath(this, itemIndex, '/cards');
		return single(await adsRequest(this, itemIndex, { method: 'POST', path, body: body as IDataObject }));
	},
};
