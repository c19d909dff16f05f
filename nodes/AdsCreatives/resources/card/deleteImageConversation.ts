import type { ItemOperation } from '../../../shared/router';
import { KINDS } from '../../kinds';
import { deleteImageConversationCard } from '../imageConversationCard/delete';

/**
 * Kept for the workflows that use it: the same delete as Image Conversation Card > Delete, which has
 * the card chosen from a list too. Its ID field stays By ID only, as saved workflows have it.
 */
export const deleteImageConversation: ItemOperation = {
	option: {
		name: 'Delete Image Conversation Card',
		value: 'deleteImageConversation',
		description: 'Delete an image conversation card (the same as Image Conversation Card > Delete)',
		action: 'Delete an image conversation card',
	},
	properties: [
		{
			displayName: 'Image Conversation Card',
			name: KINDS.imageConversationCard.idName,
			type: 'resourceLocator',
			default: { mode: 'id', value: '' },
			required: true,
			description: 'The ID of the image conversation card',
			modes: [
				{
					displayName: 'By ID',
					name: 'id',
					type: 'string',
					placeholder: KINDS.imageConversationCard.idPlaceholder,
					validation: [
						{
							type: 'regex',
							properties: {
								regex: KINDS.imageConversationCard.idRegex,
								errorMessage: 'Not a card ID',
							},
						},
					],
				},
			],
		},
	],
	execute: deleteImageConversationCard.execute,
};
