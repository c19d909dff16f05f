import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { locatorValue, postIdFrom, postLocator } from '../../../shared/locators';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { asNodeError, unwrapData } from '../../../shared/transport';
import { optionsCollection, postsRequest, requireUserContext } from '../../common';

const OP = 'evaluate';
const show = showFor('communityNote', OP);

export const evaluate: ItemOperation = {
	option: {
		name: 'Evaluate',
		value: OP,
		description:
			'Score a drafted community note before submitting it (claim_opinion_score). Nothing is published. Needs a user-context credential of an enrolled note writer.',
		action: 'Evaluate a draft community note',
	},
	properties: [
		postLocator('postId', 'Post', show),
		{
			displayName: 'Note Text',
			name: 'noteText',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			required: true,
			displayOptions: show,
			description: 'The drafted note text',
		},
		optionsCollection('communityNote', OP),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		requireUserContext(this, itemIndex, 'Evaluating a note');
		const postId = locatorValue(this.getNode(), this.getNodeParameter('postId', itemIndex), 'Post', itemIndex, postIdFrom);
		const noteText = String(this.getNodeParameter('noteText', itemIndex, '') ?? '');
		if (!noteText.trim()) {
			throw new NodeOperationError(this.getNode(), `Invalid input in item ${itemIndex + 1}: Note Text is empty`, { itemIndex });
		}
		const body = { note_text: noteText, post_id: postId };
		let response: IDataObject;
		try {
			response = await postsRequest.call(this, itemIndex, { method: 'POST', path: '/2/evaluate_note', body });
		} catch (error) {
			// Servers that moved the endpoint answer 404 on the old path; an evaluation changes nothing.
			if ((error as { httpCode?: string }).httpCode !== '404') throw asNodeError(this, error, itemIndex);
			response = await postsRequest.call(this, itemIndex, { method: 'POST', path: '/2/notes/evaluate', body });
		}
		return { post_id: postId, ...(unwrapData<IDataObject>(response) ?? {}) };
	},
};
