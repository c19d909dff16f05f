import type { IDataObject } from 'n8n-workflow';
import { single } from '../../../shared/ads';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath } from '../../account';
import { KINDS, objectId, objectLocator } from '../../kinds';
import { compact } from '../../shared/fields';
import { maxProcessingWaitOption } from '../../../shared/media';
import { binaryFieldProperty, takeBinaryFields, uploadCardBinaries } from './media';
import { ALL_FIELDS, LABELS, fieldProperty, updateSchema } from './schema';

export const update: ItemOperation = {
	option: {
		name: 'Update',
		value: 'update',
		description: 'Change fields of a video conversation card',
		action: 'Update a video conversation card',
	},
	properties: [
		objectLocator(KINDS.videoConversationCard),
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				...ALL_FIELDS.map((f) => fieldProperty(f)),
				binaryFieldProperty('videoBinaryPropertyName', {
					default: '',
					description:
						"Instead of Video Media Key: the input binary field holding the 16:9 video, uploaded as an ad video and added to the account's media library",
				}),
				binaryFieldProperty('posterBinaryPropertyName'),
			].sort((a, b) => a.displayName.localeCompare(b.displayName)),
		},
	],
	options: [maxProcessingWaitOption],
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = objectId(ctx, itemIndex, KINDS.videoConversationCard);
		const input = compact({
			...(ctx.getNodeParameter('updateFields', itemIndex, {}) as IDataObject),
		});
		const binaries = takeBinaryFields(ctx, itemIndex, input);
		const qs = validateInput(ctx.getNode(), updateSchema, input, itemIndex, LABELS);
		const path = accountPath(ctx, itemIndex, `/cards/video_conversation/${id}`);
		const uploaded = binaries.pending.length
			? await uploadCardBinaries(ctx, itemIndex, qs, binaries)
			: undefined;
		const card = single(await ctx.request({ method: 'PUT', path, qs }));
		return uploaded ? { ...card, uploaded_media: uploaded } : card;
	},
};
