import type { IDataObject } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { USER_FIELDS } from '../../fields';

const OP = 'getManyEvents';

const EVENT_FIELDS = [
	'attachments',
	'created_at',
	'dm_conversation_id',
	'event_type',
	'id',
	'participant_ids',
	'referenced_tweets',
	'sender_id',
	'text',
];

export const getManyEvents: ItemOperation = {
	option: {
		name: 'Get Many Events',
		value: OP,
		description:
			"List the authenticated user's direct message events of the last 30 days (messages, participants joining or leaving), newest first. Needs a user-context credential (OAuth2 scope dm.read).",
		action: 'Get many direct message events',
	},
	properties: [
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
		{
			displayName: 'Event Fields',
			name: 'eventFields',
			type: 'multiOptions',
			default: [],
			options: EVENT_FIELDS.map((value) => ({ name: value, value })),
			description: 'Event fields to return (dm_event.fields) besides ID, event type and text',
		},
		{
			displayName: 'Include Sender',
			name: 'includeSender',
			type: 'boolean',
			default: false,
			description: 'Whether to put the sending user beside each event (as sender)',
		},
		{
			displayName: 'User Fields',
			name: 'userFields',
			type: 'multiOptions',
			default: [],
			displayOptions: { show: { includeSender: [true] } },
			options: USER_FIELDS.map((value) => ({ name: value, value })),
			description: 'Fields of the sender',
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const qs: IDataObject = {};
		const types = ctx.getNodeParameter('eventTypes', itemIndex, []) as string[];
		const fields = [...((ctx.getNodeParameter('eventFields', itemIndex, []) as string[]) ?? [])];
		const includeSender = ctx.getNodeParameter('includeSender', itemIndex, false) as boolean;
		if (types.length) qs.event_types = types.join(',');
		if (includeSender) {
			qs.expansions = 'sender_id';
			if (fields.length && !fields.includes('sender_id')) fields.push('sender_id');
			const userFields = ctx.getNodeParameter('userFields', itemIndex, []) as string[];
			if (userFields.length) qs['user.fields'] = userFields.join(',');
		}
		if (fields.length) qs['dm_event.fields'] = fields.join(',');
		const users = new Map<string, IDataObject>();
		const events = await ctx.paginate(
			{ method: 'GET', path: '/2/dm_events', qs },
			{
				returnAll: ctx.getNodeParameter('returnAll', itemIndex, false) as boolean,
				limit: ctx.getNodeParameter('limit', itemIndex, 50) as number,
				pageSizeParam: 'max_results',
				maxPageSize: 100,
				tokenParam: 'pagination_token',
				onPage: (body) => {
					const list = ((body.includes as IDataObject | undefined)?.users ?? []) as IDataObject[];
					for (const u of list) users.set(String(u.id), u);
				},
			},
		);
		return events.map((e) =>
			e.sender_id && users.has(String(e.sender_id))
				? { ...e, sender: users.get(String(e.sender_id)) }
				: e,
		);
	},
};
