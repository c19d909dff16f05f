import type { IExecuteFunctions } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { accountIdProperty, accountPath, listAll, listProperties } from '../../common';

export const getMany: ItemOperation = {
	option: { name: 'Get Many', value: 'getMany', description: 'List scheduled posts of the ad account', action: 'Get many scheduled posts' },
	properties: [accountIdProperty('scheduledPost', ['getMany']), ...listProperties('scheduledPost', 200)],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		return await listAll(this, itemIndex, accountPath(this, itemIndex, '/scheduled_tweets'), 200);
	},
};
