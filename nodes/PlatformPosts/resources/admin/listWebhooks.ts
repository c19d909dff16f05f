import type { ItemOperation, OperationContext } from '../../../shared/router';
import { adminRequest, BEARER_NOTE, listOf } from './common';

export const listWebhooks: ItemOperation = {
	option: {
		name: 'List Webhooks',
		value: 'listWebhooks',
		description: `List the app's registered webhooks with their URL and whether they are valid. ${BEARER_NOTE}.`,
		action: 'List webhooks',
	},
	properties: [],
	async execute(ctx: OperationContext, itemIndex: number) {
		return listOf(
			await adminRequest.call(ctx, itemIndex, {
				method: 'GET',
				path: '/2/webhooks',
			}),
		);
	},
};
