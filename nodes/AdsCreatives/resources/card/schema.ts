import { z } from 'zod';

import { mediaKey } from '../../shared/fields';

const website = z.object({ type: z.literal('WEBSITE'), url: z.string().url('must be a URL') });
const app = z
	.object({
		type: z.literal('APP'),
		country_code: z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code such as US'),
		partneraplay_app_id: z.string().min(1).optional(),
		partnerb_app_store_identifier: z.string().min(1).optional(),
		partneraplay_deep_link: z.string().min(1).optional(),
		partnerb_deep_link: z.string().min(1).optional(),
	})
	.superRefine((d, ctx) => {
		if (!d.partneraplay_app_id && !d.partnerb_app_store_identifier) {
			ctx.addIssue({ code: 'custom', message: 'at least one store app ID is required' });
		}
		if (d.partneraplay_deep_link && !d.partneraplay_app_id) {
			ctx.addIssue({
				code: 'custom',
				path: ['partneraplay_deep_link'],
				message: 'needs its store app ID (partneraplay_app_id)',
			});
		}
		if (d.partnerb_deep_link && !d.partnerb_app_store_identifier) {
			ctx.addIssue({
				code: 'custom',
				path: ['partnerb_deep_link'],
				message: 'needs its store app ID (partnerb_app_store_identifier)',
			});
		}
	});

export const componentSchema = z.discriminatedUnion('type', [
	z.object({ type: z.literal('MEDIA'), media_key: mediaKey }),
	z.object({
		type: z.literal('SWIPEABLE_MEDIA'),
		media_keys: z
			.array(mediaKey)
			.min(2, 'needs 2 to 6 media keys')
			.max(6, 'needs 2 to 6 media keys'),
	}),
	z.object({
		type: z.literal('DETAILS'),
		title: z.string().min(1, 'is required'),
		destination: website,
	}),
	z.object({
		type: z.literal('BUTTON'),
		label: z.object({
			type: z.literal('ENUM'),
			value: z.enum(['BOOK', 'CONNECT', 'INSTALL', 'OPEN', 'ORDER', 'PLAY', 'SHOP']),
		}),
		destination: z
			.union([app, website])
			.refine((d) => d.type === 'APP', 'a BUTTON needs an APP destination, not WEBSITE'),
	}),
]);

function checkComponents(
	components: Array<z.infer<typeof componentSchema>>,
	ctx: z.RefinementCtx,
	path: Array<string | number>,
) {
	const media = components.filter((c) => c.type === 'MEDIA' || c.type === 'SWIPEABLE_MEDIA').length;
	const action = components.filter((c) => c.type === 'DETAILS' || c.type === 'BUTTON').length;
	if (media !== 1)
		ctx.addIssue({
			code: 'custom',
			path,
			message: 'a card needs exactly one MEDIA or SWIPEABLE_MEDIA component',
		});
	if (action !== 1)
		ctx.addIssue({
			code: 'custom',
			path,
			message: 'a card needs exactly one DETAILS or BUTTON component',
		});
}

const cardFields = {
	name: z.string().min(1, 'is required').max(80, 'at most 80 characters'),
	components: z.array(componentSchema).optional(),
	slides: z
		.array(z.array(componentSchema))
		.min(2, 'a multi-destination carousel needs at least 2 slides')
		.optional(),
};

/** POST cards: a name and exactly one of components or slides. */
export const cardSchema = z
	.object(cardFields)
	.strict()
	.superRefine((card, ctx) => {
		if (!!card.components === !!card.slides) {
			ctx.addIssue({
				code: 'custom',
				path: ['components'],
				message: 'give exactly one of components or slides',
			});
		}
		if (card.components) checkComponents(card.components, ctx, ['components']);
		card.slides?.forEach((slide, i) => checkComponents(slide, ctx, ['slides', i]));
	});

/** PUT cards: every field optional; each one given replaces the stored value. */
export const cardUpdateSchema = z
	.object({ ...cardFields, name: cardFields.name.optional() })
	.strict()
	.superRefine((card, ctx) => {
		if (card.components && card.slides) {
			ctx.addIssue({
				code: 'custom',
				path: ['components'],
				message: 'give components or slides, not both',
			});
		}
		if (!card.name && !card.components && !card.slides) {
			ctx.addIssue({
				code: 'custom',
				path: ['name'],
				message: 'nothing to update: give a name, components or slides',
			});
		}
		if (card.components) checkComponents(card.components, ctx, ['components']);
		card.slides?.forEach((slide, i) => checkComponents(slide, ctx, ['slides', i]));
	});

export const CARD_LABELS: Record<string, string> = {
	name: 'Name',
	components: 'Components',
	'components.media_keys': 'Media Items',
	'components.media_key': 'Media Key',
	'components.destination': 'Destination',
	'components.destination.partneraplay_deep_link': 'Store A Deep Link',
	'components.destination.partnerb_deep_link': 'Store B Deep Link',
	'components.destination.country_code': 'Country Code',
	'components.title': 'Title',
	slides: 'Slides',
};
