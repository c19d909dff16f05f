import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import { deletedResult } from '../../../shared/router';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';

const OP = 'delete';

/** Community Note → Delete Note: removes a note the authenticated account wrote (DELETE /2/notes/:id). */
export const deleteNote: ItemOperation = {
	option: {
		name: 'Delete Note',
		value: OP,
		description:
			'Delete a community note you wrote (its ID as Submit or Get Many Written returned it). Needs a user-context credential (OAuth2 scope tweet.write).',
		action: 'Delete a community note',
	},
	properties: [
		{
			displayName: 'Note ID',
			name: 'noteId',
			type: 'string',
			default: '',
			required: true,
			placeholder: '1850000000000000001',
			description: 'The ID of the note to delete',
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = String(ctx.getNodeParameter('noteId', itemIndex, '') ?? '').trim();
		if (!/^\d{1,19}$/.test(id)) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Note ID: "${id}" is not a note ID (1-19 digits)`,
				{ itemIndex },
			);
		}
		const body = await ctx.request({ method: 'DELETE', path: `/2/notes/${id}` });
		return deletedResult(id, unwrapData<IDataObject>(body));
	},
};
