import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { CONTRACT_USER_FIELDS, joinedFieldsQuery } from '../../../shared/contractFields';

/** The service's Space fields, expansions and the fields of users and topics they expand to. */
const SPACE_FIELDS = [
	'created_at',
	'creator_id',
	'ended_at',
	'host_ids',
	'invited_user_ids',
	'is_ticketed',
	'lang',
	'participant_count',
	'scheduled_start',
	'speaker_ids',
	'started_at',
	'state',
	'subscriber_count',
	'title',
	'topic_ids',
	'updated_at',
];
const SPACE_EXPANSIONS = ['creator_id', 'host_ids', 'invited_user_ids', 'speaker_ids', 'topic_ids'];
const TOPIC_FIELDS = ['description', 'name'];

/** A Space ID: 1 to 13 letters and digits (e.g. 1DXxyRYNejbKM). */
export const SPACE_ID = /^[a-zA-Z0-9]{1,13}$/;
/** A Space URL: https://<host>/i/spaces/<id>. */
export const SPACE_URL_REGEX = '^https?://[^/\\s]+/i/spaces/([a-zA-Z0-9]{1,13})(?:[/?#].*)?$';

/** A Space id from an id or a Space URL. */
export function spaceIdFrom(value: string): string | undefined {
	const trimmed = value.trim();
	if (SPACE_ID.test(trimmed)) return trimmed;
	return trimmed.match(new RegExp(SPACE_URL_REGEX, 'i'))?.[1];
}

/** The Space field of the operations that read one Space: by ID or by its URL. */
export const spaceLocator: INodeProperties = {
	displayName: 'Space',
	name: 'spaceId',
	type: 'resourceLocator',
	default: { mode: 'id', value: '' },
	required: true,
	description: 'The Space, by its ID or by its URL',
	modes: [
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: '1DXxyRYNejbKM',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: '^[a-zA-Z0-9]{1,13}$',
						errorMessage: 'A Space ID is 1-13 letters and digits',
					},
				},
			],
		},
		{
			displayName: 'By URL',
			name: 'url',
			type: 'string',
			placeholder: 'https://x.com/i/spaces/1DXxyRYNejbKM',
			extractValue: { type: 'regex', regex: SPACE_URL_REGEX },
			validation: [
				{
					type: 'regex',
					properties: { regex: SPACE_URL_REGEX, errorMessage: 'Not a Space URL' },
				},
			],
		},
	],
};

function multi(
	displayName: string,
	name: string,
	values: string[],
	description: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'multiOptions',
		default: [],
		description,
		options: values.map((value) => ({ name: value, value })),
	};
}

export const userFieldsOfUsersProperty = multi(
	'User Fields',
	'userFields',
	CONTRACT_USER_FIELDS,
	'User fields to return besides ID, name and username (user.fields)',
);

/** Fields and expansions of the Space reads. */
export const spaceFieldProperties: INodeProperties[] = [
	multi(
		'Space Fields',
		'spaceFields',
		SPACE_FIELDS,
		'Space fields to return besides ID and state (space.fields)',
	),
	multi(
		'Expansions',
		'spaceExpansions',
		SPACE_EXPANSIONS,
		'Related users and topics to return with each Space: e.g. creator_id adds the creator as "creator", host_ids the hosts as "hosts"',
	),
	multi(
		'User Fields',
		'userFields',
		CONTRACT_USER_FIELDS,
		'Fields of the expanded users (needs an expansion such as creator_id)',
	),
	multi(
		'Topic Fields',
		'topicFields',
		TOPIC_FIELDS,
		'Fields of the expanded topics besides ID (needs the topic_ids expansion)',
	),
];

export function spaceFieldQuery(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	return joinedFieldsQuery(
		(name) => ctx.getNodeParameter(name, itemIndex, []),
		[
			['spaceFields', 'space.fields'],
			['spaceExpansions', 'expansions'],
			['userFields', 'user.fields'],
			['topicFields', 'topic.fields'],
		],
	);
}

/** Where each expansion's objects go beside the Space. */
const EXPANDED: Array<[string, string]> = [
	['host_ids', 'hosts'],
	['speaker_ids', 'speakers'],
	['invited_user_ids', 'invited_users'],
];

function byId(list: unknown): Map<string, IDataObject> {
	return new Map(
		((Array.isArray(list) ? list : []) as IDataObject[]).map((o) => [String(o.id), o]),
	);
}

/** One item per Space, its expanded users and topics beside it (creator, hosts, speakers, topics). */
export function mergeSpaceIncludes(body: IDataObject): IDataObject[] {
	const spaces = (
		Array.isArray(body.data) ? body.data : body.data ? [body.data] : []
	) as IDataObject[];
	const includes = (body.includes ?? {}) as IDataObject;
	const users = byId(includes.users);
	const topics = byId(includes.topics);
	return spaces.map((space) => {
		const merged: IDataObject = { ...space };
		if (space.creator_id && users.has(String(space.creator_id)))
			merged.creator = users.get(String(space.creator_id));
		for (const [field, name] of EXPANDED) {
			const ids = (Array.isArray(space[field]) ? space[field] : []) as string[];
			const found = ids.map((id) => users.get(String(id))).filter(Boolean) as IDataObject[];
			if (found.length) merged[name] = found;
		}
		const topicIds = (Array.isArray(space.topic_ids) ? space.topic_ids : []) as string[];
		const foundTopics = topicIds
			.map((id) => topics.get(String(id)))
			.filter(Boolean) as IDataObject[];
		if (foundTopics.length) merged.topics = foundTopics;
		return merged;
	});
}
