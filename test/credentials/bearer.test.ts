import nock from 'nock';
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { PlatformBearerApi } from '../../credentials/PlatformBearerApi.credentials';
import { BASE } from '../helpers/context';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const credential = new PlatformBearerApi();
const EXPIRABLE = credential.properties.find(
	(p) => p.type === 'hidden' && p.typeOptions?.expirable,
)!.name;

/** The credential's preAuthentication, with a real HTTP client (nock answers). */
async function preAuthenticate(data: ICredentialDataDecryptedObject) {
	const helpers = {
		httpRequest: async (options: IHttpRequestOptions) => {
			const auth = options.auth!;
			const response = await fetch(options.url, {
				method: options.method,
				headers: {
					...(options.headers as Record<string, string>),
					authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`,
				},
				body: String(options.body),
			});
			return await response.json();
		},
	};
	return (await credential.preAuthentication.call({ helpers } as never, data)) as Record<
		string,
		unknown
	>;
}

/**
 * n8n 2.40 (credentials-helper preAuthentication) calls this on every credential test, and stores
 * the credential, stamping "Last updated", exactly when the returned object holds the expirable
 * field. These tests read that field of the output.
 */
describe('Platform App-Only Bearer credential: what a token request asks n8n to store', () => {
	const minted = (token: string): ICredentialDataDecryptedObject => ({
		origin: 'minted',
		consumerKey: 'ck',
		consumerSecret: 'cs',
		mintedToken: token,
		baseUrl: BASE,
	});

	it('stores the token when the credential holds none yet (first run or first test)', async () => {
		nock(BASE).post('/oauth2/token').reply(200, { token_type: 'bearer', access_token: 'T1' });
		expect((await preAuthenticate(minted('')))[EXPIRABLE]).toBe('T1');
	});

	it('stores nothing when the service hands back the cached token (a test of a working credential)', async () => {
		const scope = nock(BASE)
			.post('/oauth2/token')
			.reply(200, { token_type: 'bearer', access_token: 'T1' });
		const output = await preAuthenticate(minted('T1'));
		expect(scope.isDone()).toBe(true);
		expect(output[EXPIRABLE]).toBeUndefined();
	});

	it('stores the new token when the cached one was revoked and the service hands out another', async () => {
		nock(BASE).post('/oauth2/token').reply(200, { token_type: 'bearer', access_token: 'T2' });
		expect((await preAuthenticate(minted('T1')))[EXPIRABLE]).toBe('T2');
	});

	it('asks for nothing and stores nothing for a pasted token', async () => {
		const output = await preAuthenticate({ origin: 'pasted', bearerToken: 'P', baseUrl: BASE });
		expect(output[EXPIRABLE]).toBeUndefined();
	});
});
