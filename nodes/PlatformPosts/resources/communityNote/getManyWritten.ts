import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { optionsCollection, postsPaginate, requireUserContext } from '../../common';
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
		testModeProperty(OP),
		returnAllProperty({ resource: ['communityNote'], operation: [OP] }),
		limitProperty({ resource: ['communityNote'], operation: [OP] }, 1000),
		{
			displayName: 'Note Fields',
			name: 'noteFields',
			type: 'multiOptions',
			default: [],
			displayOptions: showFor('communityNote', OP),
			options: ['id', 'info', 'status', 'test_result'].map((value) => ({ name: value, value })),
			description: 'Note fields to return (note.fields)',
		},
		optionsCollection('communityNote', OP),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		requireUserContext(this, itemIndex, 'Listing notes written');
		const qs: IDataObject = { test_mode: this.getNodeParameter('testMode', itemIndex, true) as boolean };
		const fields = this.getNodeParameter('noteFields', itemIndex, []) as string[];
		if (fields.length) qs['note.fields'] = fields.join(',');
		return await postsPaginate.call(
			this,
			itemIndex,
			{ method: 'GET', path: '/2/notes/search/notes_written', qs },
			{
				returnAll: this.getNodeParameter('returnAll', itemIndex, false) as boolean,
				limit: this.getNodeParameter('limit', itemIndex, 50) as number,
				pageSizeParam: 'max_results',
				maxPageSize: 100,
				tokenParam: 'pagination_token',
			},
		);
	},
};
