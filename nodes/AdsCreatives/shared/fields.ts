import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

/** zod pieces the creatives operations share (the creatives limits the service publishes). */

export const mediaKey = z.string().regex(/^\d+_\d+$/, 'a media key looks like 3_1234567890');
export const cardUri = z
	.string()
	.regex(/^card:\/\/\d+$/, 'a card URI looks like card://1234567890');
export const userId = z.string().regex(/^\d{1,19}$/, 'a user ID is 1-19 digits');
export const objectName = z.string().max(80, 'at most 80 characters');

/** Media kind from the media key's prefix: 3_ image, 16_ GIF, 7_ and 13_ video. */
export function mediaKindOf(key: string): 'image' | 'gif' | 'video' {
	const prefix = key.split('_')[0];
	if (prefix === '16') return 'gif';
	if (prefix === '7' || prefix === '13') return 'video';
	return 'image';
}

/** Media of one post: up to 4 images, or 1 GIF, or 1 video. */
export const postMediaKeys = z
	.array(mediaKey)
	.max(4, 'at most 4 images (or 1 GIF, or 1 video)')
	.superRefine((keys, ctx) => {
		if (keys.length > 1 && keys.some((k) => mediaKindOf(k) !== 'image')) {
			ctx.addIssue({
				code: 'custom',
				message:
					'a GIF or a video must be the only media of a post (up to 4 images, or 1 GIF, or 1 video)',
			});
		}
	});

/** n8n dateTime values as the ISO 8601 UTC form of ad objects (YYYY-MM-DDTHH:MM:SSZ). */
export function isoSeconds(value: unknown): string {
	const text = String(value ?? '');
	if (!text || Number.isNaN(Date.parse(text))) return text;
	return new Date(text).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A comma list of ids for a filter: trimmed, at most 200. */
export function idList(
	ctx: IExecuteFunctions,
	value: unknown,
	label: string,
	itemIndex: number,
): string | undefined {
	const ids = String(value ?? '')
		.split(',')
		.map((v) => v.trim())
		.filter(Boolean);
	if (!ids.length) return undefined;
	if (ids.length > 200) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Invalid input in item ${itemIndex + 1}: ${label}: at most 200 values (got ${ids.length})`,
			{ itemIndex },
		);
	}
	return ids.join(',');
}

/** Removes undefined and empty-string values (unset optional fields are not sent). */
export function compact(input: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(input))
		if (value !== undefined && value !== '') out[key] = value;
	return out;
}
