import type { IExecuteFunctions } from 'n8n-workflow';

import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { optionsCollection } from '../../common';
import { adminPaginate, BEARER_NOTE } from './common';

const OP = 'listSubscriptions';

export const listSubscriptions: ItemOperation = {
	option: {
		name: 'List Activity Subscriptions',
		value: OP,
		description: `List the app's activity subscriptions (event type, filter, tag, webhook). ${BEARER_NOTE}.`,
		action: 'List activity subscriptions',
	},
	properties: [
		returnAllProperty({ resource: ['admin'], operation: [OP] }),
		limitProperty({ resource: ['admin'], operation: [OP] }, 10000),
		optionsCollection('admin', OP),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		return await adminPaginate.call(this, itemIndex, 'Listing activity subscriptions', {
			method: 'GET',
			path: '/2/activity/subscriptions',
		});
	},
};
