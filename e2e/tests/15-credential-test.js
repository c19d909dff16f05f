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
			// The test's own call: GET of the webhook list itself. The active triggers also call the
			// webhook routes (CRC re-validation, replays, and at times the list), most of all just
			// after activation, so the count starts once the list has not been asked for 3 s.
			const checks = () =>
				ctx.records(0, '/2/webhooks').filter((r) => r.method === 'GET' && r.path === '/2/webhooks')
					.length;
			await ctx.waitFor('3 s without a call to the webhook list', () => {
				const last = ctx
					.records(0, '/2/webhooks')
					.filter((r) => r.path === '/2/webhooks')
					.pop();
				return !last || Date.now() - Date.parse(last.at) > 3000;
			});
			const [mintsBefore, checksBefore] = [mints(), checks()];
			for (let i = 0; i < 2; i++) {
				const result = await s.testCredential(await s.credential(id));
				assert.equal(result.status, 'OK', `test ${i + 2}: ${JSON.stringify(result)}`);
			}
			// Each test did call the service with the token (a real test), and asked for no new token.
			assert.equal(checks(), checksBefore + 2, 'each test called GET /2/webhooks');
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
