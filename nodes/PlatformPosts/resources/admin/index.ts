import type { Resource } from '../../../shared/router';
import { addRules } from './addRules';
import { createSubscription } from './createSubscription';
import { createWebhook } from './createWebhook';
import { deleteRules } from './deleteRules';
import { deleteSubscription } from './deleteSubscription';
import { deleteWebhook } from './deleteWebhook';
import { endAllConnections } from './endAllConnections';
import { endConnectionsByIds } from './endConnectionsByIds';
import { endEndpointConnections } from './endEndpointConnections';
import { listConnections } from './listConnections';
import { listRules } from './listRules';
import { listSubscriptions } from './listSubscriptions';
import { listWebhooks } from './listWebhooks';
import { replayWebhook } from './replayWebhook';
import { revalidateWebhooks } from './revalidateWebhooks';
import { updateSubscription } from './updateSubscription';
import { validateWebhook } from './validateWebhook';

/** App administration; every operation needs the app-only bearer credential. */
export const admin: Resource = {
	option: { name: 'Admin (App-Only)', value: 'admin' },
	defaultOperation: 'listWebhooks',
	operations: {
		listWebhooks,
		createWebhook,
		validateWebhook,
		deleteWebhook,
		replayWebhook,
		revalidateWebhooks,
		listSubscriptions,
		createSubscription,
		updateSubscription,
		deleteSubscription,
		listConnections,
		endAllConnections,
		endEndpointConnections,
		endConnectionsByIds,
		listRules,
		addRules,
		deleteRules,
	},
};
