import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { KINDS } from '../../kinds';
import { listOperation } from '../../operations';
import { idList } from '../../shared/fields';
import { namePrefix } from '../../shared/filters';

export const CARD_TYPES = [
	'IMAGE_APP',
	'IMAGE_CAROUSEL_APP',
	'IMAGE_CAROUSEL_WEBSITE',
	'IMAGE_MULTI_DEST_CAROUSEL_WEBSITE',
	'IMAGE_WEBSITE',
	'MIXED_MEDIA_MULTI_DEST_CAROUSEL_WEBSITE',
	'MIXED_MEDIA_SINGLE_DEST_CAROUSEL_APP',
	'MIXED_MEDIA_SINGLE_DEST_CAROUSEL_WEBSITE',
	'VIDEO_APP',
	'VIDEO_CAROUSEL_APP',
	'VIDEO_CAROUSEL_WEBSITE',
	'VIDEO_MULTI_DEST_CAROUSEL_WEBSITE',
	'VIDEO_WEBSITE',
];

export const getMany = listOperation(
	KINDS.card,
	{
		withDeleted: true,
		sortBy: true,
		filters: [
			{
				displayName: 'Card IDs',
				name: 'cardIds',
				type: 'string',
				default: '',
				description: 'Comma-separated, up to 200',
			},
			{
				displayName: 'Card Types',
				name: 'cardTypes',
				type: 'multiOptions',
				default: [],
				options: CARD_TYPES.map((t) => ({ name: t, value: t })),
			},
			{
				displayName: 'Card URIs',
				name: 'cardUris',
				type: 'string',
				default: '',
				placeholder: 'card://1234567890',
				description: 'Comma-separated, up to 200',
			},
			{
				displayName: 'Include Legacy Cards',
				name: 'includeLegacyCards',
				type: 'boolean',
				default: false,
				description: 'Whether to include cards of the legacy types',
			},
			namePrefix.property,
		],
		readFilters(ctx: IExecuteFunctions, itemIndex: number, f: IDataObject) {
			const types = (f.cardTypes as string[] | undefined) ?? [];
			return {
				card_id: idList(ctx, f.cardIds, 'Card IDs', itemIndex),
				card_uris: idList(ctx, f.cardUris, 'Card URIs', itemIndex),
				card_types: types.length ? types.join(',') : undefined,
				include_legacy_cards: f.includeLegacyCards ? true : undefined,
				q: namePrefix.read(ctx, itemIndex, f),
			};
		},
	},
	'List the cards of the ad account (only cards created through the card builder)',
);
