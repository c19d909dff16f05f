import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { platformRequest, unwrapData } from '../shared/transport';

/** Chunked media upload (v2): initialize, append (JSON with base64 segments), finalize, STATUS polling. */
export const SEGMENT_BYTES = 4 * 1024 * 1024;
const MAX_STATUS_POLLS = 60;
const MAX_WAIT_SECONDS = 60;

export function mediaCategory(mimeType: string): string {
	if (mimeType === 'image/gif') return 'tweet_gif';
	if (mimeType.startsWith('video/')) return 'tweet_video';
	return 'tweet_image';
}

export async function uploadMedia(
	this: IExecuteFunctions,
	itemIndex: number,
	data: Buffer,
	mimeType: string,
): Promise<string> {
	const category = mediaCategory(mimeType);
	if (category === 'tweet_image' && data.length > 5 * 1024 * 1024) {
		throw new NodeOperationError(this.getNode(), `The image in item ${itemIndex + 1} is larger than 5 MB`, { itemIndex });
	}
	const init = unwrapData<IDataObject>(
		await platformRequest.call(this, {
			method: 'POST',
			path: '/2/media/upload/initialize',
			body: { media_type: mimeType, total_bytes: data.length, media_category: category },
			itemIndex,
		}),
	);
	const id = String(init.id);
	for (let offset = 0, segment = 0; offset < data.length; offset += SEGMENT_BYTES, segment++) {
		await platformRequest.call(this, {
			method: 'POST',
			path: `/2/media/upload/${encodeURIComponent(id)}/append`,
			body: { media: data.subarray(offset, offset + SEGMENT_BYTES).toString('base64'), segment_index: segment },
			itemIndex,
		});
	}
	let info = unwrapData<IDataObject>(
		await platformRequest.call(this, { method: 'POST', path: `/2/media/upload/${encodeURIComponent(id)}/finalize`, itemIndex }),
	)?.processing_info as IDataObject | undefined;
	for (let poll = 0; info && poll < MAX_STATUS_POLLS; poll++) {
		const state = String(info.state ?? '');
		if (state === 'succeeded') return id;
		if (state === 'failed') {
			const error = (info.error as IDataObject | undefined)?.message ?? 'no reason given';
			throw new NodeOperationError(this.getNode(), `The service could not process the media: ${String(error)}`, { itemIndex });
		}
		const wait = Math.min(Math.max(Number(info.check_after_secs ?? 1), 0), MAX_WAIT_SECONDS);
		await sleep(wait * 1000);
		info = unwrapData<IDataObject>(
			await platformRequest.call(this, {
				method: 'GET',
				path: '/2/media/upload',
				qs: { command: 'STATUS', media_id: id },
				itemIndex,
			}),
		)?.processing_info as IDataObject | undefined;
	}
	if (info) {
		throw new NodeOperationError(this.getNode(), 'The media was still processing after the longest wait allowed', { itemIndex });
	}
	return id;
}
