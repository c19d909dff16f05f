import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import type { CredentialKind } from './transport';
import {
	CREDENTIAL_TYPES,
	DEFAULT_MAX_RATE_LIMIT_WAIT_S,
	MAX_RATE_LIMIT_WAIT_S,
} from './transport';

/** The Authentication field; its values are the credential type names the transport reads. */
const KIND_NAMES: Record<CredentialKind, string> = {
	pkce: 'OAuth2 (User Context)',
	hmac: 'OAuth1 Keys (User Context)',
	connect: 'OAuth1 Connect Account (User Context)',
	appOnly: 'App-Only Bearer Token',
};

export function authenticationProperty(
	allowed: CredentialKind[],
	defaultType: CredentialKind = allowed[0],
): INodeProperties {
	const property: INodeProperties = {
		displayName: 'Authentication',
		name: 'authentication',
		type: 'options',
		options: allowed.map((key) => ({ name: KIND_NAMES[key], value: CREDENTIAL_TYPES[key] })),
		default: '',
	};
	property.default = CREDENTIAL_TYPES[defaultType];
	return property;
}

/** Credential list for a node description, each shown for its Authentication value. */
export function credentialsFor(allowed: CredentialKind[]) {
	return allowed.map((key) => ({
		name: CREDENTIAL_TYPES[key],
		required: true,
		displayOptions: { show: { authentication: [CREDENTIAL_TYPES[key]] } },
	}));
}

export const maxRateLimitWaitOption: INodeProperties = {
	displayName: 'Max Rate Limit Wait (Seconds)',
	name: 'maxRateLimitWait',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: MAX_RATE_LIMIT_WAIT_S },
	default: DEFAULT_MAX_RATE_LIMIT_WAIT_S,
	description:
		'When the service answers "rate limit reached", wait for its reset if it comes within this many seconds, then retry. Otherwise the node fails and says when the limit resets. At most 900 (15 minutes).',
};

/** Conditions on other fields of the operation (the router adds resource and operation). */
type DisplayConditions = NonNullable<IDisplayOptions['show']>;

/** Return All of a list operation (the router shows it for its operation). */
export function returnAllProperty(show?: DisplayConditions): INodeProperties {
	return {
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		displayOptions: show ? { show } : undefined,
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	};
}

/** Limit of a list operation, shown when Return All is off. */
export function limitProperty(max = 100, show: DisplayConditions = {}): INodeProperties {
	return {
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		displayOptions: { show: { ...show, returnAll: [false] } },
		typeOptions: { minValue: 1, maxValue: max },
		default: 50,
		description: 'Max number of results to return',
	};
}

/**
 * The Options collection every operation ends with (the router adds it): Max Rate Limit Wait plus
 * the operation's own options, in alphabetical order.
 */
export function optionsCollection(extra: INodeProperties[] = []): INodeProperties {
	const options = [...extra, maxRateLimitWaitOption].sort((a, b) =>
		a.displayName.localeCompare(b.displayName),
	);
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}

export function readOptions(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	return (ctx.getNodeParameter('options', itemIndex, {}) as IDataObject) ?? {};
}
