import type { INodeProperties } from 'n8n-workflow';

import {
	directionField,
	eventsField,
	keywordField,
	userCredentialField,
	userField,
} from '../shared/activityFields';
import { ACCOUNT_ACTIVITY_EVENT_TYPES } from '../shared/events';
import { DEFAULT_SIGNATURE_HEADER } from './signature';
import { STATUS_OUTPUT_VERSION } from './outputs';
import { streamProperties } from './filteredStream';

const ACCOUNT_ACTIVITY_LABELS: Record<(typeof ACCOUNT_ACTIVITY_EVENT_TYPES)[number], string> = {
	'post.create': 'Post Created',
	'post.delete': 'Post Deleted',
	favorite: 'Post Liked (Favorite)',
	follow: 'Follow',
	unfollow: 'Unfollow',
	block: 'Block',
	unblock: 'Unblock',
	mute: 'Mute',
	unmute: 'Unmute',
	'dm.message': 'Direct Message',
	'dm.indicate_typing': 'DM Typing Indicator',
	'dm.read': 'DM Read',
	'user.revoke': 'App Access Revoked',
};

const REPLAY_STATUS_V1: INodeProperties = {
	displayName: 'Replay Status Events',
	name: 'replayStatus',
	type: 'options',
	default: 'emit',
	options: [
		{ name: 'Emit as replay.complete / replay.incomplete', value: 'emit' },
		{ name: 'Drop', value: 'drop' },
	],
};

const REPLAY_STATUS_V2: INodeProperties = {
	displayName: 'Replay Status Events',
	name: 'replayStatus',
	type: 'options',
	default: 'output',
	description:
		'Where replay.complete / replay.incomplete items go after the service re-delivered missed events',
	options: [
		{
			name: 'Status Output',
			value: 'output',
			description: 'On the second output, apart from the activity events',
		},
		{
			name: 'Events Output',
			value: 'emit',
			description: 'Among the activity events on the first output (as version 1 does)',
		},
		{ name: 'Drop', value: 'drop' },
	],
};

function triggerOptions(
	versions: Array<number | { _cnd: { gte: number } }>,
	replayStatus: INodeProperties,
): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { '@version': versions } },
		options: [
			{
				displayName: 'Recover Missed Events',
				name: 'recoverMissedEvents',
				type: 'boolean',
				default: true,
				description:
					'Whether to ask the service, on (re)activation, to re-deliver events sent since the last delivery (up to 24 hours back). Duplicates are dropped.',
			},
			replayStatus,
			{
				displayName: 'Signature Header',
				name: 'signatureHeader',
				type: 'string',
				default: DEFAULT_SIGNATURE_HEADER,
				description: 'The header that carries the delivery signature',
			},
		],
	};
}

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			"The platform only sends events to a public web address starting with https:// (no port number). Ask whoever runs your n8n to make it reachable that way (n8n's WEBHOOK_URL setting). The credential needs the app's Consumer Secret.",
		name: 'notice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Trigger On',
		name: 'mode',
		type: 'options',
		noDataExpression: true,
		default: 'activity',
		options: [
			{
				name: 'Activity Events',
				value: 'activity',
				description: 'Posts, DMs, chats, follows, news, profile and Spaces events of an account',
				action: 'On account activity (new post, DM, profile, Spaces)',
			},
			{
				name: 'Account Activity (All Activity of the Connected Account)',
				value: 'accountActivity',
				description:
					'Everything that happens to the account of the user credential: posts, likes, follows, blocks, mutes, DMs, app revocations',
				action: 'On any activity of the connected account',
			},
			{
				name: 'Posts Matching Search Rules',
				value: 'stream',
				description: 'Any public post matching your rules (filtered stream)',
				action: 'On new post matching search rules',
			},
		],
	},
	userCredentialField,
	eventsField,
	{
		displayName: 'Events',
		name: 'accountEvents',
		displayOptions: { show: { mode: ['accountActivity'] } },
		type: 'multiOptions',
		required: true,
		default: ['*'],
		description:
			"Which of the account's activities start the workflow (the service sends all of them; the rest are dropped)",
		options: [
			{ name: 'All Activity', value: '*' },
			...ACCOUNT_ACTIVITY_EVENT_TYPES.map((value) => ({
				name: ACCOUNT_ACTIVITY_LABELS[value],
				value,
			})),
		],
	},
	userField,
	keywordField,
	directionField,
	...streamProperties,
	// One Options collection per version: they differ only in what Replay Status Events offers and
	// defaults to (version 2 has a Status output; version 1 keeps its single output).
	triggerOptions([1], REPLAY_STATUS_V1),
	triggerOptions([{ _cnd: { gte: STATUS_OUTPUT_VERSION } }], REPLAY_STATUS_V2),
];
