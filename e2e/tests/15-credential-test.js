'use strict';
/**
 * The credential's Test button leaves a working credential alone: once the minted app-only bearer
 * credential holds its token, testing it again neither requests a new token nor changes its stored
 * data or its "Last updated" (updatedAt). The first test of a credential that holds no token yet
 * stores the token, as its first run would: n8n 2.40 stores whatever a credential's preAuthentication
 * returns while its expirable field is empty, in tests too (printed below, not asserted).
 */
const { session } = require('../lib/rest');

module.exports = [
	{
		name: 'credential test: testing the minted bearer credential does not change it',
		needs: ['platformPosts'],
		modes: ['regular'],
		async run(ctx) {
			const { assert, F } = ctx;
			const s = await session(ctx.inst.port);
			const id = F.CRED.bearerMinted.id;
			const fresh = await s.credential(id);
			const warm = await s.testCredential(fresh);
			assert.equal(warm.status, 'OK', `first test: ${JSON.stringify(warm)}`);
			const before = await s.credential(id);
			console.log(
				`      first test of the credential: updatedAt ${fresh.updatedAt} -> ${before.updatedAt}`,
			);
			const mints = () => ctx.records(0, '/oauth2/token').length;
			// The test's own call: GET /2/usage/tweets, the app's usage, which every tier's app bearer
			// token may read (the webhook list it read before is sold to webhook tiers only). Counted by
			// exact path and method; no node of the suite's active workflows calls it.
			const checks = () =>
				ctx
					.records(0, '/2/usage/tweets')
					.filter((r) => r.method === 'GET' && r.path === '/2/usage/tweets').length;
			const [mintsBefore, checksBefore] = [mints(), checks()];
			for (let i = 0; i < 2; i++) {
				const result = await s.testCredential(await s.credential(id));
				assert.equal(result.status, 'OK', `test ${i + 2}: ${JSON.stringify(result)}`);
			}
			// Each test did call the service with the token (a real test), and asked for no new token.
			assert.equal(checks(), checksBefore + 2, 'each test called GET /2/usage/tweets');
			assert.equal(
				mints(),
				mintsBefore,
				'a test of a credential holding its token minted a new one',
			);
			const after = await s.credential(id);
			assert.deepEqual(after.data, before.data, 'testing the credential changed its data');
			assert.equal(
				after.updatedAt,
				before.updatedAt,
				'testing the credential changed its "Last updated"',
			);
		},
	},
];
