import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { optionsCollection, splitList } from '../../common';
import { adminPaginate, BEARER_NOTE } from './common';

const OP = 'listConnections';
const show = showFor('admin', OP);

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
			displayOptions: show,
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
			displayOptions: show,
			description: 'Only connections of these streaming endpoints, comma-separated (all when empty)',
		},
		returnAllProperty({ resource: ['admin'], operation: [OP] }),
		limitProperty({ resource: ['admin'], operation: [OP] }, 10000),
		optionsCollection('admin', OP),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const qs: IDataObject = { status: this.getNodeParameter('status', itemIndex, 'active') };
		const endpoints = splitList(this.getNodeParameter('endpoints', itemIndex, ''));
		if (endpoints.length) qs.endpoints = endpoints.join(',');
		return await adminPaginate.call(this, itemIndex, 'Listing streaming connections', { method: 'GET', path: '/2/connections', qs }, 100);
	},
};
