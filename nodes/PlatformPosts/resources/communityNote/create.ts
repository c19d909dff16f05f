import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import { USER_CONTEXT } from '../../../shared/authentication';
import { postLocator, postIdParameter } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { validateInput } from '../../../shared/validation';
import { hasSourceUrl, testModeProperty } from './common';

const OP = 'create';

const MISLEADING_TAGS = [
	'disputed_claim_as_fact',
	'factual_error',
	'manipulated_media',
	'misinterpreted_satire',
	'missing_important_context',
	'other',
	'outdated_information',
] as const;

const CLASSIFICATIONS = ['misinformed_or_potentially_misleading', 'not_misleading'] as const;

/**
 * The body the service takes (its schema of a note, closed at both levels): every field is required,
 * misleading_tags too (empty for a note saying the post is not misleading). A note saying it is
 * misleading names at least one reason: the service refuses one without.
 */
const noteSchema = z
	.object({
		test_mode: z.boolean(),
		post_id: z.string().regex(/^\d{1,19}$/, 'a post ID is 1-19 digits'),
		info: z
			.object({
				text: z
					.string()
					.regex(
						/^(?=[\s\S]*https?:\/\/\S+)[\s\S]+$/,
						'must contain a source URL (http:// or https://)',
					),
				classification: z.enum(CLASSIFICATIONS, {
					errorMap: () => ({ message: `must be one of ${CLASSIFICATIONS.join(', ')}` }),
				}),
				misleading_tags: z.array(
					z.enum(MISLEADING_TAGS, {
						errorMap: () => ({ message: `must be one of ${MISLEADING_TAGS.join(', ')}` }),
					}),
				),
				trustworthy_sources: z.boolean(),
			})
			.strict()
			.superRefine((info, issues) => {
				if (
					info.classification === 'misinformed_or_potentially_misleading' &&
					!info.misleading_tags.length
				)
					issues.addIssue({
						code: z.ZodIssueCode.custom,
						path: ['misleading_tags'],
						message: 'choose at least one reason why the post is misleading',
					});
			}),
	})
	.strict();

const LABELS = {
	test_mode: 'Test Mode',
	post_id: 'Post',
	'info.text': 'Text',
	'info.classification': 'Classification',
	'info.misleading_tags': 'Misleading Tags',
	'info.trustworthy_sources': 'Trustworthy Sources',
};

export const create: ItemOperation = {
	option: {
		name: 'Submit',
		value: OP,
		description:
			'Submit a community note on a post. The text must cite a source URL (checked before sending). One note per writer and post; test mode is on by default. Needs a user-context credential of an enrolled note writer.',
		action: 'Submit a community note',
	},
	properties: [
		postLocator('postId', 'Post'),
		{
			displayName: 'Text',
			name: 'text',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			required: true,
			description: 'The note. It must contain at least one source link (http:// or https://).',
		},
		{
			displayName: 'Classification',
			name: 'classification',
			type: 'options',
			default: 'misinformed_or_potentially_misleading',
			options: [
				{
					name: 'Misinformed or Potentially Misleading',
					value: 'misinformed_or_potentially_misleading',
				},
				{ name: 'Not Misleading', value: 'not_misleading' },
			],
			description: 'Whether the post is misleading',
		},
		{
			displayName: 'Misleading Tags',
			name: 'misleadingTags',
			type: 'multiOptions',
			default: [],
			displayOptions: {
				show: {
					classification: ['misinformed_or_potentially_misleading'],
				},
			},
			options: MISLEADING_TAGS.map((value) => ({
				name: value.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()),
				value,
			})),
			description: 'Why the post is misleading (at least one)',
		},
		{
			displayName: 'Trustworthy Sources',
			name: 'trustworthySources',
			type: 'boolean',
			default: true,
			description: 'Whether the cited sources are trustworthy',
		},
		testModeProperty,
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const postId = postIdParameter(ctx, 'postId', itemIndex);
		const text = String(ctx.getNodeParameter('text', itemIndex, '') ?? '');
		if (!hasSourceUrl(text)) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Text: a community note must contain a source URL (http:// or https://)`,
				{
					itemIndex,
					description:
						'Add a link to the source that supports the note, e.g. https://example.org/article.',
				},
			);
		}
		const classification = ctx.getNodeParameter(
			'classification',
			itemIndex,
			'misinformed_or_potentially_misleading',
		) as string;
		const misleading = classification === 'misinformed_or_potentially_misleading';
		const body = validateInput(
			ctx.getNode(),
			noteSchema,
			{
				test_mode: ctx.getNodeParameter('testMode', itemIndex, true),
				post_id: postId,
				info: {
					text,
					classification,
					// The service requires the list in every note: empty when the post is not misleading.
					misleading_tags: misleading
						? ((ctx.getNodeParameter('misleadingTags', itemIndex, []) as string[]) ?? [])
						: [],
					trustworthy_sources: ctx.getNodeParameter('trustworthySources', itemIndex, true),
				},
			},
			itemIndex,
			LABELS,
		);
		const response = await ctx.request({
			method: 'POST',
			path: '/2/notes',
			body,
			unsafeFailureHint:
				'The note may have been submitted: check Get Many Written before submitting it again.',
		});
		const data = unwrapData<IDataObject>(response) ?? {};
		const noteId = data.note_id ?? data.id;
		return {
			...data,
			...(noteId !== undefined ? { note_id: String(noteId) } : {}),
			post_id: postId,
		};
	},
};
