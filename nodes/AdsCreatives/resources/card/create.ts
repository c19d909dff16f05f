import type { IDataObject } from 'n8n-workflow';
import { single } from '../../../shared/ads';

import { maxProcessingWaitOption } from '../../../shared/media';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath } from '../../account';
import {
	builderProperties,
	cardBinaryProperties,
	cardContent,
	modeProperties,
	useUploadedMedia,
} from './builder';
import { CARD_LABELS, cardSchema } from './schema';

export const create: ItemOperation = {
	option: {
		name: 'Create',
		value: 'create',
		description: 'Create a component-based card (website or app)',
		action: 'Create a card',
	},
	properties: [
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
			description: 'Card name, at most 80 characters',
		},
		...modeProperties,
		...builderProperties,
	],
	options: [maxProcessingWaitOption],
	async execute(ctx: OperationContext, itemIndex: number) {
		const binaries = cardBinaryProperties(ctx, itemIndex);
		const card = {
			name: ctx.getNodeParameter('name', itemIndex, '') as string,
			...cardContent(ctx, itemIndex),
		};
		const body = validateInput(ctx.getNode(), cardSchema, card, itemIndex, CARD_LABELS);
		const path = accountPath(ctx, itemIndex, '/cards');
		// Uploaded only once the whole card is valid.
		const uploaded = binaries.length
			? await useUploadedMedia(ctx, itemIndex, body as IDataObject, binaries)
			: undefined;
		const result = single(await ctx.request({ method: 'POST', path, body: body as IDataObject }));
		return uploaded ? { ...result, uploaded_media: uploaded } : result;
	},
};
