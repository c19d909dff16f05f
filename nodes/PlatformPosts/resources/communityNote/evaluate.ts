import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import { postLocator, postIdParameter } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { asNodeError, errorInfo } from '../../../shared/errors';
import { unwrapData } from '../../../shared/transport';

const OP = 'evaluate';

export const evaluate: ItemOperation = {
	option: {
		name: 'Evaluate',
		value: OP,
		description:
			'Score a drafted community note before submitting it (claim_opinion_score). Nothing is published. Needs a user-context credential of an enrolled note writer.',
		action: 'Evaluate a draft community note',
	},
	properties: [
		postLocator('postId', 'Post'),
		{
			displayName: 'Note Text',
			name: 'noteText',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			required: true,
			description: 'The drafted note text',
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const postId = postIdParameter(ctx, 'postId', itemIndex);
		const noteText = String(ctx.getNodeParameter('noteText', itemIndex, '') ?? '');
		if (!noteText.trim()) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Note Text is empty`,
				{ itemIndex },
			);
		}
		const body = { note_text: noteText, post_id: postId };
		let response: IDataObject;
		try {
			response = await ctx.request({
				method: 'POST',
				path: '/2/evaluate_note',
				body,
			});
		} catch (error) {
			// Servers that moved the endpoint answer 404 on the old path; an evaluation changes nothing.
			if (errorInfo(error).httpStatus !== 404) throw asNodeError(ctx, error, itemIndex);
			response = await ctx.request({
				method: 'POST',
				path: '/2/notes/evaluate',
				body,
			});
		}
		return { post_id: postId, ...(unwrapData<IDataObject>(response) ?? {}) };
	},
};
