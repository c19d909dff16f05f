import type { IDataObject } from 'n8n-workflow';

import { single } from '../../../shared/ads';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { accountPath } from '../../account';
import type { CreativeKind } from '../../kinds';
import { KINDS, objectId } from '../../kinds';

/**
 * GET cards/all/:card_id: one card of any type (component-based, poll, video or image conversation,
 * legacy types) by its ID. Get reads only cards made through the card builder; this one reads them all.
 */
const ANY_CARD: CreativeKind = { ...KINDS.card, idName: 'anyCardId', path: '/cards/all' };

export const getById: ItemOperation = {
	option: {
		name: 'Get Card by ID',
		value: 'getById',
		description:
			'Get one card of any type by its ID (poll, video and image conversation and legacy cards included)',
		action: 'Get a card of any type by ID',
	},
	properties: [
		{
			displayName: 'Card',
			name: ANY_CARD.idName,
			type: 'resourceLocator',
			default: { mode: 'id', value: '' },
			required: true,
			description:
				'The ID of a card of any type; From List offers the cards made through the card builder',
			modes: [
				{
					displayName: 'From List',
					name: 'list',
					type: 'list',
					typeOptions: { searchListMethod: ANY_CARD.searchMethod, searchable: true },
				},
				{
					displayName: 'By ID',
					name: 'id',
					type: 'string',
					placeholder: ANY_CARD.idPlaceholder,
					validation: [
						{
							type: 'regex',
							properties: { regex: ANY_CARD.idRegex, errorMessage: 'Not a card ID' },
						},
					],
				},
			],
		},
	],
	options: [
		{
			displayName: 'With Deleted',
			name: 'withDeleted',
			type: 'boolean',
			default: false,
			description: 'Whether to return the card also when it is deleted',
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = objectId(ctx, itemIndex, ANY_CARD);
		const qs: IDataObject = ctx.options.withDeleted ? { with_deleted: true } : {};
		return single(
			await ctx.request({
				method: 'GET',
				path: accountPath(ctx, itemIndex, `/cards/all/${id}`),
				qs,
			}),
		);
	},
};
