import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { KINDS } from '../../kinds';
import { listOperation } from '../../operations';
import { idList } from '../../shared/fields';

export const CREATIVE_TYPES = [
	'BANNER',
	'BANNER_TABLET',
	'INTERSTITIAL',
	'INTERSTITIAL_LANDSCAPE',
	'INTERSTITIAL_LANDSCAPE_TABLET',
	'INTERSTITIAL_TABLET',
	'MEDIUM_RECTANGLE',
	'PREROLL',
	'VAST_PREROLL',
];

export const getMany = listOperation(KINDS.accountMedia, {
	withDeleted: true,
	sortBy: true,
	withTotalCount: true,
	filters: [
		{
			displayName: 'Account Media IDs',
			name: 'accountMediaIds',
			type: 'string',
			default: '',
			description: 'Comma-separated, up to 200',
		},
		{
			displayName: 'Creative Types',
			name: 'creativeTypes',
			type: 'multiOptions',
			default: [],
			options: CREATIVE_TYPES.map((t) => ({ name: t, value: t })),
		},
	],
	readFilters: (ctx: IExecuteFunctions, itemIndex: number, f: IDataObject) => ({
		account_media_ids: idList(ctx, f.accountMediaIds, 'Account Media IDs', itemIndex),
		creative_types: ((f.creativeTypes as string[] | undefined) ?? []).join(',') || undefined,
	}),
});
