import type { IDataObject } from 'n8n-workflow';

/**
 * The media attached to a delivered post, from the delivery's `includes.media` (matched by the
 * post's `attachments.media_keys`): key, type and a URL to download it (`url` for images,
 * `preview_image_url` for videos and GIFs). Undefined when the post carries none, so that events
 * without media keep their shape.
 */
export function attachedMedia(
	payload: unknown,
	includes: unknown,
): { media: IDataObject[]; media_url: string | null } | undefined {
	const keys = ((payload as IDataObject | null)?.attachments as IDataObject | undefined)
		?.media_keys;
	const included = (includes as IDataObject | null)?.media;
	if (!Array.isArray(keys) || !keys.length || !Array.isArray(included)) return undefined;
	const media = keys
		.map((key) =>
			(included as IDataObject[]).find((m) => m && typeof m === 'object' && m.media_key === key),
		)
		.filter((m): m is IDataObject => !!m)
		.map((m) => {
			const url =
				typeof m.url === 'string'
					? m.url
					: typeof m.preview_image_url === 'string'
						? m.preview_image_url
						: null;
			return {
				media_key: String(m.media_key),
				type: m.type ?? null,
				url,
				...(m.alt_text ? { alt_text: m.alt_text } : {}),
			};
		});
	if (!media.length) return undefined;
	return { media, media_url: (media.find((m) => m.url)?.url as string | undefined) ?? null };
}
