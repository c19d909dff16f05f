import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PlatformCredentialType } from '../../../shared/transport';
import { CREDENTIAL_TYPES, chosenCredentialType } from '../../../shared/transport';

const OAUTH1: PlatformCredentialType[] = [CREDENTIAL_TYPES.hmac, CREDENTIAL_TYPES.connect];

/** The chosen OAuth 1.0a credential type, or a plain-words failure. */
export function requireOAuth1(
	ctx: IExecuteFunctions,
	itemIndex: number,
	what: string,
): PlatformCredentialType {
	const chosen = chosenCredentialType(ctx, itemIndex);
	if (!OAUTH1.includes(chosen)) {
		throw new NodeOperationError(ctx.getNode(), `${what} needs an OAuth1 credential`, {
			itemIndex,
			description:
				'Choose "OAuth1 Keys (User Context)" or "OAuth1 Connect Account (User Context)" in the Authentication field and select the credential whose tokens sign the request.',
		});
	}
	return chosen;
}
