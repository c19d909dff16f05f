import type { IDataObject } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { eventIdParameter, eventIdProperty } from './common';

export const deleteEvent: ItemOperation = {
	option: {
		name: 'Delete Event',
		value: 'deleteEvent',
		description:
			'Delete a direct message the authenticated user sent, by its event ID. Needs a user-context credential (OAuth2 scopes dm.read, dm.write).',
		action: 'Delete a direct message event',
	},
	notice: {
		displayName: 'Deleting a message cannot be undone',
		name: 'deleteEventNotice',
		type: 'notice',
		default: '',
	},
	properties: [
		{ ...eventIdProperty, description: 'The ID of a direct message you sent (1-19 digits)' },
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = eventIdParameter(ctx, itemIndex);
		const body = await ctx.request({ method: 'DELETE', path: `/2/dm_events/${id}` });
		return { dm_event_id: id, ...(unwrapData<IDataObject>(body) ?? {}) };
	},
};
