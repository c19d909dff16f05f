import type { IBinaryData, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { unwrapData } from '../shared/transport';
import { postsRequest } from './common';

/**
 * Chunked media upload (v2, conventions.md): initialize (JSON), append (JSON with a base64 `media`
 * segment and its `segment_index`), finalize, then for video and GIF poll STATUS with the interval
 * the service names (`check_after_secs`) until `succeeded` or `failed`, within fixed bounds.
 */

/** Bytes per appended segment (the service takes at most 5 MB per segment). */
export const SEGMENT_BYTES = 4 * 1024 * 1024;
const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** At most this many STATUS requests per upload. */
export const MAX_STATUS_POLLS = 60;
/** Longest single wait between STATUS requests, whatever the service names. */
const MAX_CHECK_AFTER_S = 60;
/** Longest total wait for processing. */
export const MAX_PROCESSING_WAIT_S = 10 * 60;

export type MediaKind = 'image' | 'gif' | 'video';

export function mediaKind(mimeType: string | undefined): MediaKind {
	const type = String(mimeType ?? '').toLowerCase();
	if (type === 'image/gif') return 'gif';
	if (type.startsWith('video/')) return 'video';
	return 'image';
}

/** Where the media will be used: a post (tweet_*) or a direct message (dm_*). */
export type MediaPurpose = 'tweet' | 'dm';

export function mediaCategory(mimeType: string, purpose: MediaPurpose = 'tweet'): string {
	return `${purpose}_${mediaKind(mimeType)}`;
}

/** Uploads the bytes and returns the media id once the service can attach it to a post. */
export async function uploadMedia(
	this: IExecuteFunctions,
	itemIndex: number,
	data: Buffer,
	binary: Pick<IBinaryData, 'mimeType' | 'fileName'>,
	purpose: MediaPurpose = 'tweet',
): Promise<string> {
	const mimeType = binary.mimeType || 'application/octet-stream';
	const name = binary.fileName ? `"${binary.fileName}"` : 'the binary file';
	const category = mediaCategory(mimeType, purpose);
	if (!data.length) {
		throw new NodeOperationError(this.getNode(), `${name} in item ${itemIndex + 1} is empty`, { itemIndex });
	}
	if (mediaKind(mimeType) === 'image' && data.length > IMAGE_MAX_BYTES) {
		throw new NodeOperationError(this.getNode(), `The image ${name} in item ${itemIndex + 1} is larger than 5 MB`, {
			itemIndex,
		});
	}
	const init = unwrapData<IDataObject>(
		await postsRequest.call(this, itemIndex, {
			method: 'POST',
			path: '/2/media/upload/initialize',
			body: { media_type: mimeType, total_bytes: data.length, media_category: category },
		}),
	);
	if (!init?.id) {
		throw new NodeOperationError(this.getNode(), 'The media upload did not return a media ID', { itemIndex });
	}
	const id = String(init.id);
	const idPath = encodeURIComponent(id);
	for (let offset = 0, segment = 0; offset < data.length; offset += SEGMENT_BYTES, segment++) {
		await postsRequest.call(this, itemIndex, {
			method: 'POST',
			path: `/2/media/upload/${idPath}/append`,
			body: { media: data.subarray(offset, offset + SEGMENT_BYTES).toString('base64'), segment_index: segment },
		});
	}
	const finalized = unwrapData<IDataObject>(
		await postsRequest.call(this, itemIndex, { method: 'POST', path: `/2/media/upload/${idPath}/finalize` }),
	);
	let info = finalized?.processing_info as IDataObject | undefined;
	let waited = 0;
	for (let poll = 0; info; poll++) {
		const state = String(info.state ?? '');
		if (state === 'succeeded') return id;
		if (state === 'failed') {
			const error = (info.error ?? {}) as IDataObject;
			const reason = [error.name, error.message].filter(Boolean).map(String).join(': ') || 'no reason given';
			throw new NodeOperationError(this.getNode(), `The service could not process the media ${name}: ${reason}`, {
				itemIndex,
				description: `Media ID ${id}. Check the file's format, size and duration against the service's media rules.`,
			});
		}
		const named = Number(info.check_after_secs);
		const wait = Math.min(Number.isFinite(named) && named >= 0 ? named : 1, MAX_CHECK_AFTER_S);
		if (poll >= MAX_STATUS_POLLS || waited + wait > MAX_PROCESSING_WAIT_S) {
			throw new NodeOperationError(
				this.getNode(),
				`The media ${name} was still processing after ${waited} seconds (${poll} checks)`,
				{
					itemIndex,
					description: `Media ID ${id} may still become ready: attach it later through "Media IDs" instead of uploading again.`,
				},
			);
		}
		if (wait > 0) await sleep(wait * 1000);
		waited += wait;
		info = unwrapData<IDataObject>(
			await postsRequest.call(this, itemIndex, {
				method: 'GET',
				path: '/2/media/upload',
				qs: { command: 'STATUS', media_id: id },
			}),
		)?.processing_info as IDataObject | undefined;
	}
	return id;
}
