import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { OperationContext } from '../../../shared/router';
import { NodeOperationError } from 'n8n-workflow';

import type { MediaKind } from '../../../shared/media';
import type { PendingMedia } from '../../shared/media';
import { addToLibrary, readMediaBinary } from '../../shared/media';

/**
 * The video and the poster of a video conversation card from input binary fields. Stand-ins (never
 * sent) let the card be validated first; then every file is checked, uploaded, added to the media
 * library, and the card gets the video's media key and the poster's media ID (the poster is a long).
 */

const FIELDS: Array<{
	field: 'media_key' | 'poster_media_key';
	option: string;
	label: string;
	accept: MediaKind[];
	stand_in: string;
}> = [
	{
		field: 'media_key',
		option: 'videoBinaryPropertyName',
		label: 'Video Input Binary Field',
		accept: ['video'],
		stand_in: '0_1',
	},
	{
		field: 'poster_media_key',
		option: 'posterBinaryPropertyName',
		label: 'Poster Input Binary Field',
		accept: ['image'],
		stand_in: '1',
	},
];

export function binaryFieldProperty(
	option: 'videoBinaryPropertyName' | 'posterBinaryPropertyName',
	extra: Partial<INodeProperties> = {},
): INodeProperties {
	const video: INodeProperties = {
		displayName: 'Video Input Binary Field',
		name: 'videoBinaryPropertyName',
		type: 'string',
		default: 'data',
		description:
			"The input binary field holding the 16:9 video: uploaded as an ad video, added to the account's media library, and used as the card's video",
	};
	const poster: INodeProperties = {
		displayName: 'Poster Input Binary Field',
		name: 'posterBinaryPropertyName',
		type: 'string',
		default: '',
		description:
			"Instead of Poster Media Key: the input binary field holding the poster image, uploaded and added to the account's media library",
	};
	return {
		...(option === 'videoBinaryPropertyName' ? video : poster),
		...extra,
	} as INodeProperties;
}

export interface CardBinaries {
	pending: Array<{ field: string; property: string }>;
}

/** Takes the binary field options out of the input and puts stand-ins in their place. */
export function takeBinaryFields(
	ctx: OperationContext,
	itemIndex: number,
	input: IDataObject,
): CardBinaries {
	const pending: CardBinaries['pending'] = [];
	for (const f of FIELDS) {
		const property = String(input[f.option] ?? '').trim();
		delete input[f.option];
		if (!property) continue;
		if (input[f.field] !== undefined && input[f.field] !== '') {
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: ${f.label}: give it or the media key, not both`,
				{ itemIndex },
			);
		}
		input[f.field] = f.stand_in;
		pending.push({ field: f.field, property });
	}
	return { pending };
}

/** Checks all files, then uploads each and writes its key into the validated card. */
export async function uploadCardBinaries(
	ctx: OperationContext,
	itemIndex: number,
	card: IDataObject,
	binaries: CardBinaries,
): Promise<IDataObject[]> {
	const files: Array<{ field: string; file: PendingMedia }> = [];
	for (const { field, property } of binaries.pending) {
		const spec = FIELDS.find((f) => f.field === field)!;
		files.push({
			field,
			file: await readMediaBinary(ctx, itemIndex, property, spec.label, spec.accept),
		});
	}
	const uploaded: IDataObject[] = [];
	for (const { field, file } of files) {
		const added = await addToLibrary(ctx, itemIndex, file);
		card[field] = field === 'poster_media_key' ? added.id : added.media_key;
		uploaded.push({ field, media_key: added.media_key, media_id: added.id });
	}
	return uploaded;
}
