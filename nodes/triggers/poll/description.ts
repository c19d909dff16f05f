import type { INodeProperties } from 'n8n-workflow';

import { authenticationNotices } from '../../shared/authentication';
import { authenticationProperty } from '../../shared/descriptions';
import type { CredentialKind } from '../../shared/transport';
import { listLocator, postLocator, userLocator } from '../../shared/locators';
import { EVENT_KINDS_VERSION, MODES, PAUSE_SIGNAL_VERSION, shortestInterval } from './modes';

const show = (...events: string[]) =>
	({ show: { event: events } }) as INodeProperties['displayOptions'];

/** The node's name in the node creator and in its log lines, in one place. */
export const POLL_TRIGGER_DISPLAY_NAME = 'Platform Poll Trigger';

/** The canvas subtitle: what the node watches, in the words of the Trigger On field. */
export const pollTriggerSubtitle = `={{ (${JSON.stringify(
	Object.fromEntries(MODES.map((m) => [m.value, m.name])),
)})[$parameter["event"]] || $parameter["event"] }}`;

/** The Authentication field's kinds, App-Only Bearer (the default) first. */
const AUTHENTICATION: CredentialKind[] = ['appOnly', 'pkce', 'hmac', 'connect'];

export const DEFAULT_MAX_ITEMS = 100;
export const MAX_ITEMS_LIMIT = 1000;
export const MAX_QUERY_LENGTH = 512;

export const pollTriggerProperties: INodeProperties[] = [
	{
		displayName:
			'Checks for new data at the Poll Times set above; needs no webhook access. The first check after the workflow is first activated (or after the mode, user, query or account changed) only notes what exists already: a post published after it starts the workflow at the next check (so up to two intervals after activation). Activated again after a pause, or after n8n restarted, it catches up from where it stopped (up to Max Items per Poll). With webhook access (enterprise or pay-per-use), the Platform Trigger starts the workflow as events happen.',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	authenticationProperty(AUTHENTICATION, 'appOnly'),
	{
		displayName: 'Trigger On',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		default: 'userPosts',
		// The node panel lists each option's action under Platform Posts' triggers: say it polls.
		options: MODES.map((m) => ({
			name: m.name,
			value: m.value,
			description: m.description,
			action: `On ${m.name.toLowerCase()} (polling)`,
		})),
		description:
			'What to watch. Mentions, liked posts and direct messages need a user-context credential, bookmarks an OAuth2 one, Spaces the app-only bearer token or OAuth2; the others also work with the app-only bearer token.',
	},
	// Under Trigger On, while the Authentication field holds a kind the chosen mode's endpoints refuse.
	...MODES.flatMap((m) =>
		authenticationNotices({ kinds: m.authentication, what: `"${m.name}"` }, AUTHENTICATION, {
			event: [m.value],
		}),
	),
	// Where polling every minute would spend more than half of the endpoint's 15-minute window.
	...MODES.filter((m) => shortestInterval(m) > 1).map(
		(m): INodeProperties => ({
			displayName: `The service takes ${m.rateLimit} requests per 15 minutes for "${m.name}": set Poll Times to every ${shortestInterval(m)} minutes or longer. Polled more often, the node skips checks while the window is spent (no request, nothing missed: the next check catches up), and new items wait for it.`,
			name: 'rateLimitNotice',
			type: 'notice',
			default: '',
			displayOptions: show(m.value),
		}),
	),
	{
		...userLocator('user', show('userPosts', 'followers', 'likedPosts')),
		description: 'The user to watch, by handle (the @username), ID or profile URL',
	},
	listLocator('The list to watch', 'list', show('listPosts', 'listMembers', 'listFollowers')),
	{
		...postLocator('post', 'Post', show('quotePosts')),
		description: 'The post whose quote posts to watch, by its ID or its URL',
	},
	{
		displayName: 'Conversation ID',
		name: 'conversationId',
		type: 'string',
		default: '',
		required: true,
		displayOptions: show('conversationMessages'),
		placeholder: '1346889436626259968 or 123-456',
		description:
			'The direct message conversation: a group conversation ID, or for a one-to-one conversation the two user IDs joined by a dash (the dm_conversation_id of its messages)',
	},
	{
		...userLocator('creator', show('userSpaces')),
		displayName: 'Creator',
		description: 'The user whose Spaces to watch, by handle (the @username), ID or profile URL',
	},
	{
		displayName: 'Include Replies',
		name: 'includeReplies',
		type: 'boolean',
		default: true,
		displayOptions: show('userPosts'),
		description: "Whether to include the user's replies",
	},
	{
		displayName: 'Include Reposts',
		name: 'includeReposts',
		type: 'boolean',
		default: true,
		displayOptions: show('userPosts'),
		description: "Whether to include the user's reposts",
	},
	{
		displayName: 'Query',
		name: 'query',
		type: 'string',
		default: '',
		required: true,
		displayOptions: show('search'),
		placeholder: 'n8n -is:retweet',
		description: `Search query with the platform operators (from:user, #hashtag, "exact phrase", -is:retweet, has:media), up to ${MAX_QUERY_LENGTH} characters`,
	},
	{
		displayName: 'Leave Out My Messages',
		name: 'excludeOwn',
		type: 'boolean',
		default: false,
		displayOptions: {
			show: {
				event: ['directMessages', 'conversationMessages'],
				'@version': [{ _cnd: { gte: EVENT_KINDS_VERSION } }],
			},
		},
		description:
			'Whether to leave out the messages the authenticated user sent (dm.sent), so that its own replies do not start the workflow',
	},
	{
		displayName: 'Include Joins and Leaves',
		name: 'joinsAndLeaves',
		type: 'boolean',
		default: false,
		displayOptions: {
			show: {
				event: ['directMessages', 'conversationMessages'],
				'@version': [{ _cnd: { gte: EVENT_KINDS_VERSION } }],
			},
		},
		description:
			'Whether to emit the joins and leaves of group conversations too, as dm.participants_join and dm.participants_leave items (version 1 emitted them as messages)',
	},
	{
		displayName: 'Max Items per Poll',
		name: 'maxItems',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_ITEMS_LIMIT },
		default: DEFAULT_MAX_ITEMS,
		description:
			'The most posts, users or messages one poll reads. The service charges per resource read. When more arrived since the last poll, the newest are emitted and the older ones skipped (the log says so).',
	},
	{
		// n8n shows a capped or skipped poll nowhere but in its log (a poll has no execution hints, and a
		// skipped one starts no execution): say here how to recognise both from the executions.
		displayName:
			"An execution with exactly Max Items per Poll items may have skipped older ones: when more arrived since the last poll, only the newest are emitted. A poll skipped or refused for the service's rate limit starts no execution; the first poll after the reset catches up. n8n's log names the node and workflow in both cases.",
		name: 'maxItemsNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { '@version': [{ _cnd: { lt: PAUSE_SIGNAL_VERSION } }] } },
	},
	{
		// From PAUSE_SIGNAL_VERSION on, a pause of the polls long enough to notice is a failed execution.
		displayName:
			"An execution with exactly Max Items per Poll items may have skipped older ones: when more arrived since the last poll, only the newest are emitted (n8n's log names the node and workflow). When the service's rate limit pauses the polls for 5 minutes or more, one failed execution says until when; shorter pauses start no execution. Either way the first poll after the reset catches up.",
		name: 'maxItemsPauseNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { '@version': [{ _cnd: { gte: PAUSE_SIGNAL_VERSION } }] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Expansions',
				name: 'expansions',
				type: 'string',
				default: 'author_id',
				description:
					"Comma-separated expansions of posts, put in each item's includes (e.g. author_id, attachments.media_keys)",
			},
			{
				displayName: 'Post Fields',
				name: 'postFields',
				type: 'string',
				default: 'created_at,author_id,entities,conversation_id',
				description: 'Comma-separated post fields (tweet.fields)',
			},
			{
				displayName: 'User Fields',
				name: 'userFields',
				type: 'string',
				default: 'username,name',
				description: 'Comma-separated user fields of followers and expanded users (user.fields)',
			},
		],
	},
];
