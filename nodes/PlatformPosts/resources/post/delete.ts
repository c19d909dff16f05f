import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { locatorValue, postIdFrom, postLocator } from '../../../shared/locators';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { optionsCollection, postsRequest, requireUserContext } from '../../common';

const show = showFor('post', 'delete');

export const deletePost: ItemOperation = {
	option: {
		name: 'Delete',
		value: 'delete',
		description: 'Delete a post of the authenticated user',
		action: 'Delete a post',
	},
	properties: [
		{ ...postLocator('postId', 'Post', show), description: 'The post to delete, by its ID or by its URL' },
		optionsCollection('post', 'delete'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		requireUserContext(this, itemIndex, 'Deleting a post');
		const id = locatorValue(this.getNode(), this.getNodeParameter('postId', itemIndex), 'Post', itemIndex, postIdFrom);
		const body = await postsRequest.call(this, itemIndex, { method: 'DELETE', path: `/2/tweets/${id}` });
		return { id, ...unwrapData<IDataObject>(body) };
	},
};
