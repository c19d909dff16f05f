/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- credential type names in test parameters, not secrets */
import type { IDataObject } from 'n8n-workflow';

import { AdsCreatives } from '../../nodes/AdsCreatives/AdsCreatives.node';
import { createContext } from '../helpers/context';

export const node = new AdsCreatives();
export const ACCOUNT = { __rl: true, mode: 'list', value: 'acc1' };
export const A = '/12/accounts/acc1';

export function build(
	parameters: IDataObject | ((i: number) => IDataObject),
	options: { extra?: IDataObject; items?: IDataObject[]; continueOnFail?: boolean } = {},
) {
	const params = typeof parameters === 'function' ? parameters : () => parameters;
	return createContext({
		parameters: (i: number) => ({
			authentication: 'platformOAuth1Api',
			accountId: ACCOUNT,
			...params(i),
		}),
		items: options.items?.map((json) => ({ json })),
		extra: options.extra,
		continueOnFail: options.continueOnFail,
	});
}

export async function failure(
	promise: Promise<unknown>,
): Promise<Error & { description?: string }> {
	return await promise.then(
		() => {
			throw new Error('expected a failure');
		},
		(e: Error) => e,
	);
}

export async function run(parameters: IDataObject) {
	const built = build(parameters);
	const [out] = await node.execute.call(built.context);
	return { out, requests: built.requests };
}

/** The query of a recorded request as an object. */
export function queryOf(url: string): Record<string, string> {
	return Object.fromEntries(new URL(url).searchParams.entries());
}

export const rl = (value: string, mode = 'id') => ({ __rl: true, mode, value });
