import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath, adsRequest, compact, single } from '../../common';
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
		...TOP_LEVEL.map((f) => fieldProperty(f, { required: REQUIRED_ON_CREATE.includes(f), displayOptions: show })),
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: show,
			options: ALL_FIELDS.filter((f) => !TOP_LEVEL.includes(f)).map((f) => fieldProperty(f)),
		},
		optionsCollection('videoConversationCard', 'create'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const input: IDataObject = { ...(this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject) };
		for (const f of TOP_LEVEL) input[f] = this.getNodeParameter(f, itemIndex, '');
		const qs = validateInput(this.getNode(), createSchema, compact(input), itemIndex, LABELS);
		const path = accountPath(this, itemIndex, '/cards/video_conversation');
		return single(await adsRequest(this, itemIndex, { method: 'POST', path, qs }));
	},
};
