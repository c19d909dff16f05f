import type { IBinaryData, IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import { USER_CONTEXT } from '../../../shared/authentication';
import { errorInfo, withErrorInfo } from '../../../shared/errors';
import { splitList } from '../../../shared/lists';
import { postIdFrom } from '../../../shared/locators';
import { maxProcessingWaitOption, mediaKind, mediaTypeOf } from '../../../shared/media';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { validateInput } from '../../../shared/validation';
import type { CheckedFile } from './compose/send';
import {
	attachmentFields,
	checkAttachments,
	composeSchema,
	sendPost,
	uploadAttachments,
} from './compose';

/**
 * Post › Create Thread: several posts, each a reply (`reply.in_reply_to_tweet_id`) to the one before,
 * sent one by one with POST /2/tweets and never retried (a create is not idempotent). The first part
 * that fails stops the thread; what was posted, what failed and what was not attempted goes on the
 * item (Continue On Fail) or into the error's description, with the ID to continue after. A run with
 * Continue After Post ID reads that post and the posts it replies to (GET /2/tweets/:id, same
 * author) to count the parts already posted, and posts only the rest.
 */

/** A guard of the node, not a limit of the service: a runaway list must not post hundreds of posts. */
export const MAX_THREAD_PARTS = 25;

/** A line that is only `---` (three or more dashes) separates parts. */
const SEPARATOR_LINE = /^[ \t]*-{3,}[ \t]*$/m;

/**
 * One text split into parts: at lines of `---` when the text has one (a part may then hold blank
 * lines, as paragraphs), otherwise at blank lines. Parts are trimmed; empty ones are dropped.
 */
export function splitThreadText(text: string): string[] {
	const normalized = text.replace(/\r\n?/g, '\n');
	const pieces = SEPARATOR_LINE.test(normalized)
		? normalized.split(/^[ \t]*-{3,}[ \t]*$/m)
		: normalized.split(/\n[ \t]*\n/);
	return pieces.map((p) => p.trim()).filter(Boolean);
}

const RAW_PART = z.union([z.string(), z.object({ text: z.string() }).passthrough()], {
	errorMap: () => ({ message: 'must be a text, or an object with a "text" field' }),
});

const ID = z.string().regex(/^\d{1,19}$/, 'a media ID is 1-19 digits');

const threadSchema = z
	.object({
		parts: z
			.array(
				z.object({
					text: z.string(),
					binaryProperties: z.array(z.string()),
					binaryKinds: z.array(z.enum(['image', 'gif', 'video', 'subtitles'])),
					mediaIds: z.array(z.string()).optional(),
				}),
			)
			.min(1, 'no parts: give at least one text')
			.max(MAX_THREAD_PARTS, `at most ${MAX_THREAD_PARTS} parts in one thread`),
		partMedia: z.array(
			z.object({
				part: z
					.number({ invalid_type_error: 'must be a number' })
					.int('must be a whole number')
					.min(1, 'parts are numbered from 1'),
				binaryProperties: z.array(z.string()),
				mediaIds: z.array(ID),
			}),
		),
		altTexts: z.array(z.object({ property: z.string(), text: z.string() })),
		continueAfter: z.string().optional(),
	})
	.superRefine((v, ctx) => {
		v.partMedia.forEach((m, i) => {
			if (m.part > v.parts.length)
				ctx.addIssue({
					code: 'custom',
					path: ['partMedia', i, 'part'],
					message: `there is no part ${m.part} (the thread has ${v.parts.length})`,
				});
		});
		v.altTexts.forEach((alt, i) => {
			if (!v.parts.some((part) => part.binaryProperties.includes(alt.property)))
				ctx.addIssue({
					code: 'custom',
					path: ['altTexts', i],
					message: `"${alt.property}" is not a binary property of any part (Part Media)`,
				});
		});
		const seenProperty = new Map<string, number>();
		const seenText = new Map<string, number>();
		v.parts.forEach((part, i) => {
			for (const property of part.binaryProperties) {
				const other = seenProperty.get(property);
				if (other !== undefined && other !== i)
					ctx.addIssue({
						code: 'custom',
						path: ['parts', i, 'media'],
						message: `binary property "${property}" is attached to part ${other + 1} already`,
					});
				seenProperty.set(property, i);
			}
			// The same rules as one post of Create (text length, media count and kinds, alt text).
			const one = composeSchema.safeParse({
				text: part.text,
				mediaIds: part.mediaIds,
				binaryKinds: part.binaryKinds,
				binaryProperties: part.binaryProperties,
				altTexts: v.altTexts.filter((a) => part.binaryProperties.includes(a.property)),
			});
			if (!one.success)
				for (const issue of one.error.issues)
					ctx.addIssue({ ...issue, path: ['parts', i, ...issue.path] } as z.IssueData);
			// The service refuses a post whose text the account has posted already.
			const text = part.text.trim();
			if (text) {
				const first = seenText.get(text);
				if (first !== undefined)
					ctx.addIssue({
						code: 'custom',
						path: ['parts', i, 'text'],
						message: `the same text as part ${first + 1}: the service refuses duplicate text`,
					});
				else seenText.set(text, i);
			}
		});
		if (v.continueAfter !== undefined && !postIdFrom(v.continueAfter))
			ctx.addIssue({
				code: 'custom',
				path: ['continueAfter'],
				message: 'give the ID or the URL of the last part that was posted',
			});
	});

const LABELS: Record<string, string> = {
	parts: 'Parts',
	'parts.text': 'Part',
	'parts.media': 'Part',
	'parts.mediaIds': 'Part',
	'parts.binaryKinds': 'Part',
	'parts.attachments': 'Part',
	'parts.altTexts': 'Part',
	partMedia: 'Part Media',
	'partMedia.part': 'Part Media',
	'partMedia.mediaIds': 'Part Media',
	altTexts: 'Alt Text',
	continueAfter: 'Continue After Post ID',
};

const partMediaField: INodeProperties = {
	displayName: 'Part Media',
	name: 'partMedia',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	placeholder: 'Add Media to a Part',
	description:
		'Media of one part: 1 to 4 images, or 1 GIF, or 1 video per part, from binary properties of the input item or media uploaded before',
	options: [
		{
			displayName: 'Media',
			name: 'media',
			values: [
				{
					displayName: 'Part',
					name: 'part',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: 1,
					description: 'The number of the part (the first part is 1)',
				},
				{
					displayName: 'Binary Properties',
					name: 'binaryProperties',
					type: 'string',
					default: '',
					placeholder: 'data, image2',
					description: "Comma-separated names of the input item's binary properties to attach",
				},
				{
					displayName: 'Media IDs',
					name: 'mediaIds',
					type: 'string',
					default: '',
					placeholder: '1455952740635586573',
					description: 'Comma-separated IDs of media uploaded before',
				},
			],
		},
	],
};

const altTextField = attachmentFields().find((f) => f.name === 'altTexts') as INodeProperties;

const continueAfterOption: INodeProperties = {
	displayName: 'Continue After Post ID',
	name: 'continueAfterPostId',
	type: 'string',
	default: '',
	placeholder: '1346889436626259968',
	description:
		'To finish a thread that stopped: the ID (or URL) of its last posted part, as a failed run names it. The node reads that post and the posts it replies to (your own, one lookup each) to count the parts already posted, and posts only the parts after them, the first as a reply to this post. Give the same parts as before.',
};

export const createThread: ItemOperation = {
	option: {
		name: 'Create Thread',
		value: 'createThread',
		description:
			'Publish a thread: several posts, each a reply to the one before, with media per part if you like. Each part is charged as a post: 0.015, or 0.20 when it contains a URL. On self-serve tiers the service takes a programmatic reply only when the author of the post replied to summoned the account (mentioned it or quoted its post); its documentation does not say whether replies to your own posts, as in a thread, count.',
		action: 'Create a thread',
	},
	properties: [
		{
			displayName: 'Parts From',
			name: 'partsFrom',
			type: 'options',
			default: 'text',
			options: [
				{
					name: 'One Text',
					value: 'text',
					description:
						'One text split into parts: at lines of --- when it has one, otherwise at blank lines',
				},
				{
					name: 'List',
					value: 'list',
					description:
						'A list of texts, or of objects with a "text" field, e.g. an AI agent\'s structured output',
				},
			],
		},
		{
			displayName: 'Thread Text',
			name: 'threadText',
			type: 'string',
			typeOptions: { rows: 8 },
			default: '',
			required: true,
			displayOptions: { show: { partsFrom: ['text'] } },
			placeholder: 'First post\n---\nSecond post',
			description:
				'The whole thread. Parts are separated by a line of --- (then a part may hold blank lines) or, when there is none, by blank lines.',
		},
		{
			displayName: 'Parts',
			name: 'parts',
			type: 'json',
			default: '[]',
			displayOptions: { show: { partsFrom: ['list'] } },
			placeholder: '["First post", "Second post"]',
			description:
				'A list of the parts in order: texts, or objects with a "text" field. Map a list with an expression, such as the parts of an AI agent\'s structured output.',
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [altTextField, partMediaField],
		},
	],
	notice: {
		displayName:
			'Every part is charged as a post: 0.015, or 0.20 when it contains a URL. If a part fails, the thread stops there: the error (or the item, with Continue On Fail) names the parts posted and the ID to give as Options › Continue After Post ID. A part the service refuses as duplicate text stops the thread the same way: the service gives that refusal no error type of its own (403, type about:blank), so the node does not tell it from other refusals.',
		name: 'threadNotice',
		type: 'notice',
		default: '',
	},
	options: [continueAfterOption, maxProcessingWaitOption],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const node = ctx.getNode();
		const parts = readParts(ctx, itemIndex);
		const fields = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const partMedia = (
			((fields.partMedia as IDataObject | undefined)?.media as IDataObject[] | undefined) ?? []
		).map((m) => ({
			part: Number(m.part ?? 1),
			binaryProperties: splitList(m.binaryProperties),
			mediaIds: String(m.mediaIds ?? '').trim() ? splitList(m.mediaIds) : [],
		}));
		const altTexts = (
			((fields.altTexts as IDataObject | undefined)?.altText as IDataObject[] | undefined) ?? []
		)
			.map((a) => ({ property: String(a.property ?? '').trim(), text: String(a.text ?? '') }))
			.filter((a) => a.text.trim());
		const continueRaw = String(ctx.options.continueAfterPostId ?? '').trim();

		const binaries = parts.map(() => [] as Array<{ property: string; binary: IBinaryData }>);
		const mediaIdsOf = parts.map(() => [] as string[]);
		for (const m of partMedia) {
			const at = m.part - 1;
			if (at < 0 || at >= parts.length) continue; // refused by the schema below, by name
			for (const property of m.binaryProperties)
				binaries[at].push({ property, binary: ctx.helpers.assertBinaryData(itemIndex, property) });
			mediaIdsOf[at].push(...m.mediaIds);
		}
		validateInput(
			node,
			threadSchema,
			{
				parts: parts.map((text, i) => ({
					text,
					binaryProperties: binaries[i].map((b) => b.property),
					// An unsupported type is refused by name when the files are checked before the upload.
					binaryKinds: binaries[i].map((b) => mediaKind(mediaTypeOf(b.binary)) ?? 'image'),
					mediaIds: mediaIdsOf[i].length ? mediaIdsOf[i] : undefined,
				})),
				partMedia,
				altTexts,
				continueAfter: continueRaw || undefined,
			},
			itemIndex,
			LABELS,
		);

		const total = parts.length;
		// Parts posted before (Continue After Post ID): their ids, oldest first.
		const before = continueRaw
			? await postedBefore(ctx, itemIndex, postIdFrom(continueRaw) as string, total)
			: [];
		const results: IDataObject[] = before.map((id, i) => ({
			part: i + 1,
			id,
			posted: 'before',
		}));
		const toPost = parts.map((_, i) => i).filter((i) => i >= before.length);

		// Every file of the parts to post is read and checked before the first upload, and every
		// upload is done before the first post: a bad file stops the thread before it starts.
		const files: CheckedFile[][] = [];
		for (const i of toPost) files[i] = await checkAttachments.call(ctx, itemIndex, binaries[i]);
		const mediaOf: string[][] = [];
		const attachedOf: IDataObject[][] = [];
		for (const i of toPost) {
			attachedOf[i] = [];
			try {
				mediaOf[i] = await uploadAttachments.call(
					ctx,
					itemIndex,
					files[i],
					mediaIdsOf[i],
					altTexts,
					attachedOf[i],
				);
			} catch (error) {
				return failure(ctx, itemIndex, { results, total, failed: i + 1, error, stage: 'media' });
			}
		}

		let previous = before[before.length - 1];
		for (const i of toPost) {
			const body: IDataObject = {};
			if (parts[i]) body.text = parts[i];
			if (mediaOf[i].length) body.media = { media_ids: mediaOf[i] };
			if (previous) body.reply = { in_reply_to_tweet_id: previous };
			let post: IDataObject;
			try {
				post = unwrapData<IDataObject>(await sendPost.call(ctx, itemIndex, body, 'create'));
			} catch (error) {
				return failure(ctx, itemIndex, { results, total, failed: i + 1, error, stage: 'post' });
			}
			if (typeof post?.id !== 'string' || !post.id) {
				// The contract lets a create answer hold `errors` and no `data`: without the part's ID the
				// next part has nothing to reply to, and the part may still have been published.
				const errors = Array.isArray(post?.errors) ? (post.errors as IDataObject[]) : [];
				const said = errors
					.map((e) => [e.title, e.detail].filter(Boolean).join(': '))
					.filter(Boolean)
					.join('; ');
				const error = new NodeOperationError(
					ctx.getNode(),
					"the service's answer holds no ID of the post",
					{ itemIndex, description: said ? `The service said: ${said}.` : undefined },
				);
				return failure(ctx, itemIndex, {
					results,
					total,
					failed: i + 1,
					error,
					stage: 'post',
					unsure: true,
				});
			}
			previous = String(post.id);
			results.push({
				part: i + 1,
				...post,
				...(attachedOf[i].length ? { attached_media: attachedOf[i] } : {}),
				posted: 'now',
			});
		}
		return {
			complete: true,
			thread_id: results[0]?.id,
			part_ids: results.map((r) => r.id),
			parts: results,
			...(continueRaw ? { continued_after_post_id: before[before.length - 1] } : {}),
		};
	},
};

/** The parts of one item, from the text split or the list; nothing is sent. */
function readParts(ctx: OperationContext, itemIndex: number): string[] {
	const node = ctx.getNode();
	const from = ctx.getNodeParameter('partsFrom', itemIndex, 'text') as string;
	if (from === 'text')
		return splitThreadText(String(ctx.getNodeParameter('threadText', itemIndex, '') ?? ''));
	let raw = ctx.getNodeParameter('parts', itemIndex, []) as unknown;
	if (typeof raw === 'string') {
		try {
			raw = raw.trim() ? JSON.parse(raw) : [];
		} catch {
			throw new NodeOperationError(
				node,
				`Invalid input in item ${itemIndex + 1}: Parts: not a list (give a JSON list such as ["First post", "Second post"], or map a list with an expression)`,
				{ itemIndex },
			);
		}
	}
	const list = validateInput(
		node,
		z.array(RAW_PART, { invalid_type_error: 'must be a list of texts' }),
		raw,
		itemIndex,
		{ '': 'Parts' },
	);
	return list.map((p) => (typeof p === 'string' ? p : p.text).trim());
}

/**
 * The ids of the parts posted before, oldest first: the given post and, while it replies to a post
 * of the same author, that post (one lookup each). More than the thread's parts is refused: the
 * post is not the last posted part of this thread.
 */
async function postedBefore(
	ctx: OperationContext,
	itemIndex: number,
	lastId: string,
	total: number,
): Promise<string[]> {
	const chain: string[] = [];
	let id: string | undefined = lastId;
	let author: string | undefined;
	while (id) {
		const post: IDataObject = unwrapData<IDataObject>(
			await ctx.request<IDataObject>({
				method: 'GET',
				path: `/2/tweets/${id}`,
				qs: { 'tweet.fields': 'author_id,referenced_tweets' },
			}),
		);
		if (author !== undefined && post.author_id !== author) break;
		author = String(post.author_id);
		chain.unshift(String(post.id ?? id));
		if (chain.length > total)
			throw new NodeOperationError(
				ctx.getNode(),
				`Continue After Post ID: post ${lastId} follows ${chain.length - 1} or more posts of its author, but the thread has ${total} parts`,
				{
					itemIndex,
					description:
						'Give the ID of the last part this thread posted (the failed run names it), and the same parts as that run.',
				},
			);
		const refs = (post.referenced_tweets as IDataObject[] | undefined) ?? [];
		const parent = refs.find((r) => r.type === 'replied_to');
		id = parent ? String(parent.id) : undefined;
	}
	return chain;
}

/** A failed part: the thread stops. The item (Continue On Fail) or the error says what happened. */
function failure(
	ctx: OperationContext,
	itemIndex: number,
	f: {
		results: IDataObject[];
		total: number;
		failed: number;
		error: unknown;
		stage: 'media' | 'post';
		/** The create was answered, but not with what tells whether it was published. */
		unsure?: boolean;
	},
): IDataObject {
	const { results, total, failed, error, stage } = f;
	const info = errorInfo(error);
	const posted = results.filter((r) => stage === 'post' || r.posted === 'before');
	const last = posted[posted.length - 1]?.id as string | undefined;
	const notAttempted = Array.from({ length: total - failed }, (_, i) => failed + 1 + i);
	const original = error as { message?: string; description?: string };
	const range = (list: number[]) =>
		list.length === 0
			? 'none'
			: list.length === 1
				? `part ${list[0]}`
				: `parts ${list[0]}-${list[list.length - 1]}`;
	const postedNumbers = posted.map((r) => Number(r.part));
	// No answer, a 5xx, or an answer without the post's ID: the create may have gone through all the
	// same (never retried).
	const mayHavePosted =
		stage === 'post' &&
		(f.unsure === true || info.noAnswer === true || (info.httpStatus ?? 0) >= 500);
	const message = `Part ${failed} of ${total} ${stage === 'media' ? 'could not get its media uploaded' : 'was not posted'}: ${original.message ?? String(error)}`;
	const next = mayHavePosted
		? `Part ${failed} may have been published although the request failed: look at the account first. If it is there, run again with Options › Continue After Post ID set to its ID; if not, set it to ${last ?? 'nothing (run the thread again)'}.`
		: last
			? `To post the rest, fix the cause and run again with the same parts and Options › Continue After Post ID set to ${last}.`
			: 'Nothing was posted: fix the cause and run again.';
	const description = [
		`Posted: ${range(postedNumbers)}${posted.length ? ` (IDs ${posted.map((r) => r.id).join(', ')})` : ''}. Failed: part ${failed}. Not attempted: ${range(notAttempted)}.`,
		info.httpStatus === 403
			? 'The service answered 403: it refuses this way a part whose text the account has posted already (duplicate content), a reply its tier does not allow, and other requests it forbids; it gives none of them an error type of its own.'
			: '',
		next,
		original.description ?? '',
	]
		.filter(Boolean)
		.join(' ');
	if (ctx.continueOnFail()) {
		return {
			complete: false,
			thread_id: posted[0]?.id,
			part_ids: posted.map((r) => r.id),
			parts: posted,
			failed_part: failed,
			not_attempted_parts: notAttempted,
			...(last ? { continue_after_post_id: last } : {}),
			error: message,
			description,
			error_info: { ...info } as IDataObject,
		};
	}
	throw withErrorInfo(
		new NodeOperationError(ctx.getNode(), message, { itemIndex, description }),
		info,
	);
}
