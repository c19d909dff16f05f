import type { IBinaryData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { single } from '../../shared/ads';

import type { OperationContext } from '../../shared/router';
import { NodeOperationError } from 'n8n-workflow';

import type { MediaKind } from '../../shared/media';
import { checkMedia, uploadMedia } from '../../shared/media';
import { accountPath } from '../account';

/**
 * Media keys from binary input for the creatives operations: the file is uploaded with the ads
 * categories (videos as amplify_video, images and GIFs as for posts), waited for until processed,
 * then added to the ad account's media library, which is where cards and poll cards look media up.
 * Only processed uploads reach the library, so a failed upload leaves nothing there.
 */

/** A binary file waiting to be uploaded: read and checked, nothing sent yet. */
export interface PendingMedia {
	property: string;
	field: string;
	binary: IBinaryData;
	data: Buffer;
}

/** Reads a binary property and refuses a wrong type, size or duration before any request. */
export async function readMediaBinary(
	ctx: IExecuteFunctions,
	itemIndex: number,
	property: string,
	field: string,
	accept: MediaKind[],
): Promise<PendingMedia> {
	const name = property.trim();
	if (!name) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Invalid input in item ${itemIndex + 1}: ${field}: give the name of an input binary field`,
			{ itemIndex },
		);
	}
	const binary = ctx.helpers.assertBinaryData(itemIndex, name);
	const data = await ctx.helpers.getBinaryDataBuffer(itemIndex, name);
	checkMedia(ctx, itemIndex, data, binary, { purpose: 'ads', accept, field: `${field} "${name}"` });
	return { property: name, field, binary, data };
}

/** Uploads a checked binary, adds it to the media library and returns its media key and library object. */
export async function addToLibrary(
	ctx: OperationContext,
	itemIndex: number,
	pending: PendingMedia,
	libraryFields: IDataObject = {},
): Promise<{ media_key: string; id: string; library: IDataObject }> {
	const uploaded = await uploadMedia.call(ctx, itemIndex, pending.data, pending.binary, {
		purpose: 'ads',
		field: `${pending.field} "${pending.property}"`,
	});
	if (!uploaded.media_key) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The upload of ${pending.field} in item ${itemIndex + 1} returned no media key`,
			{
				itemIndex,
				description: `Media ID ${uploaded.id}.`,
			},
		);
	}
	const qs: IDataObject = { media_key: uploaded.media_key, ...libraryFields };
	if (qs.file_name === undefined && pending.binary.fileName)
		qs.file_name = pending.binary.fileName.slice(0, 255);
	const library = single(
		await ctx.request({
			method: 'POST',
			path: accountPath(ctx, itemIndex, '/media_library'),
			qs,
		}),
	);
	return {
		media_key: uploaded.media_key,
		id: uploaded.id,
		library: { ...(library ?? {}), media_id: uploaded.id },
	};
}

/** Checks, uploads and adds one binary property; returns the media key. */
export async function libraryKeyFromBinary(
	ctx: OperationContext,
	itemIndex: number,
	property: string,
	field: string,
	accept: MediaKind[],
): Promise<string> {
	const pending = await readMediaBinary(ctx, itemIndex, property, field, accept);
	return (await addToLibrary(ctx, itemIndex, pending)).media_key;
}

/** A "Media Source" selector: a media key of the library, or a binary property to upload. */
export function mediaSourceProperty(
	name: string,
	displayOptions?: INodeProperties['displayOptions'],
	extra: Array<{ name: string; value: string; description?: string }> = [],
): INodeProperties {
	return {
		displayName: 'Media Source',
		name,
		type: 'options',
		default: 'mediaKey',
		displayOptions,
		options: [
			...extra,
			{
				name: 'Media Key',
				value: 'mediaKey',
				description: "Media already in the account's media library",
			},
			{
				name: 'Binary File',
				value: 'binary',
				description:
					"A file of the input item: uploaded (videos as ad videos), added to the account's media library, and used",
			},
		],
	};
}
