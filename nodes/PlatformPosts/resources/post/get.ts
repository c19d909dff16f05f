import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { postIdFrom } from '../../../shared/locators';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import type { PlatformRequest } from '../../../shared/transport';
import { platformRequest } from '../../../shared/transport';
import { fieldProperties, fieldQuery, mergeIncludes } from './fields';

export const LOOKUP_BATCH = 100;

export const get: ItemOperation = {
	option: { name: 'Get', value: 'get', description: 'Look up one or many posts by ID or URL', action: 'Get posts' },
	properties: [
		{
			displayName: 'Post IDs or URLs',
			name: 'postIds',
			type: 'string',
			default: '',
			required: true,
			displayOptions: showFor('post', 'get'),
			description: 'Comma-separated post IDs or URLs; more than 100 are split into several requests',
		},
		...fieldProperties('get'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const raw = String(this.getNodeParameter('postIds', itemIndex, ''));
		const ids: string[] = [];
		for (const part of raw.split(/[\s,]+/).filter(Boolean)) {
			const id = postIdFrom(part);
			if (!id) throw new NodeOperationError(this.getNode(), `Invalid input in item ${itemIndex + 1}: Post IDs or URLs: "${part}" is not a post ID or URL`, { itemIndex });
			ids.push(id);
		}
		if (!ids.length) throw new NodeOperationError(this.getNode(), `Invalid input in item ${itemIndex + 1}: Post IDs or URLs is empty`, { itemIndex });
		const qs = fieldQuery(this, itemIndex);
		const merge = this.getNodeParameter('output', itemIndex, 'merged') === 'merged';
		const out: IDataObject[] = [];
		for (let i = 0; i < ids.length; i += LOOKUP_BATCH) {
			const body = await platformRequest.call<IExecuteFunctions, [PlatformRequest], Promise<IDataObject>>(this, {
				method: 'GET',
				path: '/2/tweets',
				qs: { ...qs, ids: ids.slice(i, i + LOOKUP_BATCH).join(',') },
				itemIndex,
			});
			if (merge) out.push(...mergeIncludes(body));
			else out.push(body);
		}
		return out;
	},
};
