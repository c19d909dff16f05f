/* eslint-disable @typescript-eslint/no-require-imports -- the sandbox is plain CommonJS */
import { PlatformBearerApi } from '../../credentials/PlatformBearerApi.credentials';

const { createSandbox } = require('../../sandbox/server');

type Sandbox = { url: string; keys: Record<string, string>; close(): Promise<void> };
let sb: Sandbox;

beforeAll(async () => {
	sb = await createSandbox({ quiet: true }).listen(0);
});
afterAll(async () => await sb.close());

const request = new PlatformBearerApi().test.request;

async function send(token: string) {
	const res = await fetch(`${sb.url}${request.url}`, {
		method: request.method ?? 'GET',
		headers: { authorization: `Bearer ${token}` },
	});
	return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/**
 * The App-Only Bearer credential's Test button. The README sends every tier without webhook access to
 * the Poll Trigger with this credential, so its Test must pass on every tier: it may not read the
 * webhook or Account Activity routes, which the service sells to enterprise and pay-per-use accounts
 * only. It must still prove the token is an app bearer token (a user's token fails it).
 */
describe('Platform App-Only Bearer credential: Test', () => {
	it('reads no route of the webhook tiers', () => {
		expect(request.url).toBeDefined();
		expect(request.url).not.toMatch(/^\/2\/(webhooks|account_activity)(\/|$)/);
	});

	it("passes with the app's bearer token (the sandbox holds the request to the contract)", async () => {
		const { status, body } = await send(sb.keys.bearerToken);
		expect(status).toBe(200);
		expect(body.data).toBeDefined();
	});

	it("fails with a user's OAuth2 token, which the endpoint does not take", async () => {
		const { status, body } = await send(sb.keys.oauth2UserToken);
		expect(status).toBe(403);
		expect(String(body.type)).toMatch(/unsupported-authentication$/);
	});
});
