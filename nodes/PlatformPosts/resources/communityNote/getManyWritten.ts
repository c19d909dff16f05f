import type { IDataObject } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { testModeProperty } from './common';

const OP = 'getManyWritten';

export const getManyWritten: ItemOperation = {
	option: {
		name: 'Get Many Written',
		value: OP,
		description:
			'List the community notes the authenticated note writer has written, with their status and test results. Needs a user-context credential of an enrolled note writer.',
		action: 'Get community notes written',
	},
	properties: [
		testModeProperty,
		returnAllProperty(),
		limitProperty(1000),
		{
			displayName: 'Note Fields',
			name: 'noteFields',
			type: 'multiOptions',
			default: [],
			options: ['id', 'info', 'status', 'test_result'].map((value) => ({ name: value, value })),
			description: 'Note fields to return (note.fields)',
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const qs: IDataObject = {
			test_mode: ctx.getNodeParameter('testMode', itemIndex, true) as boolean,
		};
		const fields = ctx.getNodeParameter('noteFields', itemIndex, []) as string[];
		if (fields.length) qs['note.fields'] = fields.join(',');
		return await ctx.paginate(
			{ method: 'GET', path: '/2/notes/search/notes_written', qs },
			{
				returnAll: ctx.getNodeParameter('returnAll', itemIndex, false) as boolean,
				limit: ctx.getNodeParameter('limit', itemIndex, 50) as number,
				pageSizeParam: 'max_results',
				maxPageSize: 100,
				tokenParam: 'pagination_token',
			},
		);
	},
};
