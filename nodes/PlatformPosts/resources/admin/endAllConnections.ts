import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { optionsCollection } from '../../common';
import { adminRequest, BEARER_NOTE } from './common';

export const endAllConnections: ItemOperation = {
	option: {
		name: 'End All Streaming Connections',
		value: 'endAllConnections',
		description: `DESTRUCTIVE: disconnect every active streaming connection of the app, on every endpoint; clients must reconnect. ${BEARER_NOTE}.`,
		action: 'End all streaming connections',
	},
	properties: [optionsCollection('admin', 'endAllConnections')],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const body = await adminRequest.call(this, itemIndex, 'Ending streaming connections', { method: 'DELETE', path: '/2/connections/all' });
		return unwrapData<IDataObject>(body) ?? {};
	},
};
