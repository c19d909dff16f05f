import type { IDataObject } from 'n8n-workflow';

import { APP_ONLY } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { jobFieldsProperty, jobFieldsQuery, jobTypeOptions } from './fields';

export const getManyJobs: ItemOperation = {
	option: {
		name: 'Get Many Jobs',
		value: 'getManyJobs',
		description: "Get the app's compliance jobs of one type",
		action: 'Get many compliance jobs',
	},
	properties: [
		{
			displayName: 'Type',
			name: 'jobType',
			type: 'options',
			default: 'tweets',
			required: true,
			description: 'Jobs that check posts or jobs that check users',
			options: jobTypeOptions,
		},
		{
			displayName: 'Status',
			name: 'jobStatus',
			type: 'options',
			default: 'any',
			options: [
				{ name: 'Any', value: 'any' },
				{ name: 'Complete', value: 'complete' },
				{ name: 'Created', value: 'created' },
				{ name: 'Failed', value: 'failed' },
				{ name: 'In Progress', value: 'in_progress' },
			],
		},
		jobFieldsProperty,
	],
	authentication: APP_ONLY,
	async execute(ctx: OperationContext, itemIndex: number) {
		const qs: IDataObject = {
			type: ctx.getNodeParameter('jobType', itemIndex, 'tweets'),
			...jobFieldsQuery(ctx, itemIndex),
		};
		const status = ctx.getNodeParameter('jobStatus', itemIndex, 'any');
		if (status !== 'any') qs.status = status;
		const body = await ctx.request({ method: 'GET', path: '/2/compliance/jobs', qs });
		return (Array.isArray(body?.data) ? body.data : []) as IDataObject[];
	},
};
