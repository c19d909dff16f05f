import type { INodeProperties } from 'n8n-workflow';

import { postLocator } from '../../../../shared/locators';

/** A post locator inside the Additional Fields collection (not required there). */
function optionalPostLocator(
	name: string,
	displayName: string,
	description: string,
): INodeProperties {
	const property = { ...postLocator(name, displayName, undefined, false), description };
	delete property.displayOptions;
	delete property.required;
	return property;
}

/** Attachment fields (media, poll, quote, card), shared by Create and Edit. */
export function attachmentFields(): INodeProperties[] {
	return [
		{
			displayName: 'Alt Text',
			name: 'altTexts',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			default: {},
			placeholder: 'Add Alt Text',
			description:
				'Describe attached images and GIFs for people using screen readers (set before the post is published)',
			options: [
				{
					displayName: 'Alt Text',
					name: 'altText',
					values: [
						{
							displayName: 'Binary Property',
							name: 'property',
							type: 'string',
							default: 'data',
							description: 'One of the names given in Binary Properties',
						},
						{
							displayName: 'Text',
							name: 'text',
							type: 'string',
							default: '',
							description: 'What the image shows, up to 1,000 characters',
						},
					],
				},
			],
		},
		{
			displayName: 'Binary Properties',
			name: 'binaryProperties',
			type: 'string',
			default: '',
			placeholder: 'data, image2',
			description:
				"Comma-separated names of the input item's binary properties to upload and attach: 1 to 4 images, or 1 GIF, or 1 video. Cannot be combined with a poll, a quote or a card.",
		},
		{
			displayName: 'Card',
			name: 'cardUri',
			type: 'string',
			default: '',
			placeholder: 'card://1234567890',
			description:
				'A card created with the Platform Ads Creatives node, given by its card URI (card://…). Cannot be combined with media, a poll or a quote.',
		},
		{
			displayName: 'Media IDs',
			name: 'mediaIds',
			type: 'string',
			default: '',
			placeholder: '1455952740635586573',
			description:
				'Comma-separated IDs of media uploaded before (at most 4 in all, counting binary properties)',
		},
		{
			displayName: 'Poll Duration (Minutes)',
			name: 'pollDuration',
			type: 'number',
			default: 1440,
			typeOptions: { minValue: 5, maxValue: 10080 },
			description:
				'How long the poll stays open: 5 to 10,080 minutes (7 days). Used with Poll Options.',
		},
		{
			displayName: 'Poll Options',
			name: 'pollOptions',
			type: 'string',
			default: '',
			placeholder: 'Yes, No',
			description:
				'Comma-separated poll choices: 2 to 4, each at most 25 characters. Cannot be combined with media, a quote or a card.',
		},
		optionalPostLocator(
			'quote',
			'Quote Post',
			'The post to quote. Cannot be combined with media, a poll or a card.',
		),
	];
}

/** Fields of Create only: reply, community, partnership, and the users tagged in the media. */
export function replyFields(): INodeProperties[] {
	return [
		{
			displayName: 'Exclude Reply User IDs',
			name: 'excludeReplyUserIds',
			type: 'string',
			default: '',
			placeholder: '2244994945, 6253282',
			description:
				'Comma-separated IDs of users who are not mentioned in the reply (sent as reply.exclude_reply_user_ids). Used with Reply To Post.',
		},
		{
			displayName: 'Tagged User IDs',
			name: 'taggedUserIds',
			type: 'string',
			default: '',
			placeholder: '2244994945, 6253282',
			description:
				'Comma-separated IDs of users to tag in the attached media (sent as media.tagged_user_ids). Needs media.',
		},
		{
			displayName: 'Community ID',
			name: 'communityId',
			type: 'string',
			default: '',
			placeholder: '1146654567674912769',
			description: 'Post into this community',
		},
		{
			displayName: 'Paid Partnership',
			name: 'paidPartnership',
			type: 'boolean',
			default: false,
			description: 'Whether to label the post as a paid partnership',
		},
		optionalPostLocator('replyTo', 'Reply To Post', 'The post this post replies to'),
		{
			displayName: 'Reply Settings',
			name: 'replySettings',
			type: 'options',
			default: 'following',
			description: 'Who may reply to the post',
			options: [
				{ name: 'Following', value: 'following', description: 'Accounts the author follows' },
				{ name: 'Mentioned Users', value: 'mentionedUsers' },
				{ name: 'Subscribers', value: 'subscribers' },
				{ name: 'Verified', value: 'verified' },
			],
		},
		{
			displayName: 'Share With Followers',
			name: 'shareWithFollowers',
			type: 'boolean',
			default: false,
			description: 'Whether a community post is also shown to the followers (needs Community ID)',
		},
	];
}

export function sorted(fields: INodeProperties[]): INodeProperties[] {
	return [...fields].sort((a, b) => a.displayName.localeCompare(b.displayName));
}
