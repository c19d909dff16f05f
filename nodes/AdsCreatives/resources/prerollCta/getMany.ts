import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { KINDS } from '../../kinds';
import { listOperation } from '../../operations';
import { idList } from '../../shared/fields';

export const getMany = listOperation(KINDS.prerollCta, {
	withDeleted: true,
	sortBy: true,
	withTotalCount: true,
	filters: [
		{
			displayName: 'Line Item IDs',
			name: 'lineItemIds',
			type: 'string',
			default: '',
			description: 'Comma-separated, up to 200',
		},
		{
			displayName: 'Preroll Call-to-Action IDs',
			name: 'prerollCtaIds',
			type: 'string',
			default: '',
			description: 'Comma-separated, up to 200',
		},
	],
	readFilters: (ctx: IExecuteFunctions, itemIndex: number, f: IDataObject) => ({
		line_item_ids: idList(ctx, f.lineItemIds, 'Line Item IDs', itemIndex),
		preroll_call_to_action_ids: idList(
			ctx,
			f.prerollCtaIds,
			'Preroll Call-to-Action IDs',
			itemIndex,
		),
	}),
});
