import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions';
import { maxProcessingWaitOption } from '../../../shared/media';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { KINDS, accountPath, adsRequest, compact, objectId, objectLocator, single } from '../../common';
import { cardBinaryProperties, cardContent, useUploadedMedia } from './builder';
import { CARD_LABELS, cardUpdateSchema } from './schema';

export const update: ItemOperation = {
	option: {
		name: 'Update',
		value: 'update',
		description: 'Rename a card or replace its components (each field given replaces the stored one)',
		action: 'Update a card',
	},
	properties: [
		objectLocator(KINDS.card, ['update']),
		{
			displayName: 'New Name',
			name: 'name',
			type: 'string',
			default: '',
			displayOptions: showFor('card', 'update'),
			description: 'At most 80 characters; leave empty to keep the name',
		},
		optionsCollection('card', 'update', [maxProcessingWaitOption]),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const binaries = cardBinaryProperties(this, itemIndex);
		const id = objectId(this, itemIndex, KINDS.card);
		const input = compact({ name: this.getNodeParameter('name', itemIndex, '') as string, ...cardContent(this, itemIndex) });
		const body = validateInput(this.getNode(), cardUpdateSchema, input, itemIndex, CARD_LABELS);
		const path = accountPath(this, itemIndex, `/cards/${id}`);
		// Uploaded only once the whole card is valid.
		const uploaded = binaries.length ? await useUploadedMedia(this, itemIndex, body as IDataObject, binaries) : undefined;
		const result = single(await adsRequest(this, itemIndex, { method: 'PUT', path, body: body as IDataObject }));
		return uploaded ? { ...result, uploaded_media: uploaded } : result;
	},
};
