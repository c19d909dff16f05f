import type { IDataObject } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import {
	EventIncludes,
	eventFieldsProperty,
	eventFieldsQuery,
	eventIdParameter,
	eventIdProperty,
} from './common';

export const getEvent: ItemOperation = {
	option: {
		name: 'Get Event',
		value: 'getEvent',
		description:
			'Get one direct message event by its ID (a message, or participants joining or leaving) of a conversation the authenticated user takes part in. Needs a user-context credential (OAuth2 scopes dm.read, tweet.read, users.read).',
		action: 'Get a direct message event',
	},
	properties: [eventIdProperty, eventFieldsProperty],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = eventIdParameter(ctx, itemIndex);
		const body = await ctx.request<IDataObject>({
			method: 'GET',
			path: `/2/dm_events/${id}`,
			qs: eventFieldsQuery(ctx, itemIndex),
		});
		const includes = new EventIncludes();
		includes.add(body);
		return includes.merge((body?.data ?? {}) as IDataObject);
	},
};
