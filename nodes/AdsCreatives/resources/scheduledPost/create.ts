import type { IDataObject } from 'n8n-workflow';
import { single } from '../../../shared/ads';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath } from '../../account';
import { isoSeconds } from '../../shared/fields';
import {
	POST_LABELS,
	asUserIdProperty,
	postAdditionalFields,
	readPost,
	textProperty,
	toParams,
} from '../../shared/post';
import { scheduledPostSchema } from './schema';

export const create: ItemOperation = {
	option: {
		name: 'Create',
		value: 'create',
		description: 'Schedule a post for the ad account',
		action: 'Create a scheduled post',
	},
	properties: [
		asUserIdProperty(),
		{
			displayName: 'Scheduled At',
			name: 'scheduledAt',
			type: 'dateTime',
			default: '',
			required: true,
			description: 'When to publish; must be in the future',
		},
		textProperty(),
		postAdditionalFields(),
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const fields = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const input: IDataObject = {
			nullcast: true,
			...readPost(ctx, itemIndex, fields, { asUserId: true, text: true }),
			scheduled_at: isoSeconds(ctx.getNodeParameter('scheduledAt', itemIndex, '')),
		};
		const post = validateInput(
			ctx.getNode(),
			scheduledPostSchema(new Date()),
			input,
			itemIndex,
			POST_LABELS,
		);
		const path = accountPath(ctx, itemIndex, '/scheduled_tweets');
		return single(await ctx.request({ method: 'POST', path, qs: toParams(post) }));
	},
};
