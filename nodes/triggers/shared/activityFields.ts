import type { INodeProperties } from 'n8n-workflow';

import type { ActivityEventType } from '../../shared/activity';
import {
	ACTIVITY_EVENT_LABELS,
	ACTIVITY_EVENT_TYPES,
	needsUserContext,
} from '../../shared/activity';
import { CREDENTIAL_TYPES } from '../../shared/transport';

/**
 * The Activity subscription's fields, shown by the Platform Trigger under "Trigger On: Activity
 * Events" (the conditions below) and by the Activity Stream Trigger without a condition (it has no
 * mode): one definition, so both triggers ask for the same subscription in the same words.
 */

const activity = { show: { mode: ['activity'] } };

/** The Events options in plain words, alphabetical; user-context events say they need the credential. */
function eventOptions(types: readonly ActivityEventType[]) {
	return types
		.map((value) => ({
			name: `${ACTIVITY_EVENT_LABELS[value]}${needsUserContext(value) ? ' (Needs User Credential)' : ''}`,
			value,
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
}

export const userCredentialField: INodeProperties = {
	displayName: 'User Credential',
	name: 'userAuthentication',
	type: 'options',
	displayOptions: { show: { mode: ['activity', 'accountActivity'] } },
	default: 'none',
	description:
		'A credential of the account itself, beside the app-only bearer. Needed for direct message and chat events and for Account Activity: the service accepts those subscriptions only with a user-context token.',
	options: [
		{ name: 'None (Public Events Only)', value: 'none' },
		{ name: 'OAuth2 (User Context)', value: CREDENTIAL_TYPES.pkce },
		{ name: 'OAuth1 Keys (User Context)', value: CREDENTIAL_TYPES.hmac },
		{ name: 'OAuth1 Connect Account (User Context)', value: CREDENTIAL_TYPES.connect },
	],
};

export const eventsField: INodeProperties = {
	displayName: 'Events',
	name: 'events',
	displayOptions: activity,
	type: 'multiOptions',
	required: true,
	default: ['post.create'],
	description:
		'Which events start the workflow; each gets a subscription. Direct message and chat events need a User Credential (All Events includes them).',
	options: [
		{ name: 'All Events (Needs User Credential)', value: '*' },
		...eventOptions(ACTIVITY_EVENT_TYPES),
	],
};

export const userField: INodeProperties = {
	displayName: 'User',
	name: 'user',
	displayOptions: activity,
	type: 'string',
	default: '',
	placeholder: '@username or 2244994945',
	description:
		'The account whose activity starts the workflow: a user ID or an @username (looked up on activation). Needed unless a Keyword is set.',
};

export const keywordField: INodeProperties = {
	displayName: 'Keyword',
	name: 'keyword',
	displayOptions: activity,
	type: 'string',
	default: '',
	description: 'Only events whose content matches this keyword (1-150 characters; optional)',
};

export const directionField: INodeProperties = {
	displayName: 'Direction',
	name: 'direction',
	displayOptions: activity,
	type: 'options',
	default: '',
	description: 'For direct message events: sent, received or both',
	options: [
		{ name: 'Both', value: '' },
		{ name: 'Received', value: 'received' },
		{ name: 'Sent', value: 'sent' },
	],
};

/** The Activity fields in the order both triggers show them. */
export const activityFields: INodeProperties[] = [
	userCredentialField,
	eventsField,
	userField,
	keywordField,
	directionField,
];
