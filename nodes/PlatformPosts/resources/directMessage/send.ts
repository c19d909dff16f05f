import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { maxProcessingWaitOption } from '../../../shared/media';
import { userLocator, userRefParameter } from '../../../shared/locators';
import { resolveUserId } from '../../users';
import { checkMessage, messageBody, messageProperties, sentMessage } from './common';

export const send: ItemOperation = {
	option: {
		name: 'Send',
		value: 'send',
		description:
			'Send a direct message to a user as the authenticated user: text and/or one media attachment (an uploaded binary file or an existing media ID). Needs a user-context credential (OAuth2 scopes dm.write, dm.read).',
		action: 'Send a direct message',
	},
	properties: [
		{
			...userLocator('participant'),
			displayName: 'Recipient',
			description: 'Who receives the message, by username, ID or profile URL',
		},
		...messageProperties,
	],
	options: [maxProcessingWaitOption],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const checked = checkMessage(ctx, itemIndex);
		const participant = await resolveUserId.call(
			ctx,
			itemIndex,
			userRefParameter(ctx, 'participant', itemIndex),
		);
		const { body, media } = await messageBody(ctx, itemIndex, checked);
		const response = await ctx.request({
			method: 'POST',
			path: `/2/dm_conversations/with/${participant}/messages`,
			body,
			unsafeFailureHint:
				'The message may have been sent: check the conversation before sending it again.',
		});
		return { ...sentMessage(response), participant_id: participant, ...media };
	},
};
