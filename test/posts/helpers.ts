import nock from 'nock';
import type { ICredentialDataDecryptedObject, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { PlatformPosts } from '../../nodes/PlatformPosts/PlatformPosts.node';
import { createContext } from '../helpers/context';

export const node = new PlatformPosts();

export function setupNock() {
	beforeAll(() => nock.disableNetConnect());
	afterEach(() => nock.cleanAll());
	afterAll(() => nock.enableNetConnect());
}

export async function run(
	parameters: IDataObject,
	items?: INodeExecutionData[],
	options: RunOptions & { continueOnFail?: boolean } = {},
) {
	const built = createContext({
		parameters: { authentication: options.authentication ?? 'platformOAuth2Api', ...parameters },
		items,
		continueOnFail: options.continueOnFail,
		typeVersion: options.typeVersion,
		credentials: options.credentials,
	});
	const output = await node.execute.call(built.context);
	return { output: output[0], requests: built.requests, preAuthCalls: built.preAuthCalls };
}

export interface RunOptions {
	authentication?: string;
	/** The node's typeVersion (default 1). */
	typeVersion?: number;
	credentials?: Record<string, ICredentialDataDecryptedObject>;
}

export type NodeError = Error & { description?: string; httpCode?: string };

/** Runs the node and returns its error (fails the test when it succeeds), with the requests sent. */
export async function runFailing(
	parameters: IDataObject,
	items?: INodeExecutionData[],
	options: RunOptions = {},
) {
	const built = createContext({
		parameters: { authentication: options.authentication ?? 'platformOAuth2Api', ...parameters },
		items,
		typeVersion: options.typeVersion,
		credentials: options.credentials,
	});
	const error = await node.execute.call(built.context).then(
		() => {
			throw new Error('expected a failure');
		},
		(e: NodeError) => e,
	);
	return { error, requests: built.requests };
}

export const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');

export function binaryItem(data: Buffer, mimeType: string, property = 'data'): INodeExecutionData {
	return {
		json: {},
		binary: {
			[property]: {
				data: data.toString('base64'),
				mimeType,
				fileName: `file.${mimeType.split('/')[1]}`,
			},
		},
	};
}

export const rl = (value: string, mode = 'id') => ({ __rl: true, mode, value });
