import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { KINDS, accountPath, adsRequest, compact, objectId, objectLocator, single } from '../../common';
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
		objectLocator(KINDS.videoConversationCard, ['update']),
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: showFor('videoConversationCard', 'update'),
			options: [
				...ALL_FIELDS.map((f) => fieldProperty(f)),
				binaryFieldProperty('videoBinaryPropertyName', { default: '', description: "Instead of Video Media Key: the input binary field holding the 16:9 video, uploaded as an ad video and added to the account's media library" }),
				binaryFieldProperty('posterBinaryPropertyName'),
			].sort((a, b) => a.displayName.localeCompare(b.displayName)),
		},
		optionsCollection('videoConversationCard', 'update', [maxProcessingWaitOption]),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const id = objectId(this, itemIndex, KINDS.videoConversationCard);
		const input = compact({ ...(this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject) });
		const binaries = takeBinaryFields(this, itemIndex, input);
		const qs = validateInput(this.getNode(), updateSchema, input, itemIndex, LABELS);
		const path = accountPath(this, itemIndex, `/cards/video_conversation/${id}`);
		const uploaded = binaries.pending.length ? await uploadCardBinaries(this, itemIndex, qs, binaries) : undefined;
		const card = single(await adsRequest(this, itemIndex, { method: 'PUT', path, qs }));
		return uploaded ? { ...card, uploaded_media: uploaded } : card;
	},
};
