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
			// Written out (the names of USER_CREDENTIAL_TYPES, not mapped from it): n8n's lint rules read this array
			// literally and crash on a spread.
			{ name: CREDENTIAL_TYPES.pkce, required: true, displayOptions: { show: { userAuthentication: [CREDENTIAL_TYPES.pkce], mode: ['activity', 'accountActivity'] } } },
			{ name: CREDENTIAL_TYPES.hmac, required: true, displayOptions: { show: { userAuthentication: [CREDENTIAL_TYPES.hmac], mode: ['activity', 'accountActivity'] } } },
			{ name: CREDENTIAL_TYPES.connect, required: true, displayOptions: { show: { userAuthentication: [CREDENTIAL_TYPES.connect], mode: ['activity', 'accountActivity'] } } },
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
