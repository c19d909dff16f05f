import type { INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { postIdsFrom } from '../../../shared/locators';
import type { OperationContext } from '../../../shared/router';
import { isoTime } from '../../common';

/** What Get Analytics and Get Insights share: the posts and the time window they are measured in. */

export function postIdsProperty(max: number): INodeProperties {
	return {
		displayName: 'Post IDs or URLs',
		name: 'postIds',
		type: 'string',
		default: '',
		required: true,
		placeholder: '1346889436626259968, https://x.com/user/status/1346889436626259969',
		description: `The authenticated user's posts to measure, each by its ID or URL, separated by commas, spaces or new lines (at most ${max})`,
	};
}

/** The posts of postIdsProperty, deduplicated; refused naming the field and the item. */
export function measuredPostIds(ctx: OperationContext, itemIndex: number, max: number): string[] {
	const { ids, invalid } = postIdsFrom(ctx.getNodeParameter('postIds', itemIndex, ''));
	const fail = (problem: string) =>
		new NodeOperationError(
			ctx.getNode(),
			`Invalid input in item ${itemIndex + 1}: Post IDs or URLs: ${problem}`,
			{ itemIndex },
		);
	if (invalid.length) throw fail(`"${invalid[0]}" is not a post ID or URL`);
	const unique = [...new Set(ids)];
	if (!unique.length) throw fail('is empty');
	if (unique.length > max)
		throw fail(`${unique.length} posts, at most ${max} are measured at once`);
	return unique;
}

export const windowProperties = (show?: Record<string, string[]>): INodeProperties[] => [
	{
		displayName: 'Start Time',
		name: 'startTime',
		type: 'dateTime',
		default: '',
		required: true,
		displayOptions: show ? { show } : undefined,
		description: 'Measure from this time on',
	},
	{
		displayName: 'End Time',
		name: 'endTime',
		type: 'dateTime',
		default: '',
		required: true,
		displayOptions: show ? { show } : undefined,
		description: 'Measure until this time',
	},
];

/** start_time and end_time: both given, the start before the end. */
export function windowQuery(
	ctx: OperationContext,
	itemIndex: number,
): { start_time: string; end_time: string } {
	const start = isoTime(
		ctx,
		ctx.getNodeParameter('startTime', itemIndex, ''),
		'Start Time',
		itemIndex,
	);
	const end = isoTime(ctx, ctx.getNodeParameter('endTime', itemIndex, ''), 'End Time', itemIndex);
	const fail = (problem: string) =>
		new NodeOperationError(ctx.getNode(), `Invalid input in item ${itemIndex + 1}: ${problem}`, {
			itemIndex,
		});
	if (!start) throw fail('Start Time is empty');
	if (!end) throw fail('End Time is empty');
	if (Date.parse(start) >= Date.parse(end)) throw fail('Start Time must be before End Time');
	return { start_time: start, end_time: end };
}
