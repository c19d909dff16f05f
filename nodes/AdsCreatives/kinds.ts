import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { adsIdParameter } from '../shared/ads';

/**
 * The object kinds of the creatives API (where each lives below the ad account, how its id looks,
 * how it is listed) and the field that chooses an object of a kind.
 */

/** An object kind of the creatives API: where it lives and how its id looks. */
export interface CreativeKind {
	resource: string;
	/** Lower-case noun for descriptions and actions: 'poll card'. */
	noun: string;
	/** Its plural when it is not noun + 's' ('preroll calls-to-action'). */
	plural?: string;
	/** Name of the id (resource locator) parameter. */
	idName: string;
	/** Label of that parameter in the UI. */
	idLabel: string;
	/** Path below /12/accounts/:account_id, e.g. /cards/poll. */
	path: string;
	idRegex: string;
	idPlaceholder: string;
	/** listSearch method of the "From List" mode. */
	searchMethod: string;
	/** Page size maximum of the list endpoint. */
	maxCount: number;
	/** Whether the endpoint takes `q` for a name search in the list. */
	searchByQ?: boolean;
}

export const KINDS = {
	card: {
		resource: 'card',
		noun: 'card',
		idName: 'cardId',
		idLabel: 'Card',
		path: '/cards',
		idRegex: '^[A-Za-z0-9]{1,32}$',
		idPlaceholder: '1b3ik',
		searchMethod: 'searchCards',
		maxCount: 200,
		searchByQ: true,
	},
	pollCard: {
		resource: 'pollCard',
		noun: 'poll card',
		idName: 'pollCardId',
		idLabel: 'Poll Card',
		path: '/cards/poll',
		idRegex: '^[A-Za-z0-9]{1,32}$',
		idPlaceholder: '57i77',
		searchMethod: 'searchPollCards',
		maxCount: 1000,
		searchByQ: true,
	},
	videoConversationCard: {
		resource: 'videoConversationCard',
		noun: 'video conversation card',
		idName: 'videoConversationCardId',
		idLabel: 'Video Conversation Card',
		path: '/cards/video_conversation',
		idRegex: '^[A-Za-z0-9]{1,32}$',
		idPlaceholder: '59woh',
		searchMethod: 'searchVideoConversationCards',
		maxCount: 1000,
		searchByQ: true,
	},
	imageConversationCard: {
		resource: 'imageConversationCard',
		noun: 'image conversation card',
		idName: 'imageConversationCardId',
		idLabel: 'Image Conversation Card',
		path: '/cards/image_conversation',
		idRegex: '^[A-Za-z0-9]{1,32}$',
		idPlaceholder: '4i0ya',
		searchMethod: 'searchImageConversationCards',
		maxCount: 1000,
		searchByQ: true,
	},
	mediaLibrary: {
		resource: 'mediaLibrary',
		noun: 'media library object',
		idName: 'mediaKey',
		idLabel: 'Media Key',
		path: '/media_library',
		idRegex: '^\\d+_\\d+$',
		idPlaceholder: '3_1151345051455284224',
		searchMethod: 'searchMediaLibrary',
		maxCount: 50,
		searchByQ: true,
	},
	accountMedia: {
		resource: 'accountMedia',
		noun: 'account media item',
		idName: 'accountMediaId',
		idLabel: 'Account Media',
		path: '/account_media',
		idRegex: '^[A-Za-z0-9]{1,32}$',
		idPlaceholder: '2pnfd',
		searchMethod: 'searchAccountMedia',
		maxCount: 1000,
	},
	draftPost: {
		resource: 'draftPost',
		noun: 'draft post',
		idName: 'draftPostId',
		idLabel: 'Draft Post',
		path: '/draft_tweets',
		idRegex: '^\\d{1,19}$',
		idPlaceholder: '994788364334325760',
		searchMethod: 'searchDraftPosts',
		maxCount: 200,
	},
	scheduledPost: {
		resource: 'scheduledPost',
		noun: 'scheduled post',
		idName: 'scheduledPostId',
		idLabel: 'Scheduled Post',
		path: '/scheduled_tweets',
		idRegex: '^\\d{1,19}$',
		idPlaceholder: '870321875435442177',
		searchMethod: 'searchScheduledPosts',
		maxCount: 200,
	},
	prerollCta: {
		resource: 'prerollCta',
		noun: 'preroll call-to-action',
		plural: 'preroll calls-to-action',
		idName: 'prerollCtaId',
		idLabel: 'Preroll Call-to-Action',
		path: '/preroll_call_to_actions',
		idRegex: '^[A-Za-z0-9]{1,32}$',
		idPlaceholder: '8f0',
		searchMethod: 'searchPrerollCtas',
		maxCount: 1000,
	},
} satisfies Record<string, CreativeKind>;

/** 'a poll card', 'an account media item': generated action names stay grammatical. */
export function aOrAn(noun: string): string {
	return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

export function pluralOf(kind: CreativeKind): string {
	return kind.plural ?? `${kind.noun}s`;
}

export function objectLocator(kind: CreativeKind): INodeProperties {
	return {
		displayName: kind.idLabel,
		name: kind.idName,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: kind.searchMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: kind.idPlaceholder,
				validation: [
					{
						type: 'regex',
						properties: { regex: kind.idRegex, errorMessage: `Not ${aOrAn(kind.noun)} ID` },
					},
				],
			},
		],
	};
}

export function objectId(ctx: IExecuteFunctions, itemIndex: number, kind: CreativeKind): string {
	const id = adsIdParameter(ctx, kind.idName, kind.idLabel, new RegExp(kind.idRegex), itemIndex);
	return encodeURIComponent(id);
}
