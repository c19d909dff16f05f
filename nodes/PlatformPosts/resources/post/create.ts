import type { IDataObject } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { maxProcessingWaitOption } from '../../../shared/media';
import { attachmentFields, composeBody, replyFields, sendPost, sorted } from './compose';

export const create: ItemOperation = {
	option: {
		name: 'Create',
		value: 'create',
		description: 'Publish a post, optionally with media, a poll, a quote or a card, or as a reply',
		action: 'Create a post',
	},
	properties: [
		{
			displayName: 'Text',
			name: 'text',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description:
				'The text of the post. Up to 25,000 characters for long-form posts; the service judges the weighted length (URLs and some characters count differently) and its refusal is shown as it is. May be empty when media is attached.',
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: sorted([...attachmentFields(), ...replyFields()]),
		},
	],
	options: [maxProcessingWaitOption],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const attached: IDataObject[] = [];
		const body = await composeBody.call(ctx, itemIndex, attached);
		// Never retried: a create is not idempotent (see sendPost).
		const response = await sendPost.call(ctx, itemIndex, body, 'create');
		const post = unwrapData<IDataObject>(response);
		// The service answers with the id and text only: say what the post carries.
		return attached.length ? { ...post, attached_media: attached } : post;
	},
};
