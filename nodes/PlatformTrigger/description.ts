import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_SIGNATURE_HEADER } from './signature';
import { streamProperties } from './stream';

const activity = { show: { mode: ['activity'] } };

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			'The workflow must be reachable at a public HTTPS URL without a port (set WEBHOOK_URL, or put a reverse proxy or tunnel in front of n8n). The credential must hold the app consumer secret.',
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
			{ name: 'Activity Events', value: 'activity', description: 'Posts, DMs, profile and Spaces events of an account', action: 'On account activity (new post, DM, profile, Spaces)' },
			{ name: 'Posts Matching Search Rules', value: 'stream', description: 'Any public post matching your rules (filtered stream)', action: 'On new post matching search rules' },
		],
	},
	{
		displayName: 'Events',
		name: 'events',
		displayOptions: activity,
		type: 'multiOptions',
		required: true,
		default: ['post.create'],
		description: 'Which events start the workflow. Activity API events get a subscription each; Account Activity events are emitted when they arrive.',
		options: [
			{ name: 'All Events', value: '*' },
			{ name: 'Block or Unblock (Account Activity)', value: 'block' },
			{ name: 'DM Indicate Typing', value: 'dm.indicate_typing' },
			{ name: 'DM Message (Account Activity)', value: 'dm.message' },
			{ name: 'DM Read', value: 'dm.read' },
			{ name: 'DM Received', value: 'dm.received' },
			{ name: 'DM Sent', value: 'dm.sent' },
			{ name: 'Favorite (Account Activity)', value: 'favorite' },
			{ name: 'Follow (Account Activity)', value: 'follow' },
			{ name: 'Mute (Account Activity)', value: 'mute' },
			{ name: 'Post Create', value: 'post.create' },
			{ name: 'Post Delete', value: 'post.delete' },
			{ name: 'Profile Affiliate Update', value: 'profile.update.affiliate' },
			{ name: 'Profile Bio Update', value: 'profile.update.bio' },
			{ name: 'Profile Screenname Update', value: 'profile.update.screenname' },
			{ name: 'Profile Verified Update', value: 'profile.update.verified' },
			{ name: 'Spaces End', value: 'spaces.end' },
			{ name: 'Spaces Start', value: 'spaces.start' },
			{ name: 'Unblock (Account Activity)', value: 'unblock' },
			{ name: 'Unfollow (Account Activity)', value: 'unfollow' },
			{ name: 'User Revoke (Account Activity)', value: 'user.revoke' },
		],
	},
	{
		displayName: 'User',
		name: 'user',
		displayOptions: activity,
		type: 'string',
		default: '',
		required: true,
		placeholder: '@username or 2244994945',
		description: 'The account whose activity starts the workflow: a user ID or an @username (looked up on activation)',
	},
	{
		displayName: 'Keyword',
		name: 'keyword',
		displayOptions: activity,
		type: 'string',
		default: '',
		description: 'Only events whose content matches this keyword (1-150 characters; optional)',
	},
	{
		displayName: 'Direction',
		name: 'direction',
		displayOptions: activity,
		type: 'options',
		default: '',
		description: 'For direct message events: sent, received or both',
		options: [
			{ name: 'Both', value: '' },
			{ name: 'Received (Inbound)', value: 'inbound' },
			{ name: 'Sent (Outbound)', value: 'outbound' },
		],
	},
	...streamProperties,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Recover Missed Events',
				name: 'recoverMissedEvents',
				type: 'boolean',
				default: true,
				description:
					'Whether to ask the service, on (re)activation, to re-deliver events sent since the last delivery (up to 24 hours back). Duplicates are dropped.',
			},
			{
				displayName: 'Replay Status Events',
				name: 'replayStatus',
				type: 'options',
				default: 'emit',
				options: [
					{ name: 'Emit as replay.complete / replay.incomplete', value: 'emit' },
					{ name: 'Drop', value: 'drop' },
				],
			},
			{
				displayName: 'Signature Header',
				name: 'signatureHeader',
				type: 'string',
				default: DEFAULT_SIGNATURE_HEADER,
				description: 'The header that carries the delivery signature',
			},
		],
	},
];
