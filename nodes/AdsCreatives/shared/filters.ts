import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { idList } from './fields';

/** The `q` name-prefix filter of the card lists (at most 80 characters). */
export const namePrefix = {
	property: {
		displayName: 'Name Prefix',
		name: 'q',
		type: 'string',
		default: '',
		description:
			'Only objects whose name starts with this (case-insensitive, at most 80 characters)',
	} as INodeProperties,
	read(ctx: IExecuteFunctions, itemIndex: number, filters: IDataObject): string | undefined {
		const q = String(filters.q ?? '');
		if (q.length > 80) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Name Prefix: at most 80 characters`,
				{ itemIndex },
			);
		}
		return q || undefined;
	},
};

/** The `user_id` filter of draft and scheduled post lists (default: the account's FULL promotable user). */
export const userFilter = {
	property: {
		displayName: 'User ID',
		name: 'userId',
		type: 'string',
		default: '',
		description: "Posts of this promotable user (default: the account's full promotable user)",
	} as INodeProperties,
	read(ctx: IExecuteFunctions, itemIndex: number, filters: IDataObject): IDataObject {
		const user = String(filters.userId ?? '').trim();
		if (user && !/^\d{1,19}$/.test(user)) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: User ID: a user ID is 1-19 digits`,
				{ itemIndex },
			);
		}
		return user ? { user_id: user } : {};
	},
};

/** Card IDs (up to 200) and name prefix: the filters of the poll and video conversation card lists. */
export const cardIdsAndPrefix = {
	properties: [
		{
			displayName: 'Card IDs',
			name: 'cardIds',
			type: 'string',
			default: '',
			description: 'Comma-separated, up to 200',
		},
		namePrefix.property,
	] as INodeProperties[],
	read(ctx: IExecuteFunctions, itemIndex: number, filters: IDataObject): IDataObject {
		return {
			card_ids: idList(ctx, filters.cardIds, 'Card IDs', itemIndex),
			q: namePrefix.read(ctx, itemIndex, filters),
		};
	},
};
