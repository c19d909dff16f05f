/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code, not shipped */
import nock from 'nock';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the sandbox's own OAuth 1.0a verifier, plain JavaScript
const oauth1 = require('../../sandbox/lib/oauth1');

import type { INodeCredentialDescription, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { BASE, TEST_SECRETS, defaultCredentials } from '../helpers/context';
import { node, run, runFailing, setupNock } from './helpers';

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
		expect(error.message).toBe(
			'Revoke the OAuth1 user token needs OAuth1 Keys (User Context) or OAuth1 Connect Account (User Context) authentication',
		);
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
		expect(none.error.message).toBe('The OAuth2 credential holds no refresh token');
		expect(none.requests).toHaveLength(0);
	});
});

describe('Token > Revoke App Bearer Token, version 1.1: the token comes from the App-Only Bearer credential', () => {
	const revoke = { resource: 'token', operation: 'revokeBearerToken' };

	it.each(['platformOAuth1Api', 'platformOAuth1ConnectApi'])(
		"revokes the credential's pasted token, signed with %s as the app owner, and outputs no token",
		async (authentication) => {
			nock(BASE)
				.post('/oauth2/invalidate_token', `access_token=${TEST_SECRETS.bearerToken}`)
				.reply(200, { access_token: TEST_SECRETS.bearerToken });
			const { output, requests, preAuthCalls } = await run(revoke, undefined, {
				authentication,
				typeVersion: 1.1,
			});
			expect(requests).toHaveLength(1);
			expect(requests[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
			// Signed by the OAuth1 credential (the owner's access token), not sent with the bearer token.
			expect(requests[0].headers.authorization).toMatch(
				/^OAuth .*oauth_token="ACCESS-TOKEN-do-not-leak"/,
			);
			expect(preAuthCalls).toEqual([]);
			expect(output[0].json).toEqual({
				revoked: true,
				revoked_kind: 'app_bearer_token',
				next_step: expect.any(String),
			});
			expect(output[0].pairedItem).toEqual({ item: 0 });
			noSecrets(output);
		},
	);

	it('revokes the cached minted token of a minted credential, without minting', async () => {
		const credentials = defaultCredentials();
		Object.assign(credentials.platformBearerApi, {
			origin: 'minted',
			consumerKey: 'ck',
			bearerToken: 'STALE-PASTED-do-not-use',
			mintedToken: 'MINTED-do-not-leak',
		});
		nock(BASE)
			.post('/oauth2/invalidate_token', 'access_token=MINTED-do-not-leak')
			.reply(200, { access_token: 'MINTED-do-not-leak' });
		const { output, requests, preAuthCalls } = await run(revoke, undefined, {
			authentication: 'platformOAuth1Api',
			typeVersion: 1.1,
			credentials,
		});
		expect(requests).toHaveLength(1);
		expect(preAuthCalls).toEqual([]);
		expect(JSON.stringify(output)).not.toContain('MINTED-do-not-leak');
	});

	it('ignores a Bearer Token field left in the parameters (version 1 only)', async () => {
		nock(BASE)
			.post('/oauth2/invalidate_token', `access_token=${TEST_SECRETS.bearerToken}`)
			.reply(200, { access_token: TEST_SECRETS.bearerToken });
		const { requests } = await run({ ...revoke, bearerTokenToRevoke: 'FIELD-TOKEN' }, undefined, {
			authentication: 'platformOAuth1Api',
			typeVersion: 1.1,
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].body).toBe(`access_token=${TEST_SECRETS.bearerToken}`);
	});

	it('says so, and sends nothing, when a minted credential has no token cached yet', async () => {
		const credentials = defaultCredentials();
		Object.assign(credentials.platformBearerApi, { origin: 'minted', mintedToken: '' });
		const { error, requests } = await runFailing(revoke, undefined, {
			authentication: 'platformOAuth1Api',
			typeVersion: 1.1,
			credentials,
		});
		expect(error.message).toBe('The App-Only Bearer credential holds no token to revoke');
		expect(requests).toHaveLength(0);
	});

	it('still needs the OAuth1 credential to sign', async () => {
		const { error, requests } = await runFailing(revoke, undefined, {
			authentication: 'platformBearerApi',
			typeVersion: 1.1,
		});
		expect(error.message).toBe(
			'Revoke the app bearer token needs OAuth1 Keys (User Context) or OAuth1 Connect Account (User Context) authentication',
		);
		expect(requests).toHaveLength(0);
	});

	it('version 1 still revokes the token of its field, not the credential', async () => {
		nock(BASE)
			.post('/oauth2/invalidate_token', 'access_token=FIELD-TOKEN')
			.reply(200, { access_token: 'FIELD-TOKEN' });
		const { requests } = await run({ ...revoke, bearerTokenToRevoke: 'FIELD-TOKEN' }, undefined, {
			authentication: 'platformOAuth1Api',
			typeVersion: 1,
		});
		expect(requests).toHaveLength(1);
		const empty = await runFailing(revoke, undefined, {
			authentication: 'platformOAuth1Api',
			typeVersion: 1,
		});
		expect(empty.error.message).toBe('Invalid input in item 1: Bearer Token is empty');
		expect(empty.requests).toHaveLength(0);
	});
});

/**
 * Which credentials n8n offers in the editor and hands to the node at run time: its own helpers, as
 * n8n-core does it (the node's parameters with defaults filled in, then the displayOptions of the
 * first credential entry of each type).
 */
describe('Platform Posts credentials shown, as n8n decides it', () => {
	const { description } = node;
	const shownCredentials = (typeVersion: number, parameters: INodeParameters) => {
		const self = { typeVersion };
		const resolved = NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			self,
			description,
		)!;
		const first = new Map<string, INodeCredentialDescription>();
		for (const c of description.credentials ?? []) if (!first.has(c.name)) first.set(c.name, c);
		return [...first.values()]
			.filter((c) => NodeHelpers.displayParameter(resolved, c, self, description, resolved))
			.map((c) => c.name)
			.sort();
	};
	const AUTHS = [
		'platformOAuth2Api',
		'platformOAuth1Api',
		'platformOAuth1ConnectApi',
		'platformBearerApi',
	];
	const combos = description.properties
		.filter((p) => p.name === 'operation')
		.flatMap((p) =>
			(p.options as Array<{ value: string }>).map((o) => ({
				resource: String(p.displayOptions!.show!.resource![0]),
				operation: o.value,
			})),
		);

	it('is versioned: 1 and 1.1, new nodes get 1.1', () => {
		expect(description.version).toEqual([1, 1.1]);
		expect(description.defaultVersion).toBe(1.1);
	});

	it('version 1: only the credential of the Authentication field, for every operation (as before)', () => {
		for (const { resource, operation } of combos)
			for (const authentication of AUTHS)
				expect([
					resource,
					operation,
					shownCredentials(1, { authentication, resource, operation }),
				]).toEqual([resource, operation, [authentication]]);
	});

	it('version 1.1: the bearer credential beside the chosen one for Revoke App Bearer Token only', () => {
		for (const { resource, operation } of combos)
			for (const authentication of AUTHS) {
				const both = resource === 'token' && operation === 'revokeBearerToken';
				const expected = [
					...new Set([authentication, ...(both ? ['platformBearerApi'] : [])]),
				].sort();
				expect([
					resource,
					operation,
					shownCredentials(1.1, { authentication, resource, operation }),
				]).toEqual([resource, operation, expected]);
			}
	});

	// What n8n 2.40's editor does with the list (its panel hides the Authentication field and offers
	// one Credential selector instead): it offers the credential types whose entry names the
	// Authentication field, and choosing a credential sets Authentication to the first option that
	// credential's entry allows.
	it("the editor's Credential selector offers every credential type and sets the matching Authentication", () => {
		const auth = description.properties.find((p) => p.name === 'authentication')!;
		const values = (auth.options as Array<{ value: string }>).map((o) => o.value);
		const entries = description.credentials ?? [];
		expect(
			entries
				.filter((c) => c.displayOptions?.show && 'authentication' in c.displayOptions.show)
				.map((c) => c.name)
				.sort(),
		).toEqual([...AUTHS].sort());
		for (const type of AUTHS) {
			const entry = entries.find((c) => c.name === type)!;
			const allowed = entry.displayOptions!.show!.authentication as string[];
			expect([type, values.find((v) => allowed.includes(v))]).toEqual([type, type]);
		}
		expect(auth.default).toBe('platformOAuth2Api');
	});

	it('version 1.1 shows no Bearer Token field for the operation; version 1 does', () => {
		const fields = (typeVersion: number) =>
			Object.keys(
				NodeHelpers.getNodeParameters(
					description.properties,
					{
						authentication: 'platformOAuth1Api',
						resource: 'token',
						operation: 'revokeBearerToken',
					},
					true,
					false,
					{ typeVersion },
					description,
				)!,
			);
		expect(fields(1)).toContain('bearerTokenToRevoke');
		expect(fields(1.1)).not.toContain('bearerTokenToRevoke');
	});
});
