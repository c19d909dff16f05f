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
import { searchCatalogs, searchProductSets } from './common';
import { catalog } from './resources/catalog';
import { product } from './resources/product';
import { productSet } from './resources/productSet';
import { scheduledFeed } from './resources/scheduledFeed';

const resources = { catalog, product, productSet, scheduledFeed };

export class AdsCatalog implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Platform Ads Catalog',
		name: 'adsCatalog',
		icon: { light: 'file:../../icons/ads.svg', dark: 'file:../../icons/ads.dark.svg' },
		// Opened as is by the editor's Docs link; the codex links get ?utm… appended, which would break an anchor.
		documentationUrl:
			'https://github.com/n8n-nodes-platform/n8n-nodes-platform/blob/main/docs/nodes/catalog-node.md#ads-catalog',
		group: ['output'],
		// Version 2: Product > Push without a Concurrency option adapts its pace to the service's
		// rate-limit headers; version 1 keeps its fixed default of 4 batches at once.
		version: [1, 2],
		defaultVersion: 2,
		subtitle: operationSubtitle(resources),
		description:
			'Product catalogs of the advertising interface: push products (checked, batched), list and delete products, product sets, scheduled feeds',
		defaults: { name: 'Platform Ads Catalog' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: credentialsFor(['hmac', 'connect']),
		properties: [
			authenticationProperty(['hmac', 'connect']),
			resourceProperty(resources, 'product'),
			...operationProperties(resources),
		],
	};

	methods = {
		listSearch: { searchCatalogs, searchProductSets },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await routeExecution.call(this, resources, 'ads');
	}
}
