import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isoTime } from '../../common';

/** The query and the time window of Search and Count. */

export const queryProperties: INodeProperties[] = [
	{
		displayName: 'Query',
		name: 'query',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'from:n8n_io -is:retweet',
		description:
			'Search query with the platform operators (e.g. from:user, #hashtag, "exact phrase", -is:retweet, has:media). Up to 512 characters for Recent, 1,024 for Full Archive.',
	},
	{
		displayName: 'Archive',
		name: 'archive',
		type: 'options',
		default: 'recent',
		description: 'Which posts to search',
		options: [
			{ name: 'Recent (Last 7 Days)', value: 'recent' },
			{
				name: 'Full Archive',
				value: 'all',
				description:
					'All posts since 2006; needs an access level that includes it, and the App-Only Bearer Token authentication',
			},
		],
	},
];

export const timeOptions: INodeProperties[] = [
	{
		displayName: 'End Time',
		name: 'endTime',
		type: 'dateTime',
		default: '',
		description: 'Only posts created before this time (UTC unless a zone is given)',
	},
	{
		displayName: 'Start Time',
		name: 'startTime',
		type: 'dateTime',
		default: '',
		description: 'Only posts created at or after this time (Recent: at most 7 days ago)',
	},
];

export function timeQuery(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
): IDataObject {
	const qs: IDataObject = {};
	const start = isoTime(ctx, options.startTime, 'Start Time', itemIndex);
	const end = isoTime(ctx, options.endTime, 'End Time', itemIndex);
	if (start) qs.start_time = start;
	if (end) qs.end_time = end;
	return qs;
}
