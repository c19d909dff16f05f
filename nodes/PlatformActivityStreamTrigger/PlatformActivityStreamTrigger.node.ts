import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
} from 'n8n-workflow';

import { activityStreamProperties, startActivityStream } from '../PlatformTrigger/activityStream';

/**
 * The Platform Trigger's Activity events over the app's activity stream. A node of its own, not a
 * "Trigger On" value of the Platform Trigger: a stream needs n8n's trigger() method, and n8n runs a
 * node that has one through it in manual runs, before its webhook, so adding it to the webhook
 * trigger would change how every saved Platform Trigger workflow runs when tested in the editor.
 */
export class PlatformActivityStreamTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Platform Activity Stream Trigger',
		name: 'platformActivityStreamTrigger',
		icon: { light: 'file:../../icons/platform.svg', dark: 'file:../../icons/platform.dark.svg' },
		documentationUrl:
			'https://github.com/n8n-nodes-platform/n8n-nodes-platform/blob/main/docs/nodes/platform-trigger.md#activity-stream',
		group: ['trigger'],
		version: 1,
		subtitle: '={{ "Activity stream: " + ($parameter["events"] || []).join(", ") }}',
		description:
			'Starts a workflow on account activity (posts, DMs, profile, Spaces) over a connection n8n opens; no public URL needed',
		defaults: { name: 'Platform Activity Stream Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'platformBearerApi', required: true },
			{
				name: 'platformOAuth2Api',
				required: true,
				displayOptions: { show: { userAuthentication: ['platformOAuth2Api'] } },
			},
			{
				name: 'platformOAuth1Api',
				required: true,
				displayOptions: { show: { userAuthentication: ['platformOAuth1Api'] } },
			},
			{
				name: 'platformOAuth1ConnectApi',
				required: true,
				displayOptions: { show: { userAuthentication: ['platformOAuth1ConnectApi'] } },
			},
		],
		properties: activityStreamProperties,
	};

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		return await startActivityStream(this);
	}
}
