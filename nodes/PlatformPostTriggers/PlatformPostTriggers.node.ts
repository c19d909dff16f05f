import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
} from 'n8n-workflow';

import { activityStreamProperties, startActivityStream } from '../triggers/stream/activityStream';
import { activityEventsSubtitle } from '../triggers/shared/subtitle';

/**
 * Why the three triggers' type names are spelled as they are (said here once): n8n's node panel lists
 * a trigger among an action node's actions, under one entry, when the trigger's display name says
 * Trigger and its type name is the action node's with one "Trigger" inserted. The action node is
 * platformPosts, so the Platform Trigger is platformTrigger·Posts, the Platform Poll Trigger
 * platformPosts·Trigger and this one platformPost·Trigger·s. n8n's linter names each node's file after
 * its type, and a class ending in Trigger would need a type ending in Trigger, hence the class names.
 * The names are what saved workflows refer to, so they stay as they are.
 *
 * This trigger's one entry in that panel is the action of this field (the panel lists a trigger's
 * "Trigger On" values; without this field it would list every value of Events). Hidden: the node has
 * one way to start, so there is nothing to choose.
 */
const triggerOn: INodeProperties = {
	displayName: 'Trigger On',
	name: 'triggerOn',
	type: 'hidden',
	default: 'activity',
	options: [
		{
			name: 'Activity Events',
			value: 'activity',
			action: 'On account activity over a stream (no public URL needed)',
		},
	],
};

/**
 * The Platform Trigger's Activity events over the app's activity stream. A node of its own, not a
 * "Trigger On" value of the Platform Trigger: a stream needs n8n's trigger() method, and n8n runs a
 * node that has one through it in manual runs, before its webhook, so adding it to the webhook
 * trigger would change how every saved Platform Trigger workflow runs when tested in the editor.
 */
export class PlatformPostTriggers implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Platform Activity Stream Trigger',
		name: 'platformPostTriggers',
		icon: { light: 'file:../../icons/platform.svg', dark: 'file:../../icons/platform.dark.svg' },
		documentationUrl:
			'https://github.com/n8n-nodes-platform/n8n-nodes-platform/blob/main/docs/nodes/activity-stream-trigger.md#platform-activity-stream-trigger',
		group: ['trigger'],
		version: 1,
		subtitle: activityEventsSubtitle,
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
		properties: [triggerOn, ...activityStreamProperties],
	};

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		return await startActivityStream(this);
	}
}
