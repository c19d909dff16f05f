import type { IBinaryData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { OperationContext, OperationRequest } from './router';
import { unwrapData } from './transport';

/**
 * The package's one media upload, used by Platform Posts (Post → Create, Direct Message → Send,
 * Media → Upload) and Ads Creatives (media library, cards). It always uses the chunked protocol
 * (initialize / append / finalize, then STATUS while the service processes): it answers with both
 * the id (what posts and direct messages take) and the media key (what the ads API takes) for every
 * category, and its JSON bodies go through the transport with every credential. Anything over one
 * segment (4 MB) is split into several appends. Files the service is known to refuse (type, size,
 * video duration) are refused before the first request. Media → Upload (Single Request) sends a small
 * image or a subtitle file in one request instead, with the same checks (checkMedia).
 */

/** Bytes per appended segment (the service takes at most 5 MB per segment). */
export const SEGMENT_BYTES = 4 * 1024 * 1024;
/** At most this many STATUS requests per upload. */
export const MAX_STATUS_POLLS = 60;
/** Longest single wait between STATUS requests, whatever the service names. */
const MAX_CHECK_AFTER_S = 60;
/** Default and upper bound of the user's "Max Processing Wait". */
export const DEFAULT_PROCESSING_WAIT_S = 10 * 60;
export const MAX_PROCESSING_WAIT_S = 60 * 60;

const MB = 1024 * 1024;

export type MediaKind = 'image' | 'gif' | 'video' | 'subtitles';

/** Where the media will be used; it picks the upload category. */
export type MediaPurpose = 'post' | 'dm' | 'ads' | 'subtitles';

/** Media types the service takes, per kind (anything else is refused before the upload). */
const TYPES: Record<Exclude<MediaKind, 'subtitles'>, string[]> = {
	image: ['image/jpeg', 'image/jpg', 'image/pjpeg', 'image/png', 'image/webp', 'image/bmp'],
	gif: ['image/gif'],
	video: ['video/mp4', 'video/quicktime'],
};

/**
 * Subtitle files by the media type n8n gives them: the service takes `text/srt` and `text/vtt` only
 * (n8n reads a .srt file as application/x-subrip). A plain-text or untyped file counts by its
 * extension, else by its first line ("WEBVTT" or an SRT cue).
 */
const SUBTITLE_TYPES: Record<string, 'text/srt' | 'text/vtt'> = {
	'text/srt': 'text/srt',
	'application/x-subrip': 'text/srt',
	'application/srt': 'text/srt',
	'text/vtt': 'text/vtt',
};
const SUBTITLE_EXTENSIONS: Record<string, 'text/srt' | 'text/vtt'> = {
	srt: 'text/srt',
	vtt: 'text/vtt',
};
/** Types that say nothing about the format: the extension or the content decides. */
const UNTYPED_TEXT = ['text/plain', 'application/octet-stream', ''];

/** Media types the service names differently: sent under its name. */
const WIRE_TYPES: Record<string, string> = { 'image/jpg': 'image/jpeg' };

const BY_EXTENSION: Record<string, string> = {
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	png: 'image/png',
	webp: 'image/webp',
	bmp: 'image/bmp',
	gif: 'image/gif',
	mp4: 'video/mp4',
	m4v: 'video/mp4',
	mov: 'video/quicktime',
	srt: 'application/x-subrip',
	vtt: 'text/vtt',
};

/** The service's size limit of each kind (bytes). Subtitle files have no published limit. */
export const SIZE_LIMITS: Partial<Record<MediaKind, number>> = {
	image: 5 * MB,
	gif: 15 * MB,
	video: 512 * MB,
};

/** Longest video per purpose (seconds): 140 s in posts and direct messages, 10 minutes as an ad video. */
export const DURATION_LIMITS: Partial<Record<MediaPurpose, number>> = {
	post: 140,
	dm: 140,
	ads: 600,
};

/** The media type of a binary: its own, or from the file extension when n8n only knows "octet-stream". */
export function mediaTypeOf(binary: Pick<IBinaryData, 'mimeType' | 'fileName'>): string {
	const own = String(binary.mimeType ?? '')
		.toLowerCase()
		.split(';')[0]
		.trim();
	if (own && own !== 'application/octet-stream') return own;
	const extension =
		String(binary.fileName ?? '')
			.toLowerCase()
			.split('.')
			.pop() ?? '';
	return BY_EXTENSION[extension] ?? (own || 'application/octet-stream');
}

/** The kind of a media type; undefined when the service takes no such media. */
export function mediaKind(
	mimeType: string | undefined,
	purpose: MediaPurpose = 'post',
): MediaKind | undefined {
	const type = String(mimeType ?? '').toLowerCase();
	if (purpose === 'subtitles') return SUBTITLE_TYPES[type] ? 'subtitles' : undefined;
	for (const kind of ['image', 'gif', 'video'] as const)
		if (TYPES[kind].includes(type)) return kind;
	return undefined;
}

/**
 * The service's media type of a subtitle file (text/srt or text/vtt), from its type, its extension
 * or, for plain text, its first line; undefined for anything else.
 */
export function subtitleMediaType(
	binary: Pick<IBinaryData, 'mimeType' | 'fileName'>,
	data: Buffer,
): 'text/srt' | 'text/vtt' | undefined {
	const own = String(binary.mimeType ?? '')
		.toLowerCase()
		.split(';')[0]
		.trim();
	if (SUBTITLE_TYPES[own]) return SUBTITLE_TYPES[own];
	if (!UNTYPED_TEXT.includes(own)) return undefined;
	const name = String(binary.fileName ?? '').toLowerCase();
	const extension = name.includes('.') ? name.split('.').pop()! : '';
	if (SUBTITLE_EXTENSIONS[extension]) return SUBTITLE_EXTENSIONS[extension];
	const head = data
		.subarray(0, 200)
		.toString('utf8')
		.replace(/^\uFEFF/, '');
	if (/^WEBVTT(?:[ \t].*)?(?:\r?\n|$)/.test(head)) return 'text/vtt';
	if (/^\d+\r?\n\d{2}:\d{2}:\d{2},\d{3} --> \d{2}:\d{2}:\d{2},\d{3}/.test(head)) return 'text/srt';
	return undefined;
}

export function mediaCategory(kind: MediaKind, purpose: MediaPurpose): string {
	if (kind === 'subtitles' || purpose === 'subtitles') return 'subtitles';
	if (purpose === 'ads') return kind === 'video' ? 'amplify_video' : `tweet_${kind}`;
	return `${purpose === 'dm' ? 'dm' : 'tweet'}_${kind}`;
}

/**
 * Duration in seconds of an MP4 / QuickTime file from its movie header (`moov` → `mvhd`);
 * undefined when the header cannot be found (the service then judges the file).
 */
export function videoDurationSeconds(data: Buffer): number | undefined {
	const boxes = (
		start: number,
		end: number,
		visit: (type: string, body: number, boxEnd: number) => number | undefined,
	) => {
		for (let offset = start; offset + 8 <= end; ) {
			let size = data.readUInt32BE(offset);
			const type = data.toString('latin1', offset + 4, offset + 8);
			let header = 8;
			if (size === 1) {
				if (offset + 16 > end) return undefined;
				size = Number(data.readBigUInt64BE(offset + 8));
				header = 16;
			} else if (size === 0) size = end - offset;
			if (size < header || offset + size > end) return undefined;
			const found = visit(type, offset + header, offset + size);
			if (found !== undefined) return found;
			offset += size;
		}
		return undefined;
	};
	try {
		return boxes(0, data.length, (type, body, end) =>
			type !== 'moov'
				? undefined
				: boxes(body, end, (child, at) => {
						if (child !== 'mvhd') return undefined;
						const version = data.readUInt8(at);
						const scale = data.readUInt32BE(at + (version === 1 ? 20 : 12));
						const duration =
							version === 1 ? Number(data.readBigUInt64BE(at + 24)) : data.readUInt32BE(at + 16);
						return scale > 0 ? duration / scale : undefined;
					}),
		);
	} catch {
		return undefined;
	}
}

/** What an upload produced; the ads nodes use `media_key`, posts and direct messages `id`. */
export interface UploadedMedia extends IDataObject {
	id: string;
	media_key: string;
	type: MediaKind;
	media_type: string;
	media_category: string;
	file_name: string | null;
	size: number;
	processing_state: string;
}

export interface UploadOptions {
	purpose: MediaPurpose;
	/** Longest wait for processing, seconds; default: the operation's "Max Processing Wait" option. */
	maxProcessingWait?: number;
	/** Kinds the field takes (e.g. a video for a video card); anything else is refused before the upload. */
	accept?: MediaKind[];
	/** The field the binary came from, for messages. */
	field?: string;
}

function describe(
	binary: Pick<IBinaryData, 'fileName'>,
	itemIndex: number,
	field?: string,
): string {
	const name = binary.fileName ? `"${binary.fileName}"` : 'the binary file';
	return `${name}${field ? ` (${field})` : ''} in item ${itemIndex + 1}`;
}

const megabytes = (bytes: number) => `${Math.round(bytes / MB)} MB`;

/** The checks that need no request: type, kind for the field, size, video duration. */
export function checkMedia(
	ctx: IExecuteFunctions,
	itemIndex: number,
	data: Buffer,
	binary: Pick<IBinaryData, 'mimeType' | 'fileName'>,
	options: UploadOptions,
): { kind: MediaKind; mediaType: string; category: string } {
	const refuse = (message: string, description?: string) =>
		new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
	const what = describe(binary, itemIndex, options.field);
	if (options.purpose === 'subtitles') {
		const subtitles = subtitleMediaType(binary, data);
		if (!subtitles) {
			throw refuse(
				`${what} is of type ${mediaTypeOf(binary)}, which cannot be uploaded as subtitles`,
				'The service takes SRT (.srt) and WebVTT (.vtt) subtitle files.',
			);
		}
		if (!data.length) throw refuse(`${what} is empty`);
		return {
			kind: 'subtitles',
			mediaType: subtitles,
			category: mediaCategory('subtitles', options.purpose),
		};
	}
	const given = mediaTypeOf(binary);
	const mediaType = WIRE_TYPES[given] ?? given;
	const kind = mediaKind(mediaType, options.purpose);
	if (!kind) {
		throw refuse(
			`${what} is of type ${given}, which cannot be uploaded as media`,
			'The service takes JPEG, PNG, WebP or BMP images, GIFs, MP4 or MOV videos.',
		);
	}
	if (options.accept && !options.accept.includes(kind)) {
		throw refuse(
			`${what} is ${kind === 'image' ? 'an image' : `a ${kind}`}; this field takes ${options.accept.join(' or ')}`,
		);
	}
	if (!data.length) throw refuse(`${what} is empty`);
	const limit = SIZE_LIMITS[kind];
	if (limit !== undefined && data.length > limit) {
		throw refuse(
			`${what} is larger than ${megabytes(limit)}, the limit for ${kind === 'gif' ? 'GIFs' : `${kind}s`} (${data.length.toLocaleString('en-US')} bytes)`,
		);
	}
	if (kind === 'video') {
		const seconds = videoDurationSeconds(data);
		const max = DURATION_LIMITS[options.purpose];
		if (seconds !== undefined && max !== undefined && seconds > max) {
			throw refuse(
				`${what} is ${Math.round(seconds)} seconds long; videos ${options.purpose === 'ads' ? 'for ads' : options.purpose === 'dm' ? 'in direct messages' : 'in posts'} can be at most ${max} seconds`,
			);
		}
	}
	return { kind, mediaType, category: mediaCategory(kind, options.purpose) };
}

/** Uploads go to the platform API, also from the ads nodes. */
async function mediaRequest(ctx: OperationContext, request: OperationRequest) {
	return await ctx.request({ ...request, api: 'platform' });
}

/** The processing wait the user allows: the option when given, within 0 and one hour. */
function processingBudget(ctx: OperationContext, given?: number): number {
	const raw = given ?? ctx.options.maxProcessingWait;
	const value = raw === undefined || raw === '' ? DEFAULT_PROCESSING_WAIT_S : Number(raw);
	if (!Number.isFinite(value) || value < 0) return DEFAULT_PROCESSING_WAIT_S;
	return Math.min(value, MAX_PROCESSING_WAIT_S);
}

/**
 * Uploads the bytes and returns the id and media key once the service has processed them. Every
 * request of an upload acts on the upload's own id, so none of them can create a second copy.
 */
export async function uploadMedia(
	this: OperationContext,
	itemIndex: number,
	data: Buffer,
	binary: Pick<IBinaryData, 'mimeType' | 'fileName'>,
	options: UploadOptions,
): Promise<UploadedMedia> {
	const { kind, mediaType, category } = checkMedia(this, itemIndex, data, binary, options);
	const what = describe(binary, itemIndex, options.field);
	const budget = processingBudget(this, options.maxProcessingWait);
	const init = unwrapData<IDataObject>(
		await mediaRequest(this, {
			method: 'POST',
			path: '/2/media/upload/initialize',
			body: { media_type: mediaType, total_bytes: data.length, media_category: category },
		}),
	);
	if (!init?.id) {
		throw new NodeOperationError(
			this.getNode(),
			`The media upload of ${what} did not return a media ID`,
			{ itemIndex },
		);
	}
	const id = String(init.id);
	const idPath = encodeURIComponent(id);
	let mediaKey = init.media_key ? String(init.media_key) : '';
	for (let offset = 0, segment = 0; offset < data.length; offset += SEGMENT_BYTES, segment++) {
		await mediaRequest(this, {
			method: 'POST',
			path: `/2/media/upload/${idPath}/append`,
			body: {
				media: data.subarray(offset, offset + SEGMENT_BYTES).toString('base64'),
				segment_index: segment,
			},
		});
	}
	const finalized = unwrapData<IDataObject>(
		await mediaRequest(this, {
			method: 'POST',
			path: `/2/media/upload/${idPath}/finalize`,
		}),
	);
	if (finalized?.media_key) mediaKey = String(finalized.media_key);
	const result = (state: string): UploadedMedia => ({
		id,
		media_key: mediaKey,
		type: kind,
		media_type: mediaType,
		media_category: category,
		file_name: binary.fileName ?? null,
		size: data.length,
		processing_state: state,
	});
	let info = finalized?.processing_info as IDataObject | undefined;
	let waited = 0;
	for (let poll = 0; info; poll++) {
		const state = String(info.state ?? '');
		if (state === 'succeeded') return result(state);
		if (state === 'failed') {
			const error = (info.error ?? {}) as IDataObject;
			const reason =
				[error.name, error.message].filter(Boolean).map(String).join(': ') || 'no reason given';
			throw new NodeOperationError(
				this.getNode(),
				`The service could not process the media ${what}: ${reason}`,
				{
					itemIndex,
					description: `Media ID ${id}. Check the file's format, size and duration against the service's media rules.`,
				},
			);
		}
		const named = Number(info.check_after_secs);
		const wait = Math.min(Number.isFinite(named) && named >= 0 ? named : 1, MAX_CHECK_AFTER_S);
		if (poll >= MAX_STATUS_POLLS || waited + wait > budget) {
			throw new NodeOperationError(
				this.getNode(),
				`The media ${what} was still processing after ${waited} seconds (${poll} checks)`,
				{
					itemIndex,
					description: `Media ID ${id} may still become ready: check it with Platform Posts → Media → Get Status and use it then, instead of uploading again. The wait is set by the Max Processing Wait option.`,
				},
			);
		}
		if (wait > 0) await sleep(wait * 1000);
		waited += wait;
		const status = unwrapData<IDataObject>(
			await mediaRequest(this, {
				method: 'GET',
				path: '/2/media/upload',
				qs: { command: 'STATUS', media_id: id },
			}),
		);
		if (status?.media_key && !mediaKey) mediaKey = String(status.media_key);
		info = status?.processing_info as IDataObject | undefined;
	}
	return result('succeeded');
}

/** Uploads the binary property of an item (read through n8n's binary helpers). */
export async function uploadBinaryProperty(
	this: OperationContext,
	itemIndex: number,
	property: string,
	options: UploadOptions,
): Promise<UploadedMedia> {
	const binary = this.helpers.assertBinaryData(itemIndex, property);
	const data = await this.helpers.getBinaryDataBuffer(itemIndex, property);
	return await uploadMedia.call(this, itemIndex, data, binary, { field: property, ...options });
}

/** The "Max Processing Wait" option of operations that upload media. */
export const maxProcessingWaitOption: INodeProperties = {
	displayName: 'Max Processing Wait (Seconds)',
	name: 'maxProcessingWait',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: MAX_PROCESSING_WAIT_S },
	default: DEFAULT_PROCESSING_WAIT_S,
	description:
		'How long to wait for the service to process an uploaded video or GIF (it names the interval between checks). When the time is up the node fails and names the media ID, which may still become ready. At most 3,600.',
};

export const MAX_ALT_TEXT = 1000;

/**
 * Sets the alt text of uploaded media (images and GIFs) with POST /2/media/metadata: Media > Set
 * Alt Text, and Post > Create and Media > Upload for each image they attach.
 */
export async function setAltText(
	this: OperationContext,
	itemIndex: number,
	mediaId: string,
	altText: string,
): Promise<IDataObject> {
	const invalid = (message: string) =>
		new NodeOperationError(this.getNode(), `Invalid input in item ${itemIndex + 1}: ${message}`, {
			itemIndex,
		});
	if (!/^\d{1,19}$/.test(mediaId))
		throw invalid(`Media ID: "${mediaId}" is not a media ID (1-19 digits)`);
	if (!altText.trim()) throw invalid('Alt Text is empty');
	if (altText.length > MAX_ALT_TEXT)
		throw invalid(`Alt Text: at most ${MAX_ALT_TEXT} characters (got ${altText.length})`);
	const response = await mediaRequest(this, {
		method: 'POST',
		path: '/2/media/metadata',
		body: { id: mediaId, metadata: { alt_text: { text: altText } } },
		// Setting the same alt text twice has the same effect: safe to retry.
		retryTransient: true,
	});
	const data = unwrapData<IDataObject>(response);
	return {
		media_id: mediaId,
		alt_text: altText,
		...(data && typeof data === 'object' ? data : {}),
	};
}
