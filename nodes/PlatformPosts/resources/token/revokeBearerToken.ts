import { NodeOperationError } from 'n8n-workflow';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { requireOAuth1 } from './common';

const OP = 'revokeBearerToken';

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
			displayName: 'Bearer Token',
			name: 'bearerTokenToRevoke',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: "The app's current bearer token, to be revoked",
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const credentialType = requireOAuth1(ctx, itemIndex, 'Revoking the app bearer token');
		const token = String(ctx.getNodeParameter('bearerTokenToRevoke', itemIndex, '') ?? '').trim();
		if (!token) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Bearer Token is empty`,
				{ itemIndex },
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
