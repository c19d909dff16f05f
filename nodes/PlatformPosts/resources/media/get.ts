import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ANY_KIND } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { partialErrors } from '../../fields';
import { MEDIA_KEY_REGEX, mediaFieldsProperty, mediaFieldsQuery } from './fields';

const OP = 'get';

/** Media → Get: one image, GIF or video by its media key (GET /2/media/:media_key). */
export const getOperation: ItemOperation = {
	option: {
		name: 'Get',
		value: OP,
		description:
			'Get an image, GIF or video by its media key (as posts list it in attachments.media_keys, or as Upload returns it)',
		action: 'Get media by media key',
	},
	properties: [
		{
			displayName: 'Media Key',
			name: 'mediaKey',
			type: 'string',
			default: '',
			required: true,
			placeholder: '3_1455952740635586573',
			description: 'The media key: the media type number, an underscore and the media ID',
		},
		mediaFieldsProperty,
	],
	authentication: ANY_KIND,
	async execute(ctx: OperationContext, itemIndex: number) {
		const key = String(ctx.getNodeParameter('mediaKey', itemIndex, '') ?? '').trim();
		if (!MEDIA_KEY_REGEX.test(key)) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Media Key: "${key}" is not a media key (digits, an underscore, digits, e.g. 3_1455952740635586573)`,
				{ itemIndex },
			);
		}
		const body = await ctx.request({
			method: 'GET',
			path: `/2/media/${key}`,
			qs: mediaFieldsQuery(ctx, itemIndex),
		});
		const data = body?.data as IDataObject | undefined;
		if (data && typeof data === 'object') return data;
		// The service answers a lookup of missing media with 200 and an error entry instead of data.
		const [missing] = partialErrors(body ?? {});
		throw new NodeOperationError(
			ctx.getNode(),
			`The service returned no media for media key ${key}${missing ? `: ${missing.error}` : ''}`,
			{ itemIndex },
		);
	},
};
