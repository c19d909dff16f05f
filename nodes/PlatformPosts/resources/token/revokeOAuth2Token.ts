import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { OAUTH2_USER } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { CREDENTIAL_TYPES } from '../../../shared/transport';

const OP = 'revokeOAuth2Token';

export const revokeOAuth2Token: ItemOperation = {
	option: {
		name: 'Revoke OAuth2 Token',
		value: OP,
		description:
			"DESTRUCTIVE: revoke an OAuth2 user token: the credential's current access token, its refresh token (ends the connection), or a token you enter. After revoking the credential's own token, reconnect the credential. Needs the OAuth2 (User Context) credential in the Authentication field.",
		action: 'Revoke an OAuth2 token',
	},
	properties: [
		{
			displayName: 'Token to Revoke',
			name: 'tokenSource',
			type: 'options',
			default: 'accessToken',
			options: [
				{ name: "The Credential's Access Token", value: 'accessToken' },
				{ name: "The Credential's Refresh Token", value: 'refreshToken' },
				{ name: 'Enter a Token', value: 'other' },
			],
		},
		{
			displayName: 'Token',
			name: 'oauth2Token',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			displayOptions: { show: { tokenSource: ['other'] } },
			description: 'The access or refresh token to revoke (issued to the same app)',
		},
		{
			displayName: 'Token Type Hint',
			name: 'tokenTypeHint',
			type: 'options',
			default: 'access_token',
			displayOptions: { show: { tokenSource: ['other'] } },
			options: [
				{ name: 'Access Token', value: 'access_token' },
				{ name: 'Refresh Token', value: 'refresh_token' },
			],
		},
	],
	authentication: OAUTH2_USER,
	async execute(ctx: OperationContext, itemIndex: number) {
		const credentials = await ctx.getCredentials(CREDENTIAL_TYPES.pkce, itemIndex);
		const tokenData = (credentials.oauthTokenData ?? {}) as IDataObject;
		const source = ctx.getNodeParameter('tokenSource', itemIndex, 'accessToken') as string;
		const hint =
			source === 'other'
				? String(ctx.getNodeParameter('tokenTypeHint', itemIndex, 'access_token'))
				: source === 'refreshToken'
					? 'refresh_token'
					: 'access_token';
		const token =
			source === 'other'
				? String(ctx.getNodeParameter('oauth2Token', itemIndex, '') ?? '').trim()
				: String(tokenData[hint] ?? '');
		if (!token) {
			throw new NodeOperationError(
				ctx.getNode(),
				source === 'other'
					? `Invalid input in item ${itemIndex + 1}: Token is empty`
					: `The OAuth2 credential holds no ${hint === 'refresh_token' ? 'refresh' : 'access'} token`,
				{
					itemIndex,
					description:
						source === 'refreshToken'
							? 'A refresh token exists only with the offline.access scope.'
							: undefined,
				},
			);
		}
		const body: IDataObject = { token, token_type_hint: hint };
		if (credentials.clientId) body.client_id = String(credentials.clientId);
		await ctx.request({
			method: 'POST',
			path: '/2/oauth2/revoke',
			credentialType: CREDENTIAL_TYPES.pkce,
			form: true,
			body,
			unsafeFailureHint:
				'The token may have been revoked: check whether the credential still works.',
		});
		return {
			revoked: true,
			token_type_hint: hint,
			...(source === 'other'
				? {}
				: { next_step: 'Reconnect the OAuth2 credential to get new tokens.' }),
		};
	},
};
