import type { IDataObject } from 'n8n-workflow';

import { ANY_KIND } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { partialErrors } from '../../fields';
import {
	MEDIA_KEY_BATCH,
	mediaFieldsProperty,
	mediaFieldsQuery,
	mediaKeysProperty,
	readMediaKeys,
} from './fields';

const OP = 'getMany';

/** Media → Get Many: images, GIFs and videos by their media keys (GET /2/media, 100 keys a request). */
export const getManyOperation: ItemOperation = {
	option: {
		name: 'Get Many',
		value: OP,
		description:
			'Look up many images, GIFs and videos by their media keys (more than 100 are split into requests of 100). Media that do not exist come back as items with an error field.',
		action: 'Get many media by media key',
	},
	properties: [
		mediaKeysProperty(
			'Media keys separated by commas, spaces or new lines. More than 100 are split into several requests.',
		),
		mediaFieldsProperty,
	],
	authentication: ANY_KIND,
	async execute(ctx: OperationContext, itemIndex: number) {
		const keys = readMediaKeys(ctx, itemIndex);
		const fields = mediaFieldsQuery(ctx, itemIndex);
		const out: IDataObject[] = [];
		for (let i = 0; i < keys.length; i += MEDIA_KEY_BATCH) {
			const body = await ctx.request({
				method: 'GET',
				path: '/2/media',
				qs: { media_keys: keys.slice(i, i + MEDIA_KEY_BATCH).join(','), ...fields },
			});
			const data = (Array.isArray(body?.data) ? body.data : []) as IDataObject[];
			out.push(...data, ...partialErrors(body ?? {}));
		}
		return out;
	},
};
