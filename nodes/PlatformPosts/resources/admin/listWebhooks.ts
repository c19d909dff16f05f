import type { IExecuteFunctions } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { optionsCollection } from '../../common';
import { adminRequest, BEARER_NOTE, listOf } from './common';

export const listWebhooks: ItemOperation = {
	option: {
		name: 'List Webhooks',
		value: 'listWebhooks',
		description: `List the app's registered webhooks with their URL and whether they are valid. ${BEARER_NOTE}.`,
		action: 'List webhooks',
	},
	properties: [optionsCollection('admin', 'listWebhooks')],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		return listOf(await adminRequest.call(this, itemIndex, 'Listing webhooks', { method: 'GET', path: '/2/webhooks' }));
	},
};
