import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL_TYPES } from '../shared/transport';
import { triggerProperties } from './description';
import { USER_CREDENTIAL_TYPES } from './events';
import { checkExists, create, remove } from './lifecycle';
import { answerCrc, receiveDelivery } from './receive';

export class PlatformTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Platform Trigger',
		name: 'platformTrigger',
		icon: { light: 'file:../../icons/platform.svg', dark: 'file:../../icons/platform.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{$parameter["mode"] === "stream" ? "posts matching search rules" : $parameter["mode"] === "accountActivity" ? "account activity" : $parameter["events"].join(", ")}}',
		description: 'Starts the workflow when activity events arrive (signed webhook deliveries)',
		defaults: { name: 'Platform Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: CREDENTIAL_TYPES.appOnly, required: true },
			// The account's own credential, for subscriptions the service takes only in user context.
			...USER_CREDENTIAL_TYPES.map((name) => ({
				name,
				required: true,
				displayOptions: { show: { userAuthentication: [name], mode: ['activity', 'accountActivity'] } },
			})),
		],
		webhooks: [
			{ name: 'setup', httpMethod: 'GET', responseMode: 'onReceived', path: 'webhook' },
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		],
		properties: triggerProperties,
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await checkExists(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await create(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await remove(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		if (this.getWebhookName() === 'setup') return await answerCrc(this);
		return await receiveDelivery(this);
	}
}
