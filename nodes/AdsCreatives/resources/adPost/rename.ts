import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions';
import { locatorValue, postIdFrom, postLocator } from '../../../shared/locators';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { accountPath, adsRequest, single } from '../../common';

const show = showFor('adPost', 'rename');

export const rename: ItemOperation = {
	option: { name: 'Rename', value: 'rename', description: 'Set the name of a post of the ad account', action: 'Rename a post of the ad account' },
	properties: [
		postLocator('postId', 'Post', show),
		{ displayName: 'Name', name: 'name', type: 'string', default: '', displayOptions: show, description: 'At most 80 characters; empty clears the name' },
		optionsCollection('adPost', 'rename'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const id = locatorValue(this.getNode(), this.getNodeParameter('postId', itemIndex, ''), 'Post', itemIndex, postIdFrom);
		const name = this.getNodeParameter('name', itemIndex, '') as string;
		if (name.length > 80) {
			throw new NodeOperationError(this.getNode(), `Invalid input in item ${itemIndex + 1}: Name: at most 80 characters (got ${name.length})`, { itemIndex });
		}
		return single(await adsRequest(this, itemIndex, { method: 'PUT', path: accountPath(this, itemIndex, `/tweets/${id}/name`), qs: { name } }));
	},
};
