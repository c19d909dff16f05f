import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	IAuthenticateGeneric,
	INodeProperties,
} from 'n8n-workflow';

import { adsBaseUrlProperty, ICON, platformBaseUrlProperty } from './PlatformCredentialCommon';

/**
 * App-only bearer token: pasted, or minted from the consumer key and secret with
 * POST /oauth2/token (client_credentials) and cached in an expirable hidden field, so that it is
 * requested once and not per call (the service answers 403 / code 99 to frequent requests).
 */
export class PlatformBearerApi implements ICredentialType {
	name = 'platformBearerApi';

	displayName = 'Platform App-Only Bearer API';

	documentationUrl =
		'https://github.com/n8n-nodes-platform/n8n-nodes-platform/blob/main/docs/credentials.md#platform-app-only-bearer-api';

	icon = ICON;

	properties: INodeProperties[] = [
		{
			displayName:
				'The Platform Trigger needs the Consumer Secret (API Key Secret) below, whichever token origin: it answers the CRC checks and verifies every delivery with it',
			name: 'triggerNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Token Origin',
			name: 'origin',
			type: 'options',
			options: [
				{
					name: 'Paste a Bearer Token',
					value: 'pasted',
					description: 'Use the bearer token shown in the developer portal',
				},
				{
					name: 'Mint From Consumer Key and Secret',
					value: 'minted',
					description: 'Request the token once with the app keys and cache it',
				},
			],
			default: 'pasted',
		},
		{
			displayName: 'Bearer Token',
			name: 'bearerToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			displayOptions: { show: { origin: ['pasted'] } },
			description: 'From the developer portal: your app > Keys and tokens > Bearer Token',
		},
		{
			displayName: 'Consumer Key (API Key)',
			name: 'consumerKey',
			type: 'string',
			default: '',
			required: true,
			displayOptions: { show: { origin: ['minted'] } },
		},
		{
			displayName: 'Consumer Secret (API Key Secret)',
			name: 'consumerSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				"The app's API key secret. Required to mint a token, and required by the Platform Trigger (CRC answers and delivery signatures); Platform Posts with a pasted token works without it.",
		},
		{
			displayName: 'Minted Token',
			name: 'mintedToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		platformBaseUrlProperty,
		adsBaseUrlProperty,
	];

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		if (credentials.origin !== 'minted') return {};
		const baseUrl = String(credentials.baseUrl ?? '').replace(/\/+$/, '');
		const response = (await this.helpers.httpRequest({
			method: 'POST',
			url: `${baseUrl}/oauth2/token`,
			auth: {
				username: String(credentials.consumerKey ?? ''),
				password: String(credentials.consumerSecret ?? ''),
			},
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
			body: 'grant_type=client_credentials',
			json: true,
		})) as { access_token?: string; token_type?: string };
		const token = String(response.access_token ?? '');
		// n8n stores whatever this returns (and stamps the credential's "Last updated"), and it calls
		// this on every credential test. The service hands out one token per app until it is revoked,
		// so a test, or a retry after a 401 that was not about the token, usually gets the cached
		// token back: then there is nothing to store, and returning nothing keeps the test from writing.
		if (token && token === credentials.mintedToken) return {};
		return { mintedToken: token };
	}

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization:
					'=Bearer {{$credentials.origin === "minted" ? $credentials.mintedToken : $credentials.bearerToken}}',
			},
		},
	};

	/**
	 * The app's post usage: an endpoint only an app bearer token may call (so a user token pasted here
	 * fails the test), open to every tier that has one, that reads no post or user (nothing billed per
	 * read) and changes nothing. The webhook list it read before is sold to webhook tiers only, while
	 * this credential also serves the Poll Trigger on every other tier.
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl}}',
			url: '/2/usage/tweets',
		},
	};
}
