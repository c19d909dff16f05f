import type { ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

import { ICON, platformBaseUrlProperty } from './PlatformCredentialCommon';

export const DEFAULT_OAUTH2_SCOPES = [
	'tweet.read',
	'tweet.write',
	'users.read',
	'media.write',
	'dm.read',
	'dm.write',
	'like.read',
	'like.write',
	'follows.read',
	'follows.write',
	'bookmark.read',
	'bookmark.write',
	'list.read',
	// Lists: create, change, delete, members, follow and pin.
	'list.write',
	// The Blocking and Muting timelines; muting and unmuting.
	'block.read',
	'mute.read',
	'mute.write',
	'space.read',
	// The reverse-chronological home timeline.
	'timeline.read',
	// Hiding and unhiding replies.
	'tweet.moderate.write',
	'offline.access',
].join(' ');

/** OAuth 2.0 authorization code with PKCE (user context). */
export class PlatformOAuth2Api implements ICredentialType {
	name = 'platformOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'Platform OAuth2 API';

	documentationUrl =
		'https://github.com/n8n-nodes-platform/n8n-nodes-platform/blob/main/docs/credentials.md#platform-oauth2-api';

	icon = ICON;

	properties: INodeProperties[] = [
		{
			displayName: 'Grant Type',
			name: 'grantType',
			type: 'hidden',
			default: 'pkce',
		},
		platformBaseUrlProperty,
		{
			displayName: 'Web Host URL',
			name: 'webUrl',
			type: 'string',
			default: 'https://x.com',
			placeholder: 'https://x.com',
			description: 'The web host whose /i/oauth2/authorize page asks the user to approve access',
			required: true,
		},
		{
			displayName: 'Authorization URL',
			name: 'authUrl',
			type: 'hidden',
			default: '={{$self["webUrl"]}}/i/oauth2/authorize',
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default: '={{$self["baseUrl"]}}/2/oauth2/token',
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'string',
			default: DEFAULT_OAUTH2_SCOPES,
			description:
				'Space-separated scopes. The defaults cover every operation of the nodes: posts, hiding replies, users, the home timeline, media upload, direct messages, likes, follows, bookmarks, lists, blocking and muting, Spaces, and offline access (refresh tokens). A changed list takes effect when the account is connected again.',
		},
		{
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'hidden',
			default: '',
		},
		{
			displayName: 'Authentication',
			name: 'authentication',
			type: 'hidden',
			default: 'header',
		},
	];

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl}}',
			url: '/2/users/me',
		},
	};
}
