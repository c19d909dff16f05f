import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import { KIND_NAMES } from './authentication';
import type { CredentialKind } from './transport';
import {
	CREDENTIAL_TYPES,
	DEFAULT_MAX_RATE_LIMIT_WAIT_S,
	MAX_RATE_LIMIT_WAIT_S,
} from './transport';

/** The Authentication field; its values are the credential type names the transport reads. */

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

/**
 * Credential list for a node description, each shown for its Authentication value. With
 * `bearerOnField`, the App-Only Bearer credential is shown when the hidden field of
 * bearerCredentialFields is (for App-Only Bearer, and for the operations that read the bearer
 * credential while another credential signs the request).
 */
export function credentialsFor(
	allowed: CredentialKind[],
	options: { bearerOnField?: boolean } = {},
) {
	return allowed.map((key) => ({
		name: CREDENTIAL_TYPES[key],
		required: true,
		displayOptions: {
			show:
				key === 'appOnly' && options.bearerOnField
					? {
							// n8n's editor offers a credential type in the node's Credential selector, and sets
							// Authentication from it, only when its entry names the Authentication field: the entry
							// keeps it, with every value, and the hidden field decides.
							authentication: allowed.map((k) => CREDENTIAL_TYPES[k]),
							[BEARER_CREDENTIAL_FIELD]: [BEARER_CREDENTIAL_FIELD_VALUE],
						}
					: { authentication: [CREDENTIAL_TYPES[key]] },
		},
	}));
}

/** The hidden field the App-Only Bearer credential is shown on (credentialsFor with bearerOnField). */
export const BEARER_CREDENTIAL_FIELD = 'appBearerCredential';
const BEARER_CREDENTIAL_FIELD_VALUE = 'use';

/**
 * n8n shows a node's credential in the editor, and hands it to the node at run time, only when the
 * displayOptions of its (first) entry in the node's credential list match, and `show` requires every
 * key to match: no entry can say "Authentication is App-Only Bearer, or the operation is one that
 * reads the bearer credential while another credential signs the request". A field defined twice under
 * one name can: n8n keeps a field, with its default, when any one of its definitions is shown (in a
 * saved workflow's parameters at run time as in the editor), so this hidden field exists exactly when
 * either condition holds, and the bearer credential is shown on it.
 */
export function bearerCredentialFields(alsoWhen: DisplayConditions): INodeProperties[] {
	const field: INodeProperties = {
		displayName: 'App Bearer Credential',
		name: BEARER_CREDENTIAL_FIELD,
		type: 'hidden',
		default: BEARER_CREDENTIAL_FIELD_VALUE,
	};
	return [
		{ ...field, displayOptions: { show: { authentication: [CREDENTIAL_TYPES.appOnly] } } },
		{ ...field, displayOptions: { show: alsoWhen } },
	];
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
