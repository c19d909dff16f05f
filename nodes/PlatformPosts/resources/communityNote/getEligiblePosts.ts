import type { IExecuteFunctions } from 'n8n-workflow';

import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { optionsCollection, postsPaginate, requireUserContext } from '../../common';
import { testModeProperty } from './common';

const OP = 'getEligiblePosts';

export const getEligiblePosts: ItemOperation = {
	option: {
		name: 'Get Eligible Posts',
		value: OP,
		description:
			'List posts on which the authenticated note writer may write a community note. Needs a user-context credential of an account enrolled as a note writer.',
		action: 'Get posts eligible for community notes',
	},
	properties: [
		testModeProperty(OP),
		returnAllProperty({ resource: ['communityNote'], operation: [OP] }),
		limitProperty({ resource: ['communityNote'], operation: [OP] }, 1000),
		optionsCollection('communityNote', OP),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		requireUserContext(this, itemIndex, 'Listing posts eligible for notes');
		return await postsPaginate.call(
			this,
			itemIndex,
			{
				method: 'GET',
				path: '/2/notes/search/posts_eligible_for_notes',
				qs: { test_mode: this.getNodeParameter('testMode', itemIndex, true) as boolean },
			},
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
