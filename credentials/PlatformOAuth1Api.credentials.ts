import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import {
	adsBaseUrlProperty,
	consumerKeyProperty,
	consumerSecretProperty,
	ICON,
	platformBaseUrlProperty,
} from './PlatformCredentialCommon';
import {
	authorizationHeader,
	formParams,
	signOAuth1,
	type OAuth1Params,
} from './PlatformOAuth1Signer';

function headerValue(headers: IHttpRequestOptions['headers'], name: string): string {
	if (!headers) return '';
	const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
	return key ? String((headers as Record<string, unknown>)[key] ?? '') : '';
}

/**
 * What n8n hands `authenticate`: its own request options (`url`, a form body as `body` with a form
 * content type), or, from nodes on n8n's older request helper such as the HTTP Request node, request
 * options with `uri` and the form body as `form`.
 */
type SignableOptions = IHttpRequestOptions & { uri?: string; form?: unknown };

/** Resolves `url` (or `uri`) against `baseURL` the way the HTTP client does. */
export function absoluteUrl(requestOptions: SignableOptions): string {
	const url = requestOptions.url ?? requestOptions.uri ?? '';
	if (/^https?:\/\//i.test(url)) return url;
	return `${(requestOptions.baseURL ?? '').replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
}

/**
 * Signs a request with OAuth 1.0a HMAC-SHA1 (user context): query parameters and form bodies are
 * signed, JSON bodies are not.
 */
export async function signRequest(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: SignableOptions,
): Promise<IHttpRequestOptions> {
	const contentType = headerValue(requestOptions.headers, 'content-type');
	const isForm = contentType.toLowerCase().startsWith('application/x-www-form-urlencoded');
	const form =
		requestOptions.form !== undefined
			? formParams(requestOptions.form)
			: isForm
				? formParams(requestOptions.body)
				: undefined;
	const oauth = signOAuth1(
		{
			consumerKey: String(credentials.consumerKey ?? ''),
			consumerSecret: String(credentials.consumerSecret ?? ''),
			accessToken: String(credentials.accessToken ?? ''),
			accessTokenSecret: String(credentials.accessTokenSecret ?? ''),
		},
		{
			method: requestOptions.method ?? 'GET',
			url: absoluteUrl(requestOptions),
			query: requestOptions.qs as OAuth1Params | undefined,
			form,
		},
	);
	return {
		...requestOptions,
		headers: { ...(requestOptions.headers ?? {}), Authorization: authorizationHeader(oauth) },
	};
}

export class PlatformOAuth1Api implements ICredentialType {
	name = 'platformOAuth1Api';

	displayName = 'Platform OAuth1 (Keys) API';

	documentationUrl =
		'https://github.com/n8n-nodes-platform/n8n-nodes-platform/blob/main/docs/credentials.md#platform-oauth1-keys-api';

	icon = ICON;

	properties: INodeProperties[] = [
		consumerKeyProperty,
		consumerSecretProperty(
			'The Platform Trigger also uses it for CRC answers and signature checks.',
		),
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The access token of the account that acts, from Keys and tokens > Access Token and Secret (read and write)',
		},
		{
			displayName: 'Access Token Secret',
			name: 'accessTokenSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Shown once with the access token, under Keys and tokens > Access Token and Secret (generate a new pair if it was not saved)',
		},
		platformBaseUrlProperty,
		adsBaseUrlProperty,
	];

	authenticate = signRequest;

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl}}',
			url: '/2/users/me',
		},
	};
}
