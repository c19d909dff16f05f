import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { triggerProperties } from './description';
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
			{ name: 'platformBearerApi', required: true },
			// The account's own credential, for subscriptions the service takes only in user context.
			// Written out (not mapped from USER_CREDENTIAL_TYPES): n8n-node lint reads this array literally.
			{
				name: 'platformOAuth2Api',
				required: true,
				displayOptions: { show: { userAuthentication: ['platformOAuth2Api'], mode: ['activity', 'accountActivity'] } },
			},
			{
				name: 'platformOAuth1Api',
				required: true,
				displayOptions: { show: { userAuthentication: ['platformOAuth1Api'], mode: ['activity', 'accountActivity'] } },
			},
			{
				name: 'platformOAuth1ConnectApi',
				required: true,
				displayOptions: { show: { userAuthentication: ['platformOAuth1ConnectApi'], mode: ['activity', 'accountActivity'] } },
			},
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
