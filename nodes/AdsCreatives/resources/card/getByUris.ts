import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { accountPath } from '../../account';
import { idList } from '../../shared/fields';

/** GET cards/all: cards of any type, legacy ones included, by card URI. */
export const getByUris: ItemOperation = {
	option: {
		name: 'Get Many by URI',
		value: 'getByUris',
		description: 'Get cards of any type (legacy types included) by their card URIs',
		action: 'Get cards by URI',
	},
	properties: [
		{
			displayName: 'Card URIs',
			name: 'cardUris',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'card://1234567890, card://1234567891',
			description: 'Comma-separated, up to 200',
		},
	],
	options: [
		{
			displayName: 'With Deleted',
			name: 'withDeleted',
			type: 'boolean',
			default: false,
			description: 'Whether to include deleted cards',
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const uris = idList(
			ctx,
			ctx.getNodeParameter('cardUris', itemIndex, ''),
			'Card URIs',
			itemIndex,
		);
		const bad = uris?.split(',').find((u) => !/^card:\/\/\d+$/.test(u));
		if (!uris || bad !== undefined) {
			const problem =
				bad === undefined ? 'is required' : `"${bad}" is not a card URI (card://<digits>)`;
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Card URIs: ${problem}`,
				{ itemIndex },
			);
		}
		const qs: IDataObject = { card_uris: uris };
		if (ctx.options.withDeleted) qs.with_deleted = true;
		const body = await ctx.request({
			method: 'GET',
			path: accountPath(ctx, itemIndex, '/cards/all'),
			qs,
		});
		return (Array.isArray(body.data) ? body.data : []) as IDataObject[];
	},
};
