import type { ItemOperation, OperationContext } from '../../../shared/router';
import { single } from '../../../shared/ads';
import { deletedResult } from '../../../shared/router';
import { accountPath } from '../../account';
import { objectId } from '../../kinds';
import type { CreativeKind } from '../../kinds';

const IMAGE_CONVERSATION: CreativeKind = {
	resource: 'card',
	noun: 'image conversation card',
	idName: 'imageConversationCardId',
	idLabel: 'Image Conversation Card',
	path: '/cards/image_conversation',
	idRegex: '^[A-Za-z0-9]{1,32}$',
	idPlaceholder: '4i0ya',
	searchMethod: '',
	maxCount: 0,
};

/** A legacy card type: the service lists it through Get Many by URI only, so the ID is typed in. */
export const deleteImageConversation: ItemOperation = {
	option: {
		name: 'Delete Image Conversation Card',
		value: 'deleteImageConversation',
		description: 'Delete a legacy image conversation card',
		action: 'Delete an image conversation card',
	},
	properties: [
		{
			displayName: 'Image Conversation Card',
			name: 'imageConversationCardId',
			type: 'resourceLocator',
			default: { mode: 'id', value: '' },
			required: true,
			description:
				'A legacy card: the service lists it only through Get Many by URI, so it is given by ID',
			modes: [
				{
					displayName: 'By ID',
					name: 'id',
					type: 'string',
					placeholder: '4i0ya',
					validation: [
						{
							type: 'regex',
							properties: { regex: IMAGE_CONVERSATION.idRegex, errorMessage: 'Not a card ID' },
						},
					],
				},
			],
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = objectId(ctx, itemIndex, IMAGE_CONVERSATION);
		const path = accountPath(ctx, itemIndex, `/cards/image_conversation/${id}`);
		return deletedResult(id, single(await ctx.request({ method: 'DELETE', path })));
	},
};
