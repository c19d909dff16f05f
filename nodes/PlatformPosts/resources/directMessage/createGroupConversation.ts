import { USER_CONTEXT } from '../../../shared/authentication';
import { splitList } from '../../../shared/lists';
import { userRefFrom } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { maxProcessingWaitOption } from '../../../shared/media';
import { resolveUserId } from '../../users';
import { checkMessage, invalidInput, messageBody, messageProperties, sentMessage } from './common';

/** A group conversation is created with 2 to 49 participants besides the authenticated user. */
const MIN_PARTICIPANTS = 2;
const MAX_PARTICIPANTS = 49;

export const createGroupConversation: ItemOperation = {
	option: {
		name: 'Create Group Conversation',
		value: 'createGroupConversation',
		description:
			'Start a group conversation with 2 to 49 other users and send its first message (text and/or one media attachment). Needs a user-context credential (OAuth2 scopes dm.write, tweet.read, users.read).',
		action: 'Create a group conversation',
	},
	properties: [
		{
			displayName: 'Participants',
			name: 'participantIds',
			type: 'string',
			default: '',
			required: true,
			placeholder: '2244994945, @n8n_io',
			description:
				'The users to start the conversation with (2 to 49, besides you): user IDs, usernames (with or without @) or profile URLs, separated by commas, spaces or new lines',
		},
		...messageProperties,
	],
	options: [maxProcessingWaitOption],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const parts = splitList(ctx.getNodeParameter('participantIds', itemIndex, ''));
		const refs = parts.map((part) => ({
			part,
			ref: userRefFrom(/^\d+$/.test(part) ? 'id' : 'username', part) ?? userRefFrom('url', part),
		}));
		const invalid = refs.find((r) => !r.ref);
		if (invalid)
			throw invalidInput(
				ctx,
				itemIndex,
				`Participants: "${invalid.part}" is not a user ID, username or profile URL`,
			);
		const seen = new Set<string>();
		const unique = refs.filter(({ ref }) => {
			const key = `${ref!.by}:${ref!.value.toLowerCase()}`;
			if (seen.has(key)) return false;
			seen.add(key);
			return true;
		});
		if (unique.length < MIN_PARTICIPANTS || unique.length > MAX_PARTICIPANTS)
			throw invalidInput(
				ctx,
				itemIndex,
				`Participants: a group conversation takes ${MIN_PARTICIPANTS} to ${MAX_PARTICIPANTS} users (got ${unique.length})`,
			);
		const checked = checkMessage(ctx, itemIndex);
		const participantIds: string[] = [];
		for (const { ref } of unique) {
			const id = await resolveUserId.call(ctx, itemIndex, ref!);
			if (!participantIds.includes(id)) participantIds.push(id);
		}
		if (participantIds.length < MIN_PARTICIPANTS)
			throw invalidInput(
				ctx,
				itemIndex,
				`Participants: a group conversation takes ${MIN_PARTICIPANTS} to ${MAX_PARTICIPANTS} different users (got ${participantIds.length})`,
			);
		const { body: message, media } = await messageBody(ctx, itemIndex, checked);
		const response = await ctx.request({
			method: 'POST',
			path: '/2/dm_conversations',
			body: { conversation_type: 'Group', participant_ids: participantIds, message },
			unsafeFailureHint:
				'The conversation may have been created: check your direct messages before running the node again.',
		});
		return { ...sentMessage(response), participant_ids: participantIds, ...media };
	},
};
