import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty, credentialsFor } from '../shared/descriptions';
import { operationProperties, resourceProperty, routeExecution } from '../shared/router';
import { card } from './resources/card';
import { scheduledPost } from './resources/scheduledPost';

const resources = { card, scheduledPost };

export class AdsCreatives implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Ads Creatives',
		name: 'adsCreatives',
		icon: { light: 'file:../../icons/ads.svg', dark: 'file:../../icons/ads.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Cards and scheduled posts of an ad account',
		defaults: { name: 'Ads Creatives' },
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

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await routeExecution.call(this, resources);
	}
}
