import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { CredentialKind, PlatformContext } from './transport';
import { CREDENTIAL_TYPES, chosenCredentialType } from './transport';

/**
 * Which credential kinds the service accepts for an operation. The service names three: an app-only
 * bearer token (appOnly), an OAuth 2.0 user token (pkce) and an OAuth 1.0a user token (hmac and
 * connect, two ways of holding the same token). Each operation declares the kinds every request it
 * sends is accepted with; the router refuses any other kind before the first request, and the
 * editor shows a notice under the operation while another kind is chosen.
 */

/** The Authentication field's name of each kind. */
export const KIND_NAMES: Record<CredentialKind, string> = {
	pkce: 'OAuth2 (User Context)',
	hmac: 'OAuth1 Keys (User Context)',
	connect: 'OAuth1 Connect Account (User Context)',
	appOnly: 'App-Only Bearer Token',
};

const ORDER: CredentialKind[] = ['appOnly', 'pkce', 'hmac', 'connect'];

/** Every kind: public reads the service answers for the app and for any user. */
export const ANY_KIND: readonly CredentialKind[] = ORDER;
/** A user's token, OAuth 2.0 or OAuth 1.0a: what acts as, or reads the data of, the user. */
export const USER_CONTEXT: readonly CredentialKind[] = ['pkce', 'hmac', 'connect'];
/** Only an OAuth 2.0 user token (bookmarks). */
export const OAUTH2_USER: readonly CredentialKind[] = ['pkce'];
/** Only an OAuth 1.0a user token (revoking one). */
export const OAUTH1_USER: readonly CredentialKind[] = ['hmac', 'connect'];
/** Only the app-only bearer token (counts, full-archive search, app administration). */
export const APP_ONLY: readonly CredentialKind[] = ['appOnly'];
/** The app-only bearer token or an OAuth 2.0 user token (news search). */
export const APP_OR_OAUTH2: readonly CredentialKind[] = ['appOnly', 'pkce'];

/** A narrower set of kinds while the operation's fields have these values. */
export interface AuthenticationRule {
	/** Field values, as displayOptions.show names them: each field matches any value listed. */
	when: Record<string, Array<string | number | boolean>>;
	kinds: readonly CredentialKind[];
	/** What needs these kinds, in the user's words ("Full-archive search"). */
	what: string;
}

/** What an operation declares: the kinds it accepts, and narrower kinds for some field values. */
export interface AuthenticationSpec {
	kinds: readonly CredentialKind[];
	rules?: readonly AuthenticationRule[];
	/** What the operation does, for the message ("Count posts"). */
	what: string;
}

export function kindOf(type: string): CredentialKind | undefined {
	return (Object.keys(CREDENTIAL_TYPES) as CredentialKind[]).find(
		(kind) => CREDENTIAL_TYPES[kind] === type,
	);
}

/** "App-Only Bearer Token", "OAuth2 (User Context) or OAuth1 Keys (User Context)", ... */
export function kindList(kinds: readonly CredentialKind[]): string {
	const names = ORDER.filter((k) => kinds.includes(k)).map((k) => KIND_NAMES[k]);
	return names.length < 2
		? (names[0] ?? 'no credential')
		: `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

function intersect(a: readonly CredentialKind[], b: readonly CredentialKind[]): CredentialKind[] {
	return a.filter((k) => b.includes(k));
}

/**
 * The kinds accepted for the field values at hand and what needs the narrowest of them. `value`
 * reads a field (its default when it is not set).
 */
export function acceptedKinds(
	spec: AuthenticationSpec,
	value: (field: string) => unknown,
): { kinds: CredentialKind[]; what: string } {
	let kinds = [...spec.kinds];
	let what = spec.what;
	for (const rule of spec.rules ?? []) {
		const applies = Object.entries(rule.when).every(([field, values]) =>
			values.includes(value(field) as string | number | boolean),
		);
		if (!applies) continue;
		const narrowed = intersect(kinds, rule.kinds);
		if (narrowed.length < kinds.length) what = rule.what;
		kinds = narrowed;
	}
	return { kinds, what };
}

/**
 * Fails, before any request, when the kind chosen in the Authentication field (or given) is not one
 * of `kinds`, naming the kinds that are.
 */
export function requireKind(
	ctx: PlatformContext,
	itemIndex: number,
	what: string,
	kinds: readonly CredentialKind[],
	chosenType: string = chosenCredentialType(ctx, itemIndex),
): void {
	const chosen = kindOf(chosenType);
	if (chosen && kinds.includes(chosen)) return;
	const needed = kindList(kinds);
	throw new NodeOperationError(ctx.getNode(), `${what} needs ${needed} authentication`, {
		itemIndex,
		description: `The service accepts only ${needed} for this request${chosen ? `, not ${KIND_NAMES[chosen]}` : ''}. Choose ${kinds.length > 1 ? 'one of them' : 'it'} in the Authentication field and select a credential of that type.`,
	});
}

/** Checks the Authentication field against what the operation declares, for one item. */
export function requireDeclaredKind(
	ctx: IExecuteFunctions,
	itemIndex: number,
	spec: AuthenticationSpec,
	defaults: Record<string, unknown> = {},
): void {
	const { kinds, what } = acceptedKinds(spec, (field) => {
		try {
			return ctx.getNodeParameter(field, itemIndex, defaults[field]);
		} catch {
			// n8n throws for a field that is neither set nor has a default: no value, no rule.
			return undefined;
		}
	});
	requireKind(ctx, itemIndex, what, kinds);
}

/**
 * The editor's notices: one shown while the Authentication field holds a kind the operation never
 * accepts, and one per rule while its field values are set and a kind it refuses is chosen. `offered`
 * is what the node's Authentication field offers; `show` places the notices (resource, operation).
 */
export function authenticationNotices(
	spec: AuthenticationSpec,
	offered: readonly CredentialKind[],
	show: NonNullable<IDisplayOptions['show']> = {},
): INodeProperties[] {
	const notice = (
		text: string,
		refused: CredentialKind[],
		when: NonNullable<IDisplayOptions['show']>,
	): INodeProperties => ({
		displayName: text,
		name: 'authenticationNotice',
		type: 'notice',
		default: '',
		displayOptions: {
			show: { ...show, ...when, authentication: refused.map((k) => CREDENTIAL_TYPES[k]) },
		},
	});
	const out: INodeProperties[] = [];
	const refusedAlways = offered.filter((k) => !spec.kinds.includes(k));
	if (refusedAlways.length)
		out.push(
			notice(
				`${spec.what} needs ${kindList(spec.kinds)} authentication: choose ${spec.kinds.length > 1 ? 'one of them' : 'it'} in the Authentication field above`,
				refusedAlways,
				{},
			),
		);
	for (const rule of spec.rules ?? []) {
		const accepted = intersect(spec.kinds, rule.kinds);
		const refused = offered.filter((k) => spec.kinds.includes(k) && !accepted.includes(k));
		if (!refused.length) continue;
		out.push(
			notice(
				`${rule.what} needs ${kindList(accepted)} authentication: choose ${accepted.length > 1 ? 'one of them' : 'it'} in the Authentication field above`,
				refused,
				rule.when,
			),
		);
	}
	return out;
}
