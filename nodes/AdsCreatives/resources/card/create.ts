import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions';
import { maxProcessingWaitOption } from '../../../shared/media';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath, adsRequest, single } from '../../common';
import { builderProperties, cardBinaryProperties, cardContent, modeProperties, useUploadedMedia } from './builder';
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
		optionsCollection('card', 'create', [maxProcessingWaitOption]),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const binaries = cardBinaryProperties(this, itemIndex);
		const card = { name: this.getNodeParameter('name', itemIndex, '') as string, ...cardContent(this, itemIndex) };
		const body = validateInput(this.getNode(), cardSchema, card, itemIndex, CARD_LABELS);
		const path = accountPath(this, itemIndex, '/cards');
		// Uploaded only once the whole card is valid.
		const uploaded = binaries.length ? await useUploadedMedia(this, itemIndex, body as IDataObject, binaries) : undefined;
		const result = single(await adsRequest(this, itemIndex, { method: 'POST', path, body: body as IDataObject }));
		return uploaded ? { ...result, uploaded_media: uploaded } : result;
	},
};
