import type { IDataObject } from 'n8n-workflow';
import { splitList } from '../../../shared/lists';

import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { adminPaginate, BEARER_NOTE } from './common';

const OP = 'listConnections';

export const listConnections: ItemOperation = {
	option: {
		name: 'List Streaming Connections',
		value: OP,
		description: `List the app's streaming connections, active or past (endpoint, connected time, client IP, disconnect reason). ${BEARER_NOTE}.`,
		action: 'List streaming connections',
	},
	properties: [
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			default: 'active',
			options: [
				{ name: 'Active', value: 'active' },
				{ name: 'All', value: 'all' },
				{ name: 'Inactive', value: 'inactive' },
			],
		},
		{
			displayName: 'Endpoints',
			name: 'endpoints',
			type: 'string',
			default: '',
			placeholder: 'filtered_stream, sample_stream',
			description:
				'Only connections of these streaming endpoints, comma-separated (all when empty)',
		},
		returnAllProperty(),
		limitProperty(10000),
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const qs: IDataObject = { status: ctx.getNodeParameter('status', itemIndex, 'active') };
		const endpoints = splitList(ctx.getNodeParameter('endpoints', itemIndex, ''));
		if (endpoints.length) qs.endpoints = endpoints.join(',');
		return await adminPaginate.call(
			ctx,
			itemIndex,
			{ method: 'GET', path: '/2/connections', qs },
			100,
		);
	},
};
