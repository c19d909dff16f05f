'use strict';
/**
 * Form bodies signed with OAuth 1.0a inside n8n: Token > Revoke App Bearer Token sends `access_token`
 * as an application/x-www-form-urlencoded body, which belongs in the signature base string. The
 * sandbox verifies the signature over the form parameters, so a request whose signature leaves them
 * out is refused (401, code 89). Once with the keys credential (the package's signer) and once with the
 * connect credential (signed by n8n itself); and Platform Posts 1.1, which revokes the token of the
 * App-Only Bearer credential chosen beside the signing OAuth1 credential.
 */
const {
	T,
	CRED,
	REVOCABLE_BEARER_TOKEN,
	node,
	chain,
	workflow,
	webhookStart,
	credRef,
} = require('../lib/fixtures');

// Characters that percent-encoding must get right in the form body and in the base string.
const TOKENS = { keys: 'e2e-form-keys+token=/1', connect: 'e2e-form-connect token=/2' };

// An app token the HTTP Request node revokes with a form body (not the app's own bearer).
const HTTP_TOKEN = 'e2e-http-request keys+token=/3';

module.exports = [
	{
		name: "HTTP Request node with the OAuth1 keys credential (n8n's older request helper): a GET with a query and a form POST, both signed",
		needs: ['platformPosts:token.revokeBearerToken'],
		modes: ['regular'],
		workflows: (ctx) => [
			workflow(
				'e2eHttpKeys0001',
				'e2e HTTP Request with OAuth1 keys',
				[
					webhookStart('e2e-http-keys'),
					node(
						'Get Me',
						'n8n-nodes-base.httpRequest',
						4.2,
						{
							method: 'GET',
							url: `${ctx.sandboxUrl}/2/users/me`,
							authentication: 'predefinedCredentialType',
							nodeCredentialType: CRED.oauth1.type,
							sendQuery: true,
							queryParameters: { parameters: [{ name: 'user.fields', value: 'id,username' }] },
							options: {},
						},
						[250, 0],
						{ credentials: credRef(CRED.oauth1) },
					),
					node(
						'Revoke',
						'n8n-nodes-base.httpRequest',
						4.2,
						{
							method: 'POST',
							url: `${ctx.sandboxUrl}/oauth2/invalidate_token`,
							authentication: 'predefinedCredentialType',
							nodeCredentialType: CRED.oauth1.type,
							sendBody: true,
							contentType: 'form-urlencoded',
							bodyParameters: { parameters: [{ name: 'access_token', value: HTTP_TOKEN }] },
							options: {},
						},
						[500, 0],
						{ credentials: credRef(CRED.oauth1) },
					),
				],
				chain(['Start', 'Get Me', 'Revoke']),
				{ active: true },
			),
		],
		publish: () => ['e2eHttpKeys0001'],
		async run(ctx) {
			const { assert } = ctx;
			ctx.sandbox.bearers[HTTP_TOKEN] = { kind: 'app' };
			const since = ctx.seq();
			await ctx.call('e2e-http-keys');
			// The sandbox checks each signature, form parameters and query included.
			const rows = ctx.assertAllAuthValid(since, 'oauth1');
			assert.deepEqual(
				rows.map((r) => `${r.method} ${r.path} ${r.status}`),
				['GET /2/users/me 200', 'POST /oauth2/invalidate_token 200'],
			);
			assert.equal(ctx.sandbox.bearers[HTTP_TOKEN], undefined, 'the token was revoked');
		},
	},
	{
		name: 'form bodies: Token > Revoke App Bearer Token with OAuth1 keys and OAuth1 connect (form body signed)',
		needs: ['platformPosts:token.revokeBearerToken'],
		modes: ['regular', 'queue'],
		workflows: () => [
			workflow(
				'e2eFormBodies001',
				'e2e form bodies',
				[
					webhookStart('e2e-form-bodies'),
					node(
						'Revoke (OAuth1 Keys)',
						T.posts,
						1,
						{
							authentication: 'platformOAuth1Api',
							resource: 'token',
							operation: 'revokeBearerToken',
							bearerTokenToRevoke: TOKENS.keys,
						},
						[250, 0],
						{ credentials: credRef(CRED.oauth1) },
					),
					node(
						'Revoke (Connect)',
						T.posts,
						1,
						{
							authentication: 'platformOAuth1ConnectApi',
							resource: 'token',
							operation: 'revokeBearerToken',
							bearerTokenToRevoke: TOKENS.connect,
						},
						[500, 0],
						{ credentials: credRef(CRED.connect) },
					),
				],
				chain(['Start', 'Revoke (OAuth1 Keys)', 'Revoke (Connect)']),
				{ active: true },
			),
		],
		publish: () => ['e2eFormBodies001'],
		async run(ctx) {
			const { assert } = ctx;
			// Two extra app tokens to revoke, so that the app's own bearer token keeps working for the other tests.
			for (const token of Object.values(TOKENS)) ctx.sandbox.bearers[token] = { kind: 'app' };
			const since = ctx.seq();
			const items = await ctx.call('e2e-form-bodies');
			assert.equal(items.length, 1);
			assert.equal(items[0].revoked, true);
			assert.equal(items[0].revoked_kind, 'app_bearer_token');
			assert.ok(
				!JSON.stringify(items).includes(TOKENS.connect),
				'the revoked token is not in the output',
			);
			const rows = ctx.assertAllAuthValid(since, 'oauth1');
			const revokes = rows.filter((r) => r.path === '/oauth2/invalidate_token');
			assert.equal(
				revokes.length,
				2,
				`expected 2 POST /oauth2/invalidate_token, got ${revokes.length}`,
			);
			for (const [i, token] of [TOKENS.keys, TOKENS.connect].entries()) {
				const r = revokes[i];
				assert.equal(r.status, 200, `revoke #${i + 1}: ${r.status} ${JSON.stringify(r.response)}`);
				assert.match(
					String(r.contentType),
					/^application\/x-www-form-urlencoded/,
					`revoke #${i + 1} content type ${r.contentType}`,
				);
				assert.equal(r.bodyKind, 'form');
				assert.deepEqual(r.body, { access_token: token });
				assert.deepEqual(r.query, {}, 'the token travels in the body, not the URL');
				assert.equal(ctx.sandbox.bearers[token], undefined, `token #${i + 1} was revoked`);
			}
			assert.ok(
				ctx.sandbox.bearers[ctx.keys.bearerToken],
				"the app's own bearer token is untouched",
			);
		},
	},
	{
		name: 'form bodies: Platform Posts 1.1 revokes the token of its App-Only Bearer credential, signed with the OAuth1 keys',
		needs: ['platformPosts:token.revokeBearerToken'],
		modes: ['regular'],
		workflows: () => [
			workflow(
				'e2eRevokeCred001',
				'e2e revoke the bearer credential token',
				[
					webhookStart('e2e-revoke-credential-token'),
					node(
						'Revoke (Bearer Credential)',
						T.posts,
						1.1,
						{
							authentication: 'platformOAuth1Api',
							resource: 'token',
							operation: 'revokeBearerToken',
						},
						[250, 0],
						{
							credentials: Object.assign(credRef(CRED.oauth1), credRef(CRED.bearerRevocable)),
						},
					),
				],
				chain(['Start', 'Revoke (Bearer Credential)']),
				{ active: true },
			),
		],
		publish: () => ['e2eRevokeCred001'],
		async run(ctx) {
			const { assert } = ctx;
			ctx.sandbox.bearers[REVOCABLE_BEARER_TOKEN] = { kind: 'app' };
			const since = ctx.seq();
			const items = await ctx.call('e2e-revoke-credential-token');
			assert.equal(items.length, 1, JSON.stringify(items));
			assert.equal(items[0].revoked, true);
			assert.equal(items[0].revoked_kind, 'app_bearer_token');
			assert.ok(
				!JSON.stringify(items).includes(REVOCABLE_BEARER_TOKEN),
				'the revoked token is not in the output',
			);
			// Signed as the app owner (the sandbox refuses any other signer), with the credential's token
			// in the form body.
			const rows = ctx.assertAllAuthValid(since, 'oauth1');
			assert.deepEqual(
				rows.map((r) => `${r.method} ${r.path} ${r.status}`),
				['POST /oauth2/invalidate_token 200'],
			);
			assert.deepEqual(rows[0].body, { access_token: REVOCABLE_BEARER_TOKEN });
			assert.equal(ctx.sandbox.bearers[REVOCABLE_BEARER_TOKEN], undefined, 'the token was revoked');
			assert.ok(
				ctx.sandbox.bearers[ctx.keys.bearerToken],
				"the app's own bearer token is untouched",
			);
		},
	},
];
