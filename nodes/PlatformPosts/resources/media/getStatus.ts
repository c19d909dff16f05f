import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { optionsCollection, postsRequest, requireUserContext } from '../../common';
import { mediaIdProperty } from './fields';

const OP = 'getStatus';
const show = showFor('media', OP);

/** Media → Get Status: the processing state of an uploaded video or GIF (GET /2/media/upload?command=STATUS). */
export const getStatusOperation: ItemOperation = {
	option: {
		name: 'Get Status',
		value: OP,
		description:
			'Get the processing state of an uploaded video or GIF (pending, in_progress, succeeded, failed). Images are ready when uploaded: the service refuses a status check for them.',
		action: 'Get the processing status of media',
	},
	properties: [
		mediaIdProperty(show, 'The ID returned by the upload'),
		optionsCollection('media', OP),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		requireUserContext(this, itemIndex, 'Checking media');
		const mediaId = String(this.getNodeParameter('mediaId', itemIndex, '') ?? '').trim();
		if (!/^\d{1,19}$/.test(mediaId)) {
			throw new NodeOperationError(this.getNode(), `Invalid input in item ${itemIndex + 1}: Media ID: "${mediaId}" is not a media ID (1-19 digits)`, { itemIndex });
		}
		const data = unwrapData<IDataObject>(
			await postsRequest.call(this, itemIndex, {
				method: 'GET',
				path: '/2/media/upload',
				qs: { command: 'STATUS', media_id: mediaId },
			}),
		);
		const info = (data?.processing_info ?? {}) as IDataObject;
		return { id: mediaId, ...(data ?? {}), processing_state: info.state ?? null };
	},
};
