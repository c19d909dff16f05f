import type { IDataObject } from 'n8n-workflow';

import { APP_ONLY } from '../../../shared/authentication';
import { locatorValue } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { jobFieldsProperty, jobFieldsQuery } from './fields';

export const getJob: ItemOperation = {
	option: {
		name: 'Get Job',
		value: 'getJob',
		description: 'Get one compliance job: its status and, once complete, its download URL',
		action: 'Get a compliance job',
	},
	properties: [
		{
			displayName: 'Job ID',
			name: 'complianceJobId',
			type: 'string',
			default: '',
			required: true,
			placeholder: '1421185651106480129',
			description: 'The ID of the job (as Create Job returned it)',
		},
		jobFieldsProperty,
	],
	authentication: APP_ONLY,
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = locatorValue(
			ctx.getNode(),
			ctx.getNodeParameter('complianceJobId', itemIndex, ''),
			'Job ID',
			itemIndex,
			(v) => (/^\d{1,19}$/.test(v.trim()) ? v.trim() : undefined),
		);
		const body = await ctx.request({
			method: 'GET',
			path: `/2/compliance/jobs/${id}`,
			qs: jobFieldsQuery(ctx, itemIndex),
		});
		return unwrapData<IDataObject>(body);
	},
};
