import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import {
	createSubscription as createActivitySubscription,
	resolveUserId,
} from '../../../shared/activity';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { BEARER_NOTE, requireAppOnly } from './common';

const OP = 'createSubscription';

/** Public events: the ones an app-only bearer token may subscribe to (DM events need a user token). */
const PUBLIC_EVENT_TYPES = [
	'post.create',
	'post.delete',
	'spaces.start',
	'spaces.end',
	'profile.update.bio',
	'profile.update.verified',
	'profile.update.affiliate',
	'profile.update.screenname',
] as const;

const schema = z
	.object({
		event_type: z.enum(PUBLIC_EVENT_TYPES, {
			errorMap: () => ({ message: `must be one of ${PUBLIC_EVENT_TYPES.join(', ')}` }),
		}),
		user: z.string().trim().min(1, 'is required: subscriptions filter by user'),
		keyword: z.string().min(1).max(150, 'at most 150 characters').optional(),
		tag: z.string().min(1).max(200, 'at most 200 characters').optional(),
		webhook_id: z
			.string()
			.regex(/^\d{1,19}$/, 'a webhook ID is 1-19 digits')
			.optional(),
	})
	.strict();

const LABELS = {
	event_type: 'Event Type',
	user: 'User',
	keyword: 'Keyword',
	tag: 'Tag',
	webhook_id: 'Webhook ID',
};

const text = (value: unknown): string | undefined => {
	const s = String(value ?? '').trim();
	return s ? s : undefined;
};

export const createSubscription: ItemOperation = {
	option: {
		name: 'Create Activity Subscription',
		value: OP,
		description: `Subscribe a webhook to the public activity events of a user (posts, spaces, profile updates); events are delivered to the webhook, for example to a Platform Trigger listening there. ${BEARER_NOTE}.`,
		action: 'Create an activity subscription',
	},
	properties: [
		{
			displayName: 'Event Type',
			name: 'eventType',
			type: 'options',
			default: 'post.create',
			required: true,
			options: PUBLIC_EVENT_TYPES.map((value) => ({ name: value, value })),
			description:
				'The event to deliver. Direct-message events need a user-context token and are subscribed by the trigger.',
		},
		{
			displayName: 'User',
			name: 'user',
			type: 'string',
			default: '',
			required: true,
			placeholder: '2244994945 or @username',
			description: 'Whose events: a user ID, or an @username (looked up first)',
		},
		{
			displayName: 'Webhook ID',
			name: 'webhookId',
			type: 'string',
			default: '',
			description:
				'The webhook that receives the events (from Create Webhook or List Webhooks); set it when the app has more than one webhook',
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'Keyword',
					name: 'keyword',
					type: 'string',
					default: '',
					description: 'Only events matching this keyword (1-150 characters)',
				},
				{
					displayName: 'Tag',
					name: 'tag',
					type: 'string',
					default: '',
					description:
						'A label (1-200 characters) delivered with each event; a Platform Trigger tags its own subscriptions n8n:&lt;workflow ID&gt;:&lt;node ID&gt;',
				},
			],
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		requireAppOnly(ctx, itemIndex, 'Creating an activity subscription');
		const fields = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const input = validateInput(
			ctx.getNode(),
			schema,
			{
				event_type: ctx.getNodeParameter('eventType', itemIndex, ''),
				user: String(ctx.getNodeParameter('user', itemIndex, '') ?? ''),
				keyword: text(fields.keyword),
				tag: fields.tag === undefined || fields.tag === '' ? undefined : String(fields.tag),
				webhook_id: text(ctx.getNodeParameter('webhookId', itemIndex, '')),
			},
			itemIndex,
			LABELS,
		);
		const userId = await resolveUserId(ctx, input.user, itemIndex);
		const filter: IDataObject = { user_id: userId };
		if (input.keyword) filter.keyword = input.keyword;
		return await createActivitySubscription(
			ctx.request,
			{
				event_type: input.event_type,
				filter,
				...(input.tag ? { tag: input.tag } : {}),
				...(input.webhook_id ? { webhook_id: input.webhook_id } : {}),
			},
			{
				unsafeFailureHint:
					'The subscription may have been created: check with Admin > List Activity Subscriptions before running the node again.',
			},
		);
	},
};
