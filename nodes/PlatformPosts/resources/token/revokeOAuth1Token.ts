import { OAUTH1_USER } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { chosenCredentialType } from '../../../shared/transport';

const OP = 'revokeOAuth1Token';

export const revokeOAuth1Token: ItemOperation = {
	option: {
		name: 'Revoke OAuth1 User Token',
		value: OP,
		description:
			'DESTRUCTIVE: invalidate the access token of the OAuth1 credential chosen on this node. Afterwards every request with that credential fails (code 89) until new tokens are pasted or the account is reconnected. Needs an OAuth1 credential in the Authentication field.',
		action: 'Revoke the OAuth1 user token',
	},
	properties: [],
	authentication: OAUTH1_USER,
	async execute(ctx: OperationContext, itemIndex: number) {
		// The router has checked it is an OAuth1 credential (OAUTH1_USER).
		const credentialType = chosenCredentialType(ctx, itemIndex);
		await ctx.request({
			method: 'POST',
			path: '/1.1/oauth/invalidate_token',
			credentialType,
			unsafeFailureHint:
				'The token may have been revoked: check whether the credential still works.',
		});
		// The answer echoes the revoked token: never put it in the output.
		return {
			revoked: true,
			revoked_kind: 'oauth1_user_access_token',
			credential_type: credentialType,
		};
	},
};
