import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { z } from 'zod';

import { optionsCollection } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath, adsRequest, single } from '../../common';
import { POST_LABELS, asUserIdProperty, needsTextOrMedia, postFields, postOptions, readPost, textProperty, toParams } from '../../shared/post';

const show = showFor('draftPost', 'create');
const schema = z.object(postFields).strict().superRefine(needsTextOrMedia);

export const create: ItemOperation = {
	option: { name: 'Create', value: 'create', description: 'Create a draft post for the ad account', action: 'Create a draft post' },
	properties: [
		asUserIdProperty(show),
		textProperty(show),
		{ displayName: 'Additional Fields', name: 'additionalFields', type: 'collection', placeholder: 'Add Field', default: {}, displayOptions: show, options: postOptions() },
		optionsCollection('draftPost', 'create'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const post = validateInput(this.getNode(), schema, readPost(this, itemIndex, fields, { asUserId: true, text: true }), itemIndex, POST_LABELS);
		const path = accountPath(this, itemIndex, '/draft_tweets');
		return single(await adsRequest(this, itemIndex, { method: 'POST', path, qs: toParams(post) }));
	},
};
