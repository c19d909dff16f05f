import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { accountIdProperty, accountPath, adsRequest, objectId, objectIdProperty } from '../../common';

export const deleteCard: ItemOperation = {
	option: { name: 'Delete', value: 'delete', description: 'Delete a card (soft delete: still listed with With Deleted)', action: 'Delete a card' },
	properties: [accountIdProperty('card', ['delete']), objectIdProperty('Card ID', 'cardId', 'card', ['delete'])],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const id = objectId(this, itemIndex, 'cardId', 'Card ID');
		const body = await adsRequest(this, { method: 'DELETE', path: accountPath(this, itemIndex, `/cards/${id}`), itemIndex });
		const data = body.data;
		return (Array.isArray(data) ? data[0] : data) as IDataObject;
	},
};
