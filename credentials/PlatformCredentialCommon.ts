import type { INodeProperties } from 'n8n-workflow';

export const ICON = {
	light: 'file:../icons/platform.svg',
	dark: 'file:../icons/platform.dark.svg',
} as const;

/** Base URLs live in the credential: node code never hard-codes a host. */
export const platformBaseUrlProperty: INodeProperties = {
	displayName: 'Platform API Base URL',
	name: 'baseUrl',
	type: 'string',
	default: 'https://api.x.com',
	placeholder: 'https://api.x.com',
	description:
		'Base URL of the platform API, without a trailing slash or version (paths /2/..., /oauth/... are added). Change it only for a test server.',
	required: true,
};

export const adsBaseUrlProperty: INodeProperties = {
	displayName: 'Advertising API Base URL',
	name: 'adsBaseUrl',
	type: 'string',
	default: 'https://ads-api.x.com',
	placeholder: 'https://ads-api.x.com',
	description:
		'Base URL of the advertising API, without a trailing slash or version (paths /12/... are added)',
};

/** The app's consumer key, named as the developer portal names it (both OAuth 1.0a credentials). */
export const consumerKeyProperty: INodeProperties = {
	displayName: 'Consumer Key (API Key)',
	name: 'consumerKey',
	type: 'string',
	default: '',
	required: true,
	description: "The app's API key, from the developer portal: your app > Keys and tokens",
};

/** The app's consumer secret; `usage` says what else uses it in this credential. */
export function consumerSecretProperty(usage = ''): INodeProperties {
	return {
		displayName: 'Consumer Secret (API Key Secret)',
		name: 'consumerSecret',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		required: true,
		description: `The app's API key secret, shown next to the API key.${usage ? ` ${usage}` : ''}`,
	};
}
