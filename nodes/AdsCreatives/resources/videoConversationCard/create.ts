import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath, adsRequest, compact, single } from '../../common';
import { maxProcessingWaitOption } from '../../../shared/media';
import { mediaSourceProperty } from '../../shared/media';
import { binaryFieldProperty, takeBinaryFields, uploadCardBinaries } from './media';
import { ALL_FIELDS, LABELS, REQUIRED_ON_CREATE, createSchema, fieldProperty } from './schema';

const show = showFor('videoConversationCard', 'create');
const TOP_LEVEL = [...REQUIRED_ON_CREATE, 'title'];

export const create: ItemOperation = {
	option: {
		name: 'Create',
		value: 'create',
		description: 'Create a video conversation card (hashtag CTAs that publish a post)',
		action: 'Create a video conversation card',
	},
	properties: [
		{ ...mediaSourceProperty('videoSource', show), displayName: 'Video Source' },
		...TOP_LEVEL.map((f) =>
			fieldProperty(f, {
				required: REQUIRED_ON_CREATE.includes(f),
				displayOptions: f === 'media_key' ? showFor('videoConversationCard', 'create', { videoSource: ['mediaKey'] }) : show,
			}),
		),
		binaryFieldProperty('videoBinaryPropertyName', {
			required: true,
			displayOptions: showFor('videoConversationCard', 'create', { videoSource: ['binary'] }),
		}),
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: show,
			options: [
				...ALL_FIELDS.filter((f) => !TOP_LEVEL.includes(f)).map((f) => fieldProperty(f)),
				binaryFieldProperty('posterBinaryPropertyName'),
			].sort((a, b) => a.displayName.localeCompare(b.displayName)),
		},
		optionsCollection('videoConversationCard', 'create', [maxProcessingWaitOption]),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const input: IDataObject = { ...(this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject) };
		const fromBinary = this.getNodeParameter('videoSource', itemIndex, 'mediaKey') === 'binary';
		for (const f of TOP_LEVEL) if (f !== 'media_key' || !fromBinary) input[f] = this.getNodeParameter(f, itemIndex, '');
		if (fromBinary) input.videoBinaryPropertyName = this.getNodeParameter('videoBinaryPropertyName', itemIndex, 'data');
		const binaries = takeBinaryFields(this, itemIndex, input);
		const qs = validateInput(this.getNode(), createSchema, compact(input), itemIndex, LABELS);
		const path = accountPath(this, itemIndex, '/cards/video_conversation');
		const uploaded = binaries.pending.length ? await uploadCardBinaries(this, itemIndex, qs, binaries) : undefined;
		const card = single(await adsRequest(this, itemIndex, { method: 'POST', path, qs }));
		return uploaded ? { ...card, uploaded_media: uploaded } : card;
	},
};
