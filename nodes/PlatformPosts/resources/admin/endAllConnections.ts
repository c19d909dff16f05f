import type { IDataObject } from 'n8n-workflow';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { adminRequest, BEARER_NOTE } from './common';

export const endAllConnections: ItemOperation = {
	option: {
		name: 'End All Streaming Connections',
		value: 'endAllConnections',
		description: `DESTRUCTIVE: disconnect every active streaming connection of the app, on every endpoint; clients must reconnect. ${BEARER_NOTE}.`,
		action: 'End all streaming connections',
	},
	properties: [],
	async execute(ctx: OperationContext, itemIndex: number) {
		const body = await adminRequest.call(ctx, itemIndex, {
			method: 'DELETE',
			path: '/2/connections/all',
		});
		return unwrapData<IDataObject>(body) ?? {};
	},
};
