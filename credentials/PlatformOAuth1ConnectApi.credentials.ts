import type { ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

import {
	adsBaseUrlProperty,
	consumerKeyProperty,
	consumerSecretProperty,
	ICON,
	platformBaseUrlProperty,
} from './PlatformCredentialCommon';

/** Connects an account through n8n's own three-legged OAuth 1.0a flow. */
export class PlatformOAuth1ConnectApi implements ICredentialType {
	name = 'platformOAuth1ConnectApi';

	extends = ['oAuth1Api'];

	displayName = 'Platform OAuth1 (Connect Account) API';

	documentationUrl =
		'https://github.com/n8n-nodes-platform/n8n-nodes-platform/blob/main/docs/credentials.md#platform-oauth1-connect-account-api';

	icon = ICON;

	// consumerKey and consumerSecret replace the generic OAuth1 fields of the same name, so that this
	// credential and the keys credential use one vocabulary (the developer portal's).
	properties: INodeProperties[] = [
		consumerKeyProperty,
		consumerSecretProperty(),
		platformBaseUrlProperty,
		adsBaseUrlProperty,
		{
			displayName: 'Request Token URL',
			name: 'requestTokenUrl',
			type: 'hidden',
			default: '={{$self["baseUrl"]}}/oauth/request_token',
		},
		{
			displayName: 'Authorization URL',
			name: 'authUrl',
			type: 'hidden',
			default: '={{$self["baseUrl"]}}/oauth/authenticate',
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default: '={{$self["baseUrl"]}}/oauth/access_token',
		},
		{
			displayName: 'Signature Method',
			name: 'signatureMethod',
			type: 'hidden',
			default: 'HMAC-SHA1',
		},
	];

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl}}',
			url: '/2/users/me',
		},
	};
}
