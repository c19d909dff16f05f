import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { locatorValue, postIdFrom, postLocator } from '../../../shared/locators';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { platformRequest, unwrapData } from '../../../shared/transport';

export const deletePost: ItemOperation = {
	option: { name: 'Delete', value: 'delete', description: 'Delete a post of the authenticated user', action: 'Delete a post' },
	properties: [postLocator('postId', 'Post', showFor('post', 'delete'))],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const id = locatorValue(this.getNode(), this.getNodeParameter('postId', itemIndex), 'Post', itemIndex, postIdFrom);
		const body = await platformRequest.call(this, { method: 'DELETE', path: `/2/tweets/${id}`, itemIndex });
		return { id, ...unwrapData<IDataObject>(body) };
	},
};
