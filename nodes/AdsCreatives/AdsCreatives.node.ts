import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty, credentialsFor } from '../shared/descriptions';
import {
	operationProperties,
	operationSubtitle,
	resourceProperty,
	routeExecution,
} from '../shared/router';
import { listSearch } from './listSearch';
import { accountMedia } from './resources/accountMedia';
import { adPost } from './resources/adPost';
import { card } from './resources/card';
import { draftPost } from './resources/draftPost';
import { imageConversationCard } from './resources/imageConversationCard';
import { mediaLibrary } from './resources/mediaLibrary';
import { pollCard } from './resources/pollCard';
import { prerollCta } from './resources/prerollCta';
import { scheduledPost } from './resources/scheduledPost';
import { videoConversationCard } from './resources/videoConversationCard';

const resources = {
	card,
	pollCard,
	videoConversationCard,
	imageConversationCard,
	mediaLibrary,
	accountMedia,
	draftPost,
	scheduledPost,
	prerollCta,
	adPost,
};

export class AdsCreatives implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Platform Ads Creatives',
		name: 'adsCreatives',
		icon: { light: 'file:../../icons/ads.svg', dark: 'file:../../icons/ads.dark.svg' },
		// Opened as is by the editor's Docs link; the codex links get ?utm… appended, which would break an anchor.
		documentationUrl:
			'https://github.com/n8n-nodes-platform/n8n-nodes-platform/blob/main/docs/nodes/creatives-node.md#ads-creatives',
		group: ['output'],
		version: 1,
		subtitle: operationSubtitle(resources),
		description:
			'Cards, polls, video and image conversation cards, media, draft and scheduled posts, preroll CTAs and posts of an ad account',
		defaults: { name: 'Platform Ads Creatives' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: credentialsFor(['hmac', 'connect']),
		properties: [
			authenticationProperty(['hmac', 'connect']),
			resourceProperty(resources, 'card'),
			...operationProperties(resources),
		],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await routeExecution.call(this, resources, 'ads');
	}
}
