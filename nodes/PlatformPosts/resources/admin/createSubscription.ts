import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import {
	ACTIVITY_EVENT_LABELS,
	ACTIVITY_EVENT_TYPES,
	createSubscription as createActivitySubscription,
	needsUserContext,
	resolveUserId,
	wireEventType,
} from '../../../shared/activity';
import { ANY_KIND, USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { chosenCredentialType } from '../../../shared/transport';
import { validateInput } from '../../../shared/validation';

const OP = 'createSubscription';

/** Direct message and chat events: the service subscribes them only with the account's own token. */
const USER_EVENT_TYPES = ACTIVITY_EVENT_TYPES.filter(needsUserContext);

const schema = z
	.object({
		event_type: z.enum(ACTIVITY_EVENT_TYPES, {
			errorMap: () => ({ message: `must be one of ${ACTIVITY_EVENT_TYPES.join(', ')}` }),
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
		description:
			'Subscribe a webhook to the activity events of a user (posts, spaces, profile updates, follows, news; direct messages and chats); events are delivered to the webhook, for example to a Platform Trigger listening there. Public events take any authentication, usually the App-Only Bearer Token; direct message and chat events need a credential of the account itself (OAuth2 or OAuth1).',
		action: 'Create an activity subscription',
	},
	properties: [
		{
			displayName: 'Event Type',
			name: 'eventType',
			type: 'options',
			default: 'post.create',
			required: true,
			options: ACTIVITY_EVENT_TYPES.map((value) => ({
				name: `${ACTIVITY_EVENT_LABELS[value]} (${wireEventType(value)})`,
				value,
			})).sort((a, b) => a.name.localeCompare(b.name)),
			description:
				"The event to deliver. Direct message and chat events need the account's own credential (OAuth2 or OAuth1) in the Authentication field.",
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
	// The service takes a subscription with any kind of token, but direct message and chat events
	// only with a user's.
	authentication: ANY_KIND,
	authenticationRules: [
		{
			when: { eventType: USER_EVENT_TYPES },
			kinds: USER_CONTEXT,
			what: 'Subscribing to direct message and chat events',
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const credentialType = chosenCredentialType(ctx, itemIndex);
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
		const userId = await resolveUserId(ctx, input.user, itemIndex, 'User', credentialType);
		const filter: IDataObject = { user_id: userId };
		if (input.keyword) filter.keyword = input.keyword;
		return await createActivitySubscription(
			ctx.request,
			{
				event_type: wireEventType(input.event_type),
				filter,
				...(input.tag ? { tag: input.tag } : {}),
				...(input.webhook_id ? { webhook_id: input.webhook_id } : {}),
			},
			{
				credentialType,
				unsafeFailureHint:
					'The subscription may have been created: check with Admin (App-Only) > List Activity Subscriptions before running the node again.',
			},
		);
	},
};
