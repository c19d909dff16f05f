import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { accountIdProperty, accountPath, adsRequest, objectId, objectIdProperty } from '../../common';

export const deleteScheduledPost: ItemOperation = {
	option: { name: 'Delete', value: 'delete', description: 'Delete a scheduled post that is still pending', action: 'Delete a scheduled post' },
	properties: [accountIdProperty('scheduledPost', ['delete']), objectIdProperty('Scheduled Post ID', 'scheduledPostId', 'scheduledPost', ['delete'])],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const id = objectId(this, itemIndex, 'scheduledPostId', 'Scheduled Post ID');
		const body = await adsRequest(this, { method: 'DELETE', path: accountPath(this, itemIndex, `/scheduled_tweets/${id}`), itemIndex });
		return unwrapData<IDataObject>(body);
	},
};
