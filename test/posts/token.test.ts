/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code, not shipped */
import nock from 'nock';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the sandbox's own OAuth 1.0a verifier, plain JavaScript
const oauth1 = require('../../sandbox/lib/oauth1');

import { BASE, TEST_SECRETS } from '../helpers/context';
import { run, runFailing, setupNock } from './helpers';

setupNock();

const noSecrets = (value: unknown) => {
	const text = JSON.stringify(value);
	for (const secret of Object.values(TEST_SECRETS)) expect(text).not.toContain(secret);
};

describe('Token', () => {
	it('revokes the OAuth1 user token, signed with that token, without echoing it', async () => {
		nock(BASE)
			.post('/1.1/oauth/invalidate_token')
			.reply(200, { access_token: TEST_SECRETS.accessToken });
		const { output, requests } = await run(
			{ resource: 'token', operation: 'revokeOAuth1Token' },
			undefined,
			{ authentication: 'platformOAuth1Api' },
		);
		expect(requests).toHaveLength(1);
		expect(requests[0].body).toBeUndefined();
		expect(requests[0].headers.authorization).toMatch(
			/^OAuth .*oauth_token="ACCESS-TOKEN-do-not-leak"/,
		);
		expect(output[0].json).toEqual({
			revoked: true,
			revoked_kind: 'oauth1_user_access_token',
			credential_type: 'platformOAuth1Api',
		});
		noSecrets(output);
	});

	it('refuses to revoke an OAuth1 token with another credential type', async () => {
		const { error, requests } = await runFailing({
			resource: 'token',
			operation: 'revokeOAuth1Token',
		});
		expect(error.message).toBe('Revoking the OAuth1 user token needs an OAuth1 credential');
		expect(requests).toHaveLength(0);
	});

	it('revokes the app bearer token as the app owner (OAuth1, form body)', async () => {
		nock(BASE)
			.post('/oauth2/invalidate_token', 'access_token=OLD-BEARER')
			.reply(200, { access_token: 'OLD-BEARER' });
		const { output, requests } = await run(
			{ resource: 'token', operation: 'revokeBearerToken', bearerTokenToRevoke: 'OLD-BEARER' },
			undefined,
			{ authentication: 'platformOAuth1ConnectApi' },
		);
		expect(requests[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
		expect(requests[0].headers.authorization).toMatch(/^OAuth /);
		expect(output[0].json.revoked).toBe(true);
		expect(JSON.stringify(output)).not.toContain('OLD-BEARER');
	});

	it.each(['platformOAuth1Api', 'platformOAuth1ConnectApi'])(
		'revokes the app bearer token with %s: form-encoded body that is part of the OAuth 1.0a signature',
		async (authentication) => {
			nock(BASE)
				.post('/oauth2/invalidate_token', 'access_token=OLD%2BBEARER%3D')
				.reply(200, { access_token: 'OLD+BEARER=' });
			const { requests } = await run(
				{ resource: 'token', operation: 'revokeBearerToken', bearerTokenToRevoke: 'OLD+BEARER=' },
				undefined,
				{ authentication },
			);
			expect(requests).toHaveLength(1);
			expect(requests[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
			// Verified independently (the sandbox's verifier), with the form parameter in the base string.
			const url = new URL(requests[0].url);
			const verify = (formPairs: Array<[string, string]>) =>
				oauth1.verify(
					{
						method: 'POST',
						protocol: 'https',
						host: url.host,
						pathname: url.pathname,
						query: [...url.searchParams.entries()],
						formPairs,
						header: requests[0].headers.authorization,
					},
					{ consumerKey: 'ck', consumerSecret: TEST_SECRETS.consumerSecret },
					{ [TEST_SECRETS.accessToken]: { secret: TEST_SECRETS.accessTokenSecret, userId: '1' } },
					new Set(),
				);
			expect(
				verify([...new URLSearchParams(requests[0].body)] as Array<[string, string]>),
			).toMatchObject({ ok: true });
			expect(verify([])).toMatchObject({ ok: false, reason: 'signature mismatch' });
		},
	);

	it("revokes the OAuth2 credential's access token with client_id and hint", async () => {
		nock(BASE)
			.post(
				'/2/oauth2/revoke',
				`token=${TEST_SECRETS.oauth2AccessToken}&token_type_hint=access_token&client_id=cid`,
			)
			.reply(200, { revoked: true });
		const { output } = await run({
			resource: 'token',
			operation: 'revokeOAuth2Token',
			tokenSource: 'accessToken',
		});
		expect(output[0].json).toEqual({
			revoked: true,
			token_type_hint: 'access_token',
			next_step: 'Reconnect the OAuth2 credential to get new tokens.',
		});
		noSecrets(output);
	});

	it('revokes an entered refresh token, and says when the credential has none', async () => {
		nock(BASE)
			.post('/2/oauth2/revoke', 'token=RT-1&token_type_hint=refresh_token&client_id=cid')
			.reply(200, { revoked: true });
		const entered = await run({
			resource: 'token',
			operation: 'revokeOAuth2Token',
			tokenSource: 'other',
			oauth2Token: 'RT-1',
			tokenTypeHint: 'refresh_token',
		});
		expect(entered.output[0].json).toEqual({ revoked: true, token_type_hint: 'refresh_token' });
		const none = await runFailing({
			resource: 'token',
			operation: 'revokeOAuth2Token',
			tokenSource: 'refreshToken',
		});
		expect(none.error.message).toBe('The credential holds no refresh token');
		expect(none.requests).toHaveLength(0);
	});
});
