import type { IDataObject } from 'n8n-workflow';
import { single } from '../../../shared/ads';

import { maxProcessingWaitOption } from '../../../shared/media';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath } from '../../account';
import { KINDS, objectId, objectLocator } from '../../kinds';
import { compact } from '../../shared/fields';
import { cardBinaryProperties, cardContent, useUploadedMedia } from './builder';
import { CARD_LABELS, cardUpdateSchema } from './schema';

export const update: ItemOperation = {
	option: {
		name: 'Update',
		value: 'update',
		description:
			'Rename a card or replace its components (each field given replaces the stored one)',
		action: 'Update a card',
	},
	properties: [
		objectLocator(KINDS.card),
		{
			displayName: 'New Name',
			name: 'name',
			type: 'string',
			default: '',
			description: 'At most 80 characters; leave empty to keep the name',
		},
	],
	options: [maxProcessingWaitOption],
	async execute(ctx: OperationContext, itemIndex: number) {
		const binaries = cardBinaryProperties(ctx, itemIndex);
		const id = objectId(ctx, itemIndex, KINDS.card);
		const input = compact({
			name: ctx.getNodeParameter('name', itemIndex, '') as string,
			...cardContent(ctx, itemIndex),
		});
		const body = validateInput(ctx.getNode(), cardUpdateSchema, input, itemIndex, CARD_LABELS);
		const path = accountPath(ctx, itemIndex, `/cards/${id}`);
		// Uploaded only once the whole card is valid.
		const uploaded = binaries.length
			? await useUploadedMedia(ctx, itemIndex, body as IDataObject, binaries)
			: undefined;
		const result = single(await ctx.request({ method: 'PUT', path, body: body as IDataObject }));
		return uploaded ? { ...result, uploaded_media: uploaded } : result;
	},
};
