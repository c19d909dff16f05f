import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { adminRequest, BEARER_NOTE } from './common';

const OP = 'endEndpointConnections';

export const endEndpointConnections: ItemOperation = {
	option: {
		name: 'End Endpoint Streaming Connections',
		value: OP,
		description: `DESTRUCTIVE: disconnect all of the app's connections to one streaming endpoint (e.g. filtered_stream). ${BEARER_NOTE}.`,
		action: 'End the streaming connections of an endpoint',
	},
	properties: [
		{
			displayName: 'Endpoint',
			name: 'endpoint',
			type: 'string',
			default: 'filtered_stream',
			required: true,
			placeholder: 'filtered_stream',
			description:
				'The streaming endpoint ID, e.g. filtered_stream or sample_stream (as in List Streaming Connections)',
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const endpoint = String(ctx.getNodeParameter('endpoint', itemIndex, '') ?? '').trim();
		if (!/^[A-Za-z0-9_]{1,64}$/.test(endpoint)) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Endpoint: "${endpoint}" is not an endpoint ID such as filtered_stream`,
				{
					itemIndex,
				},
			);
		}
		const body = await adminRequest.call(ctx, itemIndex, {
			method: 'DELETE',
			path: `/2/connections/${endpoint}`,
		});
		return { endpoint, ...(unwrapData<IDataObject>(body) ?? {}) };
	},
};
