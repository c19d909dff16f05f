import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { mediaIdProperty } from './fields';

const OP = 'getStatus';

/** Media → Get Status: the processing state of an uploaded video or GIF (GET /2/media/upload?command=STATUS). */
export const getStatusOperation: ItemOperation = {
	option: {
		name: 'Get Status',
		value: OP,
		description:
			'Get the processing state of an uploaded video or GIF (pending, in_progress, succeeded, failed). Images are ready when uploaded: the service refuses a status check for them.',
		action: 'Get the processing status of media',
	},
	properties: [mediaIdProperty('The ID returned by the upload')],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const mediaId = String(ctx.getNodeParameter('mediaId', itemIndex, '') ?? '').trim();
		if (!/^\d{1,19}$/.test(mediaId)) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Media ID: "${mediaId}" is not a media ID (1-19 digits)`,
				{ itemIndex },
			);
		}
		const data = unwrapData<IDataObject>(
			await ctx.request({
				method: 'GET',
				path: '/2/media/upload',
				qs: { command: 'STATUS', media_id: mediaId },
			}),
		);
		const info = (data?.processing_info ?? {}) as IDataObject;
		return { id: mediaId, ...(data ?? {}), processing_state: info.state ?? null };
	},
};
