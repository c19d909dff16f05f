import type { IDataObject } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import { userLocator, userRefParameter } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { resolveUserId } from '../../users';
import {
	conversationIdParameter,
	conversationIdProperty,
	EventIncludes,
	eventFieldsProperty,
	eventFieldsQuery,
} from './common';

export const getConversationEvents: ItemOperation = {
	option: {
		name: 'Get Conversation Events',
		value: 'getConversationEvents',
		description:
			'List the events of one conversation (messages, participants joining or leaving), newest first: a conversation by its ID, or the one-to-one conversation with a user. Needs a user-context credential (OAuth2 scopes dm.read, tweet.read, users.read).',
		action: 'Get the events of a conversation',
	},
	properties: [
		{
			displayName: 'Conversation',
			name: 'conversationBy',
			type: 'options',
			default: 'participant',
			options: [
				{
					name: 'With a User',
					value: 'participant',
					description: 'The one-to-one conversation between you and a user',
				},
				{
					name: 'By Conversation ID',
					value: 'conversationId',
					description: 'A group or one-to-one conversation by its ID',
				},
			],
		},
		{
			...userLocator('participant', { show: { conversationBy: ['participant'] } }),
			description: 'The other user of the conversation, by username, ID or profile URL',
		},
		{ ...conversationIdProperty, displayOptions: { show: { conversationBy: ['conversationId'] } } },
		returnAllProperty(),
		limitProperty(10000),
		{
			displayName: 'Event Types',
			name: 'eventTypes',
			type: 'multiOptions',
			default: [],
			options: [
				{ name: 'Message Create', value: 'MessageCreate' },
				{ name: 'Participants Join', value: 'ParticipantsJoin' },
				{ name: 'Participants Leave', value: 'ParticipantsLeave' },
			],
			description: 'Only these kinds of events (all when empty)',
		},
		eventFieldsProperty,
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const by = ctx.getNodeParameter('conversationBy', itemIndex, 'participant') as string;
		let path: string;
		if (by === 'conversationId') {
			const id = conversationIdParameter(ctx, itemIndex);
			path = `/2/dm_conversations/${encodeURIComponent(id)}/dm_events`;
		} else {
			const participant = await resolveUserId.call(
				ctx,
				itemIndex,
				userRefParameter(ctx, 'participant', itemIndex),
			);
			path = `/2/dm_conversations/with/${participant}/dm_events`;
		}
		const qs: IDataObject = eventFieldsQuery(ctx, itemIndex);
		const types = (ctx.getNodeParameter('eventTypes', itemIndex, []) as string[]) ?? [];
		if (types.length) qs.event_types = types.join(',');
		const includes = new EventIncludes();
		const events = await ctx.paginate(
			{ method: 'GET', path, qs },
			{
				returnAll: ctx.getNodeParameter('returnAll', itemIndex, false) as boolean,
				limit: ctx.getNodeParameter('limit', itemIndex, 50) as number,
				pageSizeParam: 'max_results',
				maxPageSize: 100,
				tokenParam: 'pagination_token',
				onPage: (body) => includes.add(body),
			},
		);
		return events.map((event) => includes.merge(event));
	},
};
