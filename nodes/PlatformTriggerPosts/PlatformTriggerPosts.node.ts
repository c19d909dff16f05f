import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { triggerProperties } from '../triggers/webhook/description';
import { checkExists, create, remove } from '../triggers/webhook/lifecycle';
import { TRIGGER_OUTPUTS } from '../triggers/webhook/outputs';
import { answerCrc, receiveDelivery } from '../triggers/webhook/receive';
import { triggerSubtitle } from '../triggers/shared/subtitle';

// The type name's spelling: see the note in ../PlatformPostTriggers/PlatformPostTriggers.node.ts.
export class PlatformTriggerPosts implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Platform Trigger',
		name: 'platformTriggerPosts',
		icon: { light: 'file:../../icons/platform.svg', dark: 'file:../../icons/platform.dark.svg' },
		// Opened as is by the editor's Docs link; the codex links get ?utm… appended, which would break an anchor.
		documentationUrl:
			'https://github.com/n8n-nodes-platform/n8n-nodes-platform/blob/main/docs/nodes/platform-trigger.md#platform-trigger',
		group: ['trigger'],
		// 2: replay job statuses on a second output, "Status" (see outputs.ts); 1 unchanged.
		// 3: "All Events" also subscribes to the event types added later (ALL_EVENTS_VERSION, outputs.ts).
		version: [1, 2, 3],
		defaultVersion: 3,
		subtitle: triggerSubtitle,
		// The node panel shows this text on the Platform Posts entry too (n8n gives a paired app its
		// trigger's description), so it names both halves.
		description:
			'Posts, users, DMs and more; starts a workflow on account activity or on posts matching your search rules',
		defaults: { name: 'Platform Trigger' },
		inputs: [],
		outputs: TRIGGER_OUTPUTS,
		credentials: [
			{ name: 'platformBearerApi', required: true },
			// The account's own credential, for subscriptions the service takes only in user context.
			// Written out (not mapped from USER_CREDENTIAL_TYPES): n8n-node lint reads this array literally.
			{
				name: 'platformOAuth2Api',
				required: true,
				displayOptions: {
					show: {
						userAuthentication: ['platformOAuth2Api'],
						mode: ['activity', 'accountActivity'],
					},
				},
			},
			{
				name: 'platformOAuth1Api',
				required: true,
				displayOptions: {
					show: {
						userAuthentication: ['platformOAuth1Api'],
						mode: ['activity', 'accountActivity'],
					},
				},
			},
			{
				name: 'platformOAuth1ConnectApi',
				required: true,
				displayOptions: {
					show: {
						userAuthentication: ['platformOAuth1ConnectApi'],
						mode: ['activity', 'accountActivity'],
					},
				},
			},
		],
		webhooks: [
			{ name: 'setup', httpMethod: 'GET', responseMode: 'onReceived', path: 'webhook' },
			// responseData '' lets n8n answer with the body webhook() hands it (receive.ts); without it,
			// n8n's default for 'onReceived' would be the text "firstEntryJson".
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: '',
				path: 'webhook',
			},
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
