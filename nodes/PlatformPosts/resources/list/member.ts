import type { IDataObject } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import { listLocator, userLocator, userRefParameter } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { resolveUserId } from '../../users';
import { listIdParameter } from './common';

/** Add Member and Remove Member: POST /2/lists/:id/members, DELETE /2/lists/:id/members/:user_id. */
export function memberOperation(spec: {
	name: string;
	value: string;
	action: string;
	description: string;
	method: 'POST' | 'DELETE';
}): ItemOperation {
	return {
		option: {
			name: spec.name,
			value: spec.value,
			action: spec.action,
			description: spec.description,
		},
		properties: [
			listLocator('The list (one the authenticated user owns)'),
			{
				...userLocator('user'),
				description: 'The user, by username, ID or profile URL',
			},
		],
		authentication: USER_CONTEXT,
		async execute(ctx: OperationContext, itemIndex: number) {
			const id = listIdParameter(ctx, itemIndex);
			const userId = await resolveUserId.call(
				ctx,
				itemIndex,
				userRefParameter(ctx, 'user', itemIndex),
			);
			const body = await ctx.request(
				spec.method === 'POST'
					? { method: 'POST', path: `/2/lists/${id}/members`, body: { user_id: userId } }
					: { method: 'DELETE', path: `/2/lists/${id}/members/${userId}` },
			);
			const data = unwrapData<IDataObject>(body) ?? {};
			return {
				...(typeof data === 'object' ? data : { result: data }),
				list_id: id,
				user_id: userId,
			};
		},
	};
}
