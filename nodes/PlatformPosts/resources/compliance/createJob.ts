import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { APP_ONLY } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { validateInput } from '../../../shared/validation';
import { jobTypeOptions } from './fields';

const schema = z.object({
	type: z.enum(['tweets', 'users']),
	name: z.string().max(64, 'at most 64 characters').optional(),
	resumable: z.boolean(),
});

export const createJob: ItemOperation = {
	option: {
		name: 'Create Job',
		value: 'createJob',
		description:
			'Create a batch compliance job: upload a list of post or user IDs to its upload URL, then download the result from its download URL once it is complete',
		action: 'Create a compliance job',
	},
	properties: [
		{
			displayName: 'Type',
			name: 'jobType',
			type: 'options',
			default: 'tweets',
			description: 'What the uploaded IDs are',
			options: jobTypeOptions,
		},
		{
			displayName: 'Name',
			name: 'jobName',
			type: 'string',
			default: '',
			placeholder: 'Monthly check',
			description: 'A name for the job, to tell it apart later (at most 64 characters)',
		},
		{
			displayName: 'Resumable',
			name: 'resumable',
			type: 'boolean',
			default: false,
			description:
				'Whether the upload URL takes the ID list in several parts (a resumable upload) instead of one request',
		},
	],
	authentication: APP_ONLY,
	async execute(ctx: OperationContext, itemIndex: number) {
		const name = String(ctx.getNodeParameter('jobName', itemIndex, '')).trim();
		const input = validateInput(
			ctx.getNode(),
			schema,
			{
				type: ctx.getNodeParameter('jobType', itemIndex, 'tweets'),
				name: name || undefined,
				resumable: ctx.getNodeParameter('resumable', itemIndex, false) === true,
			},
			itemIndex,
			{ type: 'Type', name: 'Name', resumable: 'Resumable' },
		);
		const body: IDataObject = { type: input.type };
		if (input.name) body.name = input.name;
		if (input.resumable) body.resumable = true;
		const answer = await ctx.request({
			method: 'POST',
			path: '/2/compliance/jobs',
			body,
			action: 'create the compliance job',
			unsafeFailureHint:
				'The job may have been created: check Compliance > Get Many Jobs before running the node again.',
		});
		return unwrapData<IDataObject>(answer);
	},
};
