import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { KINDS, idList, listOperation } from '../../common';
import { namePrefix } from '../../shared/filters';

export const getMany = listOperation(KINDS.pollCard, {
	withDeleted: true,
	sortBy: true,
	filters: [
		{ displayName: 'Card IDs', name: 'cardIds', type: 'string', default: '', description: 'Comma-separated, up to 200' },
		namePrefix.property,
	],
	readFilters: (ctx: IExecuteFunctions, itemIndex: number, f: IDataObject) => ({
		card_ids: idList(ctx, f.cardIds, 'Card IDs', itemIndex),
		q: namePrefix.read(ctx, itemIndex, f),
	}),
});
