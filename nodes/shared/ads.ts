import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { locatorValue } from './locators';
import { unwrapData } from './transport';

/** What both ads nodes share: the API version of their paths, id readers and answer shapes. */

/** The advertising API version every ads path starts with. */
export const ADS_API_VERSION = '/12';

/**
 * The id in a parameter (a resource locator or a plain string), trimmed; refused, naming the field
 * and the item, when it does not match the id's pattern.
 */
export function adsIdParameter(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	pattern: RegExp,
	itemIndex: number,
): string {
	return locatorValue(
		ctx.getNode(),
		ctx.getNodeParameter(name, itemIndex, ''),
		label,
		itemIndex,
		(v) => (pattern.test(v.trim()) ? v.trim() : undefined),
	);
}

/** `data` of an ads envelope; endpoints that answer with an array holding one object give that object. */
export function single(body: unknown): IDataObject {
	const data = unwrapData<IDataObject | IDataObject[]>(body);
	return (Array.isArray(data) ? data[0] : data) as IDataObject;
}
