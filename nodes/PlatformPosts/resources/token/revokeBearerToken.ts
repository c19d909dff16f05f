import { NodeOperationError } from 'n8n-workflow';

import { OAUTH1_USER } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { appBearerToken, chosenCredentialType } from '../../../shared/transport';

const OP = 'revokeBearerToken';

/**
 * From this version on, the token revoked is the one the App-Only Bearer credential holds (read at
 * run time, so it never sits in the workflow); version 1 takes it as a field.
 */
export const BEARER_FROM_CREDENTIAL_VERSION = 1.1;

const fromVersion = { '@version': [{ _cnd: { gte: BEARER_FROM_CREDENTIAL_VERSION } }] };

/** Where the node shows the App-Only Bearer credential beside the signing OAuth1 credential. */
export const revokeBearerNeedsBearerCredential = {
	...fromVersion,
	resource: ['token'],
	operation: [OP],
};

export const revokeBearerToken: ItemOperation = {
	option: {
		name: 'Revoke App Bearer Token',
		value: OP,
		description:
			"DESTRUCTIVE: invalidate the app's bearer token (the app has one). Every workflow and trigger using it stops working: paste the new token from the developer portal, or, for a minted token, the credential requests a new one. The request is signed as the app owner: choose the owner's OAuth1 credential in the Authentication field.",
		action: 'Revoke the app bearer token',
	},
	properties: [
		{
			displayName:
				"Revokes the token of the App-Only Bearer credential selected above (its pasted token, or the token it minted). The request is signed as the app owner: select the owner's OAuth1 credential (OAuth1 Keys or OAuth1 Connect Account) as the node's credential.",
			name: 'revokeBearerNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: fromVersion },
		},
		{
			displayName: 'Bearer Token',
			name: 'bearerTokenToRevoke',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: "The app's current bearer token, to be revoked",
			displayOptions: { show: { '@version': [1] } },
		},
	],
	authentication: OAUTH1_USER,
	async execute(ctx: OperationContext, itemIndex: number) {
		// The router has checked it is an OAuth1 credential (OAUTH1_USER).
		const credentialType = chosenCredentialType(ctx, itemIndex);
		const fromCredential = ctx.getNode().typeVersion >= BEARER_FROM_CREDENTIAL_VERSION;
		const token = fromCredential
			? await appBearerToken(ctx)
			: String(ctx.getNodeParameter('bearerTokenToRevoke', itemIndex, '') ?? '').trim();
		if (!token && !fromCredential) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Bearer Token is empty`,
				{ itemIndex },
			);
		}
		if (!token) {
			throw new NodeOperationError(
				ctx.getNode(),
				'The App-Only Bearer credential holds no token to revoke',
				{
					itemIndex,
					description:
						'Paste the bearer token into the credential, or, for a minted token, use the credential once (for example in a Platform Posts operation with App-Only Bearer authentication) so that it mints the token.',
				},
			);
		}
		await ctx.request({
			method: 'POST',
			path: '/oauth2/invalidate_token',
			credentialType,
			form: true,
			body: { access_token: token },
			unsafeFailureHint:
				'The token may have been revoked: check whether the bearer credential still works.',
		});
		// The answer echoes the revoked token: never put it in the output.
		return {
			revoked: true,
			revoked_kind: 'app_bearer_token',
			next_step:
				'Paste the new bearer token into the App-Only Bearer credential; a minted credential requests a new token when its cached one is refused.',
		};
	},
};
