import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { AdsCatalog } from '../../nodes/AdsCatalog/AdsCatalog.node';
import { CREDENTIAL_TYPES } from '../../nodes/shared/transport';
import { createContext } from '../helpers/context';

export const CATALOG = '1473981234567890123';

export function locator(value: string, mode = 'id') {
	return { __rl: true, mode, value };
}

export async function run(
	parameters: IDataObject | ((itemIndex: number) => IDataObject),
	items: INodeExecutionData[] = [{ json: {} }],
	options: { continueOnFail?: boolean; typeVersion?: number } = {},
) {
	const params =
		typeof parameters === 'function'
			? (i: number) => ({ authentication: CREDENTIAL_TYPES.hmac, ...parameters(i) })
			: { authentication: CREDENTIAL_TYPES.hmac, ...parameters };
	const ctx = createContext({
		parameters: params,
		items,
		continueOnFail: options.continueOnFail,
		typeVersion: options.typeVersion,
	});
	const node = new AdsCatalog();
	const output = await node.execute.call(ctx.context);
	return { output: output[0], requests: ctx.requests };
}

export async function runFailure(
	parameters: IDataObject,
	items: INodeExecutionData[] = [{ json: {} }],
): Promise<Error & { description?: string; httpCode?: string }> {
	try {
		await run(parameters, items);
	} catch (error) {
		return error as Error & { description?: string; httpCode?: string };
	}
	throw new Error('expected the node to fail');
}

/** A product that passes every rule. */
export function product(n: number, overrides: IDataObject = {}): IDataObject {
	return {
		id: `SKU-${n}`,
		title: `Product ${n}`,
		description: `Plain description of product ${n}`,
		availability: 'in stock',
		condition: 'new',
		price: '19.99 USD',
		link: `https://shop.example/p/${n}`,
		image_link: `https://shop.example/img/${n}.jpg`,
		brand: 'Acme',
		inventory: 5,
		...overrides,
	};
}

export const items = (list: IDataObject[]): INodeExecutionData[] => list.map((json) => ({ json }));

export function envelope(data: unknown, extra: IDataObject = {}) {
	return { request: { params: {} }, data, ...extra };
}

/** The service's answer to a products PUT: CREATE_SUCCESS for each product sent. */
export function putReply(body: { products: IDataObject[] }, status = 'CREATE_SUCCESS') {
	return envelope({
		products_response: body.products.map((p) => ({
			warnings: [],
			errors: [],
			product_key: `key-${String(p.id)}`,
			id: p.id,
			status,
		})),
	});
}
