import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { credentialsFor } from '../shared/descriptions';
import { refuseEngineV2 } from '../shared/engine';
import { searchOwnedLists } from '../shared/listSearch';
import {
	POLL_TRIGGER_DISPLAY_NAME,
	pollTriggerProperties,
	pollTriggerSubtitle,
} from '../triggers/poll/description';
import { poll } from '../triggers/poll/poll';

// The type name's spelling: see the note in ../PlatformPostTriggers/PlatformPostTriggers.node.ts.
export class PlatformPostsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: POLL_TRIGGER_DISPLAY_NAME,
		name: 'platformPostsTrigger',
		// Opened as is by the editor's Docs link; the codex links get ?utm… appended, which would break an anchor.
		documentationUrl:
			'https://github.com/n8n-nodes-platform/n8n-nodes-platform/blob/main/docs/nodes/platform-poll-trigger.md#platform-poll-trigger',
		icon: { light: 'file:../../icons/platform.svg', dark: 'file:../../icons/platform.dark.svg' },
		group: ['trigger'],
		// 1.1: Spaces labelled by their state (scheduled, start, end; a Space seen before emitted again
		// when it starts or ends), direct message joins and leaves left out unless asked for and never
		// labelled as messages, and Leave Out My Messages. Version 1 keeps its output.
		// 1.2: a pause of the polls long enough to notice (the rate-limit window spent) is reported once
		// as a failed execution naming the reset time. 1 and 1.1 only log it.
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
		subtitle: pollTriggerSubtitle,
		// The node panel shows this text on the Platform Posts entry (n8n merges the triggers into it and
		// gives it the description of the last one), so it names the node and the three triggers.
		description:
			'Posts, users, DMs and more; starts a workflow on account activity or matching posts (Platform Trigger, webhooks; Activity Stream Trigger, no public URL) or on new posts, mentions or followers found by polling (Platform Poll Trigger)',
		defaults: { name: POLL_TRIGGER_DISPLAY_NAME },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: credentialsFor(['appOnly', 'pkce', 'hmac', 'connect']),
		properties: pollTriggerProperties,
	};

	methods = { listSearch: { searchOwnedLists } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		// Every poll, not only activation's: n8n re-reads the workflow's settings for each tick.
		refuseEngineV2(this);
		return await poll.call(this);
	}
}
