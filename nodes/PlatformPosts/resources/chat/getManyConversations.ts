import type { IDataObject } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { CONTRACT_USER_FIELDS } from '../../../shared/contractFields';
import { choices } from './common';

const CONVERSATION_FIELDS = [
	'admin_ids',
	'created_at',
	'group_avatar_url',
	'group_name',
	'id',
	'is_muted',
	'member_ids',
	'message_ttl_msec',
	'participant_ids',
	'screen_capture_blocking_enabled',
	'screen_capture_detection_enabled',
	'type',
	'updated_at',
];
const EXPANSIONS = ['admin_ids', 'member_ids', 'participant_ids'];
/** Each expansion's users go beside the conversation under this name. */
const EXPANDED_AS: Record<string, string> = {
	participant_ids: 'participants',
	member_ids: 'members',
	admin_ids: 'admins',
};

export const getManyConversations: ItemOperation = {
	option: {
		name: 'Get Many Conversations',
		value: 'getManyConversations',
		description:
			"List the chat conversations of the authenticated user's inbox, one-to-one and groups. Group names come encrypted. Needs a user-context credential (OAuth2 scopes dm.read, users.read).",
		action: 'Get many chat conversations',
	},
	properties: [
		returnAllProperty(),
		limitProperty(10000),
		{
			displayName: 'Fields',
			name: 'chatFields',
			type: 'collection',
			placeholder: 'Add Fields',
			default: {},
			options: [
				{
					displayName: 'Conversation Fields',
					name: 'conversationFields',
					type: 'multiOptions',
					default: [],
					options: choices(CONVERSATION_FIELDS),
					description: 'Conversation fields to return (chat_conversation.fields) besides ID',
				},
				{
					displayName: 'Expansions',
					name: 'expansions',
					type: 'multiOptions',
					default: [],
					options: choices(EXPANSIONS),
					description:
						'Users to put beside each conversation: participant_ids as participants, member_ids as members, admin_ids as admins',
				},
				{
					displayName: 'User Fields',
					name: 'userFields',
					type: 'multiOptions',
					default: [],
					options: choices(CONTRACT_USER_FIELDS),
					description: 'Fields of the expanded users',
				},
			],
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const chosen = (ctx.getNodeParameter('chatFields', itemIndex, {}) ?? {}) as IDataObject;
		const qs: IDataObject = {};
		const list = (name: string) => ((chosen[name] ?? []) as string[]).filter(Boolean);
		if (list('conversationFields').length)
			qs['chat_conversation.fields'] = list('conversationFields').join(',');
		const expansions = list('expansions');
		if (expansions.length) qs.expansions = expansions.join(',');
		if (list('userFields').length) qs['user.fields'] = list('userFields').join(',');
		const users = new Map<string, IDataObject>();
		const conversations = await ctx.paginate(
			{ method: 'GET', path: '/2/chat/conversations', qs },
			{
				returnAll: ctx.getNodeParameter('returnAll', itemIndex, false) as boolean,
				limit: ctx.getNodeParameter('limit', itemIndex, 50) as number,
				pageSizeParam: 'max_results',
				maxPageSize: 100,
				tokenParam: 'pagination_token',
				onPage: (body) => {
					const found = ((body.includes as IDataObject | undefined)?.users ?? []) as IDataObject[];
					for (const u of found) users.set(String(u.id), u);
				},
			},
		);
		return conversations.map((conversation) => {
			const out: IDataObject = { ...conversation };
			for (const expansion of expansions) {
				const ids = (conversation[expansion] ?? []) as string[];
				const found = ids.map((id) => users.get(String(id))).filter(Boolean) as IDataObject[];
				if (found.length) out[EXPANDED_AS[expansion]] = found;
			}
			return out;
		});
	},
};
