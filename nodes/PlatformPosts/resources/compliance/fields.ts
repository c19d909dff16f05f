import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

const JOB_FIELDS = [
	'created_at',
	'download_expires_at',
	'download_url',
	'name',
	'resumable',
	'status',
	'type',
	'upload_expires_at',
	'upload_url',
];

export const jobFieldsProperty: INodeProperties = {
	displayName: 'Job Fields',
	name: 'jobFields',
	type: 'multiOptions',
	default: [],
	description: 'Fields of each job to return besides its ID (compliance_job.fields)',
	options: JOB_FIELDS.map((value) => ({ name: value, value })),
};

export function jobFieldsQuery(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const fields = (ctx.getNodeParameter('jobFields', itemIndex, []) as string[]) ?? [];
	return fields.length ? { 'compliance_job.fields': fields.join(',') } : {};
}

export const jobTypeOptions = [
	{ name: 'Posts', value: 'tweets', description: 'A list of post IDs is checked' },
	{ name: 'Users', value: 'users', description: 'A list of user IDs is checked' },
];
