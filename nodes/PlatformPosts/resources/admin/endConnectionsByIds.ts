import type { IDataObject } from 'n8n-workflow';
import { splitList } from '../../../shared/lists';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { adminRequest, BEARER_NOTE } from './common';

const OP = 'endConnectionsByIds';
const MAX = 100;

export const endConnectionsByIds: ItemOperation = {
	option: {
		name: 'End Streaming Connections by ID',
		value: OP,
		description: `DESTRUCTIVE: disconnect specific streaming connections by their UUIDs (1-100, from List Streaming Connections). ${BEARER_NOTE}.`,
		action: 'End streaming connections by ID',
	},
	properties: [
		{
			displayName: 'Connection UUIDs',
			name: 'uuids',
			type: 'string',
			default: '',
			required: true,
			description: 'The connections to end, separated by commas, spaces or new lines (at most 100)',
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const uuids = [...new Set(splitList(ctx.getNodeParameter('uuids', itemIndex, '')))];
		const invalid = uuids.find((u) => !/^[A-Za-z0-9-]{1,64}$/.test(u));
		const fail = (message: string) =>
			new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Connection UUIDs: ${message}`,
				{ itemIndex },
			);
		if (!uuids.length) throw fail('empty');
		if (uuids.length > MAX) throw fail(`at most ${MAX} per request (got ${uuids.length})`);
		if (invalid) throw fail(`"${invalid}" is not a connection UUID`);
		const body = await adminRequest.call(ctx, itemIndex, {
			method: 'DELETE',
			path: '/2/connections',
			body: { uuids },
		});
		return unwrapData<IDataObject>(body) ?? {};
	},
};
