import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { CREDENTIAL_TYPES, platformRequest } from '../../nodes/shared/transport';
import { BASE, createContext, defaultCredentials } from '../helpers/context';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

function minted(token: string) {
	const credentials = defaultCredentials();
	Object.assign(credentials.platformBearerApi, {
		origin: 'minted',
		consumerKey: 'ck',
		mintedToken: token,
	});
	return createContext({ credentials, parameters: { authentication: CREDENTIAL_TYPES.appOnly } });
}

const request = {
	method: 'GET' as const,
	path: '/2/webhooks',
	credentialType: CREDENTIAL_TYPES.appOnly,
};

describe('app-only bearer minted by the credential', () => {
	it('mints a new token once when the service refuses the cached one, and repeats the request', async () => {
		nock(BASE)
			.get('/2/webhooks')
			.matchHeader('authorization', 'Bearer old-token')
			.reply(401, {
				title: 'Unauthorized',
				status: 401,
				detail: 'Unauthorized',
				type: 'about:blank',
			})
			.get('/2/webhooks')
			.matchHeader('authorization', 'Bearer old-token')
			.reply(401, { title: 'Unauthorized', status: 401, type: 'about:blank' })
			.post('/oauth2/token', 'grant_type=client_credentials')
			.reply(200, { token_type: 'bearer', access_token: 'new-token' })
			.get('/2/webhooks')
			.matchHeader('authorization', 'Bearer new-token')
			.reply(200, { data: [{ id: '1' }] });
		const built = minted('old-token');
		const body = await platformRequest.call(built.context, request);
		expect((body as IDataObject).data).toEqual([{ id: '1' }]);
		expect(built.credentials.platformBearerApi.mintedToken).toBe('new-token');
	});

	it('fails with the service error when the new token is refused as well, without the token in the message', async () => {
		nock(BASE)
			.get('/2/webhooks')
			.times(3)
			.reply(401, {
				title: 'Unauthorized',
				status: 401,
				detail: 'Unauthorized',
				type: 'about:blank',
			})
			.post('/oauth2/token')
			.reply(200, { token_type: 'bearer', access_token: 'second-token' });
		const built = minted('old-token');
		const error = await platformRequest.call(built.context, request).then(
			() => undefined,
			(e: Error & { description?: string }) => e,
		);
		expect(error?.message).toMatch(/401|Unauthorized|credential/i);
		expect(`${error?.message} ${error?.description ?? ''}`).not.toMatch(/old-token|second-token/);
	});

	it('does not ask again for a pasted token', async () => {
		nock(BASE)
			.get('/2/webhooks')
			.reply(401, { title: 'Unauthorized', status: 401, type: 'about:blank' });
		const built = createContext({ parameters: { authentication: CREDENTIAL_TYPES.appOnly } });
		await platformRequest.call(built.context, request).catch(() => undefined);
		expect(built.requests).toHaveLength(1);
	});
});
