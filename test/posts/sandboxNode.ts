/* eslint-disable @typescript-eslint/no-require-imports -- the sandbox is plain CommonJS */
/**
 * Platform Posts run against the local sandbox (the service's double, started by the test): the
 * sandbox takes the test credentials' keys, so every credential kind signs and authenticates as it
 * would against the service.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { createContext, defaultCredentials, TEST_SECRETS } from '../helpers/context';
import { node } from './helpers';

const { createSandbox } = require('../../sandbox/server');

export interface TestSandbox {
	url: string;
	keys: Record<string, string>;
	db: {
		media: Map<string, IDataObject>;
		webhooks: Map<string, IDataObject>;
		accountSubscriptions: Map<string, Set<string>>;
		streamRules: Map<string, IDataObject>;
		notes: IDataObject[];
		replayJobs: IDataObject[];
	};
	newId(): string;
	close(): Promise<void>;
}

export async function startTestSandbox(): Promise<TestSandbox> {
	return (await createSandbox({
		quiet: true,
		keys: {
			consumerKey: 'ck',
			consumerSecret: TEST_SECRETS.consumerSecret,
			accessToken: TEST_SECRETS.accessToken,
			accessTokenSecret: TEST_SECRETS.accessTokenSecret,
			bearerToken: TEST_SECRETS.bearerToken,
			oauth2UserToken: TEST_SECRETS.oauth2AccessToken,
		},
	}).listen(0)) as TestSandbox;
}

/** Runs Platform Posts 1.1 against the sandbox; the error, when it fails, instead of the output. */
export async function runOn(
	sb: TestSandbox,
	parameters: IDataObject,
	options: { authentication?: string; items?: INodeExecutionData[] } = {},
) {
	const credentials = defaultCredentials();
	for (const c of Object.values(credentials)) {
		c.baseUrl = sb.url;
		if ('adsBaseUrl' in c) c.adsBaseUrl = sb.url;
	}
	const built = createContext({
		parameters: { authentication: options.authentication ?? 'platformOAuth2Api', ...parameters },
		items: options.items,
		typeVersion: 1.1,
		credentials,
	});
	try {
		const output = await node.execute.call(built.context);
		return { output: output[0], requests: built.requests, error: undefined };
	} catch (error) {
		return {
			output: [],
			requests: built.requests,
			error: error as Error & { description?: string },
		};
	}
}
