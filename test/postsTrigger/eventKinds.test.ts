/**
 * What the Poll Trigger's items are called (issue 47, hole 7): Spaces by their state, a Space seen
 * scheduled emitted again when it starts; direct message joins and leaves never as messages, the
 * user's own messages left out on request (version 1.1; version 1 keeps its output); a conversation id
 * the contract refuses stopped before any request.
 */
import nock from 'nock';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { poll } from '../../nodes/triggers/poll/poll';
import { CREDENTIAL_TYPES } from '../../nodes/shared/transport';
import { BASE } from '../helpers/context';
import { USER_42_SPACES, pollContext, serveDirectMessages, serveSpaces } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const USER = '42';
const ME = '7';

function kinds(result: INodeExecutionData[][] | null): Array<[string, string]> {
	return (result?.[0] ?? []).map((i) => [String(i.json.event_type), String(i.json.event_id)]);
}

describe('Spaces', () => {
	const spaces: IDataObject[] = [];
	let staticData: IDataObject;
	const space = (id: string, state: string, minute: number) => ({
		id,
		state,
		title: `Space ${id}`,
		creator_id: USER,
		created_at: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
	});
	const setState = (id: string, state: string) => {
		const found = spaces.find((s) => s.id === id)!;
		found.state = state;
	};
	const run = async (typeVersion: number) =>
		await poll.call(pollContext(USER_42_SPACES, staticData, 'trigger', {}, typeVersion).context);

	beforeEach(() => {
		spaces.length = 0;
		staticData = {};
		serveSpaces(spaces);
	});

	it('version 1.1: an ended Space is spaces.end, never spaces.scheduled', async () => {
		expect(await run(1.1)).toBeNull();
		spaces.push(space('1DXxyRYNejbKM', 'ended', 1));
		expect(kinds(await run(1.1))).toEqual([['spaces.end', 'space:1DXxyRYNejbKM:ended']]);
	});

	it('version 1.1: a Space first seen scheduled emits spaces.start once when it goes live, and spaces.end when it ends', async () => {
		spaces.push(space('1YqKDqWqdPLsV', 'scheduled', 1));
		expect(await run(1.1)).toBeNull();
		spaces.push(space('1vOxwrejgYaJB', 'scheduled', 2));
		expect(kinds(await run(1.1))).toEqual([['spaces.scheduled', 'space:1vOxwrejgYaJB:scheduled']]);
		expect(await run(1.1)).toBeNull();
		// Both go live: the one there before activation too.
		setState('1YqKDqWqdPLsV', 'live');
		setState('1vOxwrejgYaJB', 'live');
		expect(kinds(await run(1.1))).toEqual([
			['spaces.start', 'space:1YqKDqWqdPLsV:live'],
			['spaces.start', 'space:1vOxwrejgYaJB:live'],
		]);
		expect(await run(1.1)).toBeNull();
		setState('1vOxwrejgYaJB', 'ended');
		expect(kinds(await run(1.1))).toEqual([['spaces.end', 'space:1vOxwrejgYaJB:ended']]);
		expect(await run(1.1)).toBeNull();
	});

	it('version 1.1: a Space scheduled at the first poll and live at the next emits spaces.start', async () => {
		spaces.push(space('1YqKDqWqdPLsV', 'scheduled', 1));
		expect(await run(1.1)).toBeNull();
		setState('1YqKDqWqdPLsV', 'live');
		expect(kinds(await run(1.1))).toEqual([['spaces.start', 'space:1YqKDqWqdPLsV:live']]);
		expect(await run(1.1)).toBeNull();
	});

	it('version 1 keeps its output: each Space once, live as spaces.start, any other as spaces.scheduled', async () => {
		spaces.push(space('1YqKDqWqdPLsV', 'scheduled', 1));
		expect(await run(1)).toBeNull();
		spaces.push(space('1DXxyRYNejbKM', 'ended', 2));
		expect(kinds(await run(1))).toEqual([['spaces.scheduled', 'space:1DXxyRYNejbKM']]);
		setState('1YqKDqWqdPLsV', 'live');
		expect(await run(1)).toBeNull();
	});
});

describe('direct messages', () => {
	const events: IDataObject[] = [];
	let queries: Array<Record<string, string>>;
	let staticData: IDataObject;
	let n = 0;
	const add = (event: IDataObject) => {
		const id = String(BigInt('1900000000000000000') + BigInt(++n) * BigInt(1000));
		events.push({ id, dm_conversation_id: `${ME}-${USER}`, ...event });
		return id;
	};
	const run = async (typeVersion: number, parameters: IDataObject = {}) =>
		await poll.call(
			pollContext(
				{ event: 'directMessages', authentication: CREDENTIAL_TYPES.pkce, ...parameters },
				staticData,
				'trigger',
				{},
				typeVersion,
			).context,
		);

	beforeEach(() => {
		events.length = 0;
		staticData = {};
		queries = serveDirectMessages(ME, events);
	});

	const conversation = () => {
		const received = add({ event_type: 'MessageCreate', text: 'hi', sender_id: USER });
		const joined = add({ event_type: 'ParticipantsJoin', sender_id: ME, participant_ids: ['99'] });
		const sent = add({ event_type: 'MessageCreate', text: 'welcome', sender_id: ME });
		const left = add({ event_type: 'ParticipantsLeave', sender_id: '99', participant_ids: ['99'] });
		return { received, joined, sent, left };
	};

	it('version 1.1: joins and leaves are left out (asked for messages only), never emitted as messages', async () => {
		expect(await run(1.1)).toBeNull();
		const { received, sent } = conversation();
		expect(kinds(await run(1.1))).toEqual([
			['dm.received', received],
			['dm.sent', sent],
		]);
		expect(queries.every((q) => q.event_types === 'MessageCreate')).toBe(true);
	});

	it('version 1.1 with Include Joins and Leaves: they are dm.participants_join and dm.participants_leave', async () => {
		expect(await run(1.1, { joinsAndLeaves: true })).toBeNull();
		const { received, joined, sent, left } = conversation();
		expect(kinds(await run(1.1, { joinsAndLeaves: true }))).toEqual([
			['dm.received', received],
			['dm.participants_join', joined],
			['dm.sent', sent],
			['dm.participants_leave', left],
		]);
		expect(queries.every((q) => q.event_types === undefined)).toBe(true);
	});

	it('version 1.1 with Leave Out My Messages: what the authenticated user sent starts nothing', async () => {
		expect(await run(1.1, { excludeOwn: true })).toBeNull();
		const { received } = conversation();
		expect(kinds(await run(1.1, { excludeOwn: true }))).toEqual([['dm.received', received]]);
		// Its own message alone: nothing emitted, and it is not emitted later either.
		add({ event_type: 'MessageCreate', text: 'thanks', sender_id: ME });
		expect(await run(1.1, { excludeOwn: true })).toBeNull();
		expect(await run(1.1)).toBeNull();
	});

	it('version 1 keeps its output: every event, joins and leaves as messages', async () => {
		expect(await run(1)).toBeNull();
		const { received, joined, sent, left } = conversation();
		expect(kinds(await run(1))).toEqual([
			['dm.received', received],
			['dm.sent', joined],
			['dm.sent', sent],
			['dm.received', left],
		]);
		expect(queries.every((q) => q.event_types === undefined)).toBe(true);
	});
});

describe('conversation id', () => {
	it.each(['123', '12345678901234567890', '1-2-3', 'abc'])(
		'%s, which the contract refuses, fails before any request, naming the field',
		async (conversationId) => {
			const built = pollContext(
				{ event: 'conversationMessages', authentication: CREDENTIAL_TYPES.pkce, conversationId },
				{},
			);
			const error = (await poll.call(built.context).catch((e: unknown) => e)) as Error;
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toContain('Conversation ID');
			expect(built.requests).toHaveLength(0);
		},
	);

	it.each(['1346889436626259968', '7-42'])('%s is taken', async (conversationId) => {
		nock(BASE)
			.get('/2/users/me')
			.reply(200, { data: { id: ME } });
		nock(BASE)
			.get(`/2/dm_conversations/${conversationId}/dm_events`)
			.query(true)
			.reply(200, { meta: { result_count: 0 } });
		const built = pollContext(
			{ event: 'conversationMessages', authentication: CREDENTIAL_TYPES.pkce, conversationId },
			{},
		);
		expect(await poll.call(built.context)).toBeNull();
		expect(nock.isDone()).toBe(true);
	});
});
