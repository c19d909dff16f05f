import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPES, chosenCredentialType } from '../shared/transport';

/** What the PlatformPosts operations share: the user-context check and input readers. */

/** Operations that act as a user refuse the app-only bearer before any request. */
export function requireUserContext(ctx: IExecuteFunctions, itemIndex: number, what: string): void {
	if (chosenCredentialType(ctx, itemIndex) === CREDENTIAL_TYPES.appOnly) {
		throw new NodeOperationError(ctx.getNode(), `${what} needs a user-context credential`, {
			itemIndex,
			description:
				'The app-only bearer token can only read public data. Choose OAuth2 (User Context) or one of the OAuth1 options in the Authentication field.',
		});
	}
}

/** ISO 8601 from an n8n dateTime value; undefined when empty. */
export function isoTime(
	ctx: IExecuteFunctions,
	value: unknown,
	label: string,
	itemIndex: number,
): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const date = new Date(String(value));
	if (Number.isNaN(date.getTime())) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Invalid input in item ${itemIndex + 1}: ${label}: not a date and time`,
			{
				itemIndex,
			},
		);
	}
	return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
