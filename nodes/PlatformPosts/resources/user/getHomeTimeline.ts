import type { INodeProperties } from 'n8n-workflow';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { HOME_TIMELINE } from '../../../shared/timelines';
import { fieldProperties, fieldQuery } from '../../fields';
import { pagingProperties, readPages } from '../../reads';
import { authenticatedUserId } from '../../users';
import { boundOptions, boundQuery } from './timeline';

/** Get Timeline's time window and Exclude options, shown here without its Timeline conditions. */
const options: INodeProperties[] = boundOptions.map((option) => ({
	...option,
	displayOptions: undefined,
	description: option.description?.replace(/ \((Posts and Mentions|Posts only)\)$/, ''),
}));

export const getHomeTimeline: ItemOperation = {
	option: {
		name: 'Get Home Timeline',
		value: 'getHomeTimeline',
		description:
			'Read the posts of the authenticated user and of the accounts it follows, newest first. Needs a user-context credential. Charged per result: keep a limit.',
		action: "Get the authenticated user's home timeline",
	},
	properties: [...pagingProperties(100000), ...fieldProperties],
	options,
	authentication: HOME_TIMELINE.authentication,
	async execute(ctx: OperationContext, itemIndex: number) {
		const me = await authenticatedUserId.call(ctx, itemIndex);
		return await readPages(
			ctx,
			itemIndex,
			{
				method: 'GET',
				path: `/2/users/${me}/${HOME_TIMELINE.suffix}`,
				qs: { ...fieldQuery(ctx, itemIndex), ...boundQuery(ctx, itemIndex, HOME_TIMELINE) },
			},
			HOME_TIMELINE.page!,
			'posts',
		);
	},
};
