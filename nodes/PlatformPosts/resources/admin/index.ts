import { APP_ONLY } from '../../../shared/authentication';
import type { Resource } from '../../../shared/router';
import { addRules } from './addRules';
import { checkAccountActivitySubscription } from './checkAccountActivitySubscription';
import { countAccountActivitySubscriptions } from './countAccountActivitySubscriptions';
import { createSubscription } from './createSubscription';
import { createWebhook } from './createWebhook';
import { deleteRules } from './deleteRules';
import { deleteSubscription } from './deleteSubscription';
import { deleteWebhook } from './deleteWebhook';
import { endAllConnections } from './endAllConnections';
import { endConnectionsByIds } from './endConnectionsByIds';
import { endEndpointConnections } from './endEndpointConnections';
import { getRuleCounts } from './getRuleCounts';
import { listAccountActivitySubscriptions } from './listAccountActivitySubscriptions';
import { listConnections } from './listConnections';
import { listRules } from './listRules';
import { listSubscriptions } from './listSubscriptions';
import { listWebhooks } from './listWebhooks';
import { replayAccountActivity } from './replayAccountActivity';
import { replayWebhook } from './replayWebhook';
import { revalidateWebhooks } from './revalidateWebhooks';
import { updateSubscription } from './updateSubscription';
import { validateWebhook } from './validateWebhook';

/**
 * App administration: the service takes these only with the app-only bearer token, except a new
 * activity subscription (which also takes a user's token, and needs one for direct message and chat
 * events) and the check of an account's own Account Activity subscription (a user's token only).
 */
export const admin: Resource = {
	option: { name: 'Admin (App-Only)', value: 'admin' },
	authentication: APP_ONLY,
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
		listAccountActivitySubscriptions,
		countAccountActivitySubscriptions,
		checkAccountActivitySubscription,
		replayAccountActivity,
		listConnections,
		endAllConnections,
		endEndpointConnections,
		endConnectionsByIds,
		listRules,
		addRules,
		deleteRules,
		getRuleCounts,
	},
};
