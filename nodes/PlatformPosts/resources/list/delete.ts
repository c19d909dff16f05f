import type { IDataObject } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import { listLocator } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { deletedResult } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { listIdParameter } from './common';

export const deleteList: ItemOperation = {
	option: {
		name: 'Delete',
		value: 'delete',
		description: 'Delete a list the authenticated user owns',
		action: 'Delete a list',
	},
	properties: [listLocator('The list to delete (one the authenticated user owns)')],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = listIdParameter(ctx, itemIndex);
		const body = await ctx.request({ method: 'DELETE', path: `/2/lists/${id}` });
		return deletedResult(id, unwrapData<IDataObject>(body));
	},
};
