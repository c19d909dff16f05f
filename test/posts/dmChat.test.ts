/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- credential type names in test parameters, not secrets */
/* eslint-disable @typescript-eslint/no-require-imports -- the sandbox is plain CommonJS */
/**
 * Direct Message (conversations, events, deleting, blocking) and Chat (conversations, messages,
 * media, public keys) against the local sandbox, whose answers are stateful: what one operation
 * creates, the next one reads.
 */
import { createHash } from 'node:crypto';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { binaryItem, rl, run, runFailing } from './helpers';

const { createSandbox } = require('../../sandbox/server');

type Sandbox = {
	url: string;
	keys: Record<string, string>;
	close(): Promise<void>;
	chatSample(): { conversationId: string; groupId: string; mediaHashKey: string };
};
let sb: Sandbox;
let credentials: Record<string, ICredentialDataDecryptedObject>;
const OTHER = '1000000002';

beforeAll(async () => {
	sb = await createSandbox({ quiet: true }).listen(0);
	credentials = {
		platformOAuth2Api: {
			clientId: 'sandbox-client',
			clientSecret: 'sandbox-client-secret',
			oauthTokenData: { access_token: sb.keys.oauth2UserToken },
			baseUrl: sb.url,
			webUrl: sb.url,
		},
		platformOAuth1Api: {
			consumerKey: sb.keys.consumerKey,
			consumerSecret: sb.keys.consumerSecret,
			accessToken: sb.keys.accessToken,
			accessTokenSecret: sb.keys.accessTokenSecret,
			baseUrl: sb.url,
			adsBaseUrl: sb.url,
		},
	};
});
afterAll(async () => await sb.close());

const dm = (parameters: IDataObject, items?: Parameters<typeof run>[1]) =>
	run({ resource: 'directMessage', ...parameters }, items, { credentials });
const chat = (parameters: IDataObject, items?: Parameters<typeof run>[1]) =>
	run({ resource: 'chat', ...parameters }, items, { credentials });
const failing = (parameters: IDataObject) => runFailing(parameters, undefined, { credentials });

describe('Direct Message: conversations and events', () => {
	it('creates a group conversation, sends to it by ID and reads its events newest first, senders beside them', async () => {
		const created = await dm({
			operation: 'createGroupConversation',
			participantIds: `${OTHER}, 1000000003`,
			text: 'Welcome, both of you',
			attachment: 'none',
		});
		const conversationId = String(created.output[0].json.dm_conversation_id);
		expect(conversationId).toMatch(/^\d{15,19}$/);
		expect(created.output[0].json.participant_ids).toEqual([OTHER, '1000000003']);

		const sent = await dm({
			operation: 'sendToConversation',
			conversationId,
			text: 'Second message',
			attachment: 'none',
		});
		expect(sent.output[0].json.dm_conversation_id).toBe(conversationId);

		const { output, requests } = await dm({
			operation: 'getConversationEvents',
			conversationBy: 'conversationId',
			conversationId,
			returnAll: true,
			eventTypes: [],
			dmFields: { eventFields: ['sender_id', 'participant_ids'], expansions: ['sender_id'] },
		});
		expect(output.map((o) => [o.json.event_type, o.json.text])).toEqual([
			['MessageCreate', 'Second message'],
			['MessageCreate', 'Welcome, both of you'],
			['ParticipantsJoin', undefined],
		]);
		expect((output[0].json.sender as IDataObject).username).toBe(sb.keys.username);
		expect(output[2].json.participant_ids).toEqual([sb.keys.userId, OTHER, '1000000003']);
		expect(new URL(requests[0].url).searchParams.get('expansions')).toBe('sender_id');
	});

	it('reads the one-to-one conversation with a user given by username, page by page up to the limit', async () => {
		for (const text of ['one', 'two', 'three'])
			await dm({ operation: 'send', participant: rl(OTHER), text, attachment: 'none' });
		const { output, requests } = await dm({
			operation: 'getConversationEvents',
			conversationBy: 'participant',
			participant: rl('other_person', 'username'),
			returnAll: false,
			limit: 2,
			eventTypes: ['MessageCreate'],
			dmFields: {},
		});
		expect(output.map((o) => o.json.text)).toEqual(['three', 'two']);
		expect(new URL(requests[1].url).pathname).toBe(`/2/dm_conversations/with/${OTHER}/dm_events`);
	});

	it('gets an event by ID, deletes it, and then no longer finds it', async () => {
		const sent = await dm({
			operation: 'send',
			participant: rl(OTHER),
			text: 'Oops',
			attachment: 'none',
		});
		const eventId = String(sent.output[0].json.dm_event_id);
		const got = await dm({
			operation: 'getEvent',
			eventId,
			dmFields: { eventFields: ['sender_id', 'dm_conversation_id'], expansions: ['sender_id'] },
		});
		expect(got.output[0].json).toMatchObject({
			id: eventId,
			text: 'Oops',
			dm_conversation_id: `${sb.keys.userId}-${OTHER}`,
			sender: { id: sb.keys.userId },
		});
		const deleted = await dm({ operation: 'deleteEvent', eventId });
		expect(deleted.output[0].json).toEqual({ dm_event_id: eventId, deleted: true });
		const { error } = await failing({ resource: 'directMessage', operation: 'getEvent', eventId });
		expect(error.httpCode).toBe('404');
	});

	it('blocks direct messages from a user (a message to them is refused) and unblocks them', async () => {
		const blocked = await dm({ operation: 'blockDms', dmUser: rl(OTHER) });
		expect(blocked.output[0].json).toEqual({ blocked: true, target_user_id: OTHER });
		const { error } = await failing({
			resource: 'directMessage',
			operation: 'send',
			participant: rl(OTHER),
			text: 'Hello?',
			attachment: 'none',
		});
		expect(error.httpCode).toBe('403');
		const unblocked = await dm({ operation: 'unblockDms', dmUser: rl(OTHER) });
		expect(unblocked.output[0].json.blocked).toBe(false);
		const sent = await dm({
			operation: 'send',
			participant: rl(OTHER),
			text: 'Hello!',
			attachment: 'none',
		});
		expect(sent.output[0].json.dm_event_id).toMatch(/^\d+$/);
	});

	it.each([
		[
			{
				operation: 'createGroupConversation',
				participantIds: OTHER,
				text: 'Hi',
				attachment: 'none',
			},
			'Invalid input in item 1: Participants: a group conversation takes 2 to 49 users (got 1)',
		],
		[
			{
				operation: 'createGroupConversation',
				participantIds: `${OTHER}, ${OTHER}`,
				text: 'Hi',
				attachment: 'none',
			},
			'Invalid input in item 1: Participants: a group conversation takes 2 to 49 users (got 1)',
		],
		[
			{
				operation: 'createGroupConversation',
				participantIds: `${OTHER}, user!`,
				text: 'Hi',
				attachment: 'none',
			},
			'Invalid input in item 1: Participants: "user!" is not a user ID, username or profile URL',
		],
		[
			{ operation: 'sendToConversation', conversationId: 'abc', text: 'Hi', attachment: 'none' },
			'Invalid input in item 1: Conversation ID: "abc" is not a conversation ID (15-19 digits, or two user IDs joined by "-")',
		],
		[
			{
				operation: 'sendToConversation',
				conversationId: `1-2`,
				text: 'x'.repeat(10_001),
				attachment: 'none',
			},
			'Invalid input in item 1: Text: at most 10000 characters (got 10001)',
		],
		[
			{ operation: 'getEvent', eventId: '12ab' },
			'Invalid input in item 1: Event ID: "12ab" is not an event ID (1-19 digits)',
		],
	])('refuses bad input before any request: %j', async (parameters, message) => {
		const { error, requests } = await failing({ resource: 'directMessage', ...parameters });
		expect(error.message).toBe(message);
		expect(requests).toHaveLength(0);
	});
});

describe('Chat', () => {
	it('lists the conversations with their participants beside them', async () => {
		const { output } = await chat({
			operation: 'getManyConversations',
			returnAll: true,
			chatFields: { conversationFields: ['participant_ids'], expansions: ['participant_ids'] },
		});
		expect(output.map((o) => o.json.id).sort()).toEqual(
			[sb.chatSample().conversationId, sb.chatSample().groupId].sort(),
		);
		expect(
			((output[0].json.participants as IDataObject[]) ?? []).map((u) => u.username).sort(),
		).toEqual(['other_person', sb.keys.username]);
	});

	it('sends an encoded message, finds it first in the conversation and marks the conversation read up to it', async () => {
		const conversationId = sb.chatSample().conversationId;
		const encoded = Buffer.from('encrypted bytes').toString('base64');
		const sent = await chat({
			operation: 'sendMessage',
			conversationId,
			messageId: 'msg-1',
			encodedMessageCreateEvent: encoded,
			chatMessageFields: {},
		});
		expect(sent.output[0].json.encoded_message_event).toEqual(expect.any(String));
		const { output } = await chat({
			operation: 'getMessages',
			conversationId,
			returnAll: true,
			messageFields: ['sender_id'],
		});
		expect(output[0].json).toMatchObject({
			id: 'msg-1',
			encoded_event: encoded,
			sender_id: sb.keys.userId,
		});
		const read = await chat({
			operation: 'markRead',
			conversationId,
			seenUntilSequenceId: String(output[0].json.sequence_id),
		});
		expect(read.output[0].json.success).toBe(true);
		const { error } = await failing({
			resource: 'chat',
			operation: 'markRead',
			conversationId,
			seenUntilSequenceId: '999999999',
		});
		expect(error.httpCode).toBe('400');
	});

	it('uploads a file of three segments and downloads the same bytes as a binary file', async () => {
		const conversationId = sb.chatSample().groupId;
		const bytes = Buffer.alloc(9 * 1024 * 1024, 7);
		bytes.write('encrypted', 0);
		const uploaded = await chat(
			{
				operation: 'uploadMedia',
				conversationId,
				binaryPropertyName: 'data',
				chatUploadFields: {},
			},
			[binaryItem(bytes, 'application/octet-stream')],
		);
		expect(uploaded.output[0].json).toMatchObject({
			conversation_id: conversationId,
			segments: 3,
			size: bytes.length,
		});
		expect(
			uploaded.requests.map((r) =>
				new URL(r.url).pathname.replace(/\/upload\/\d+\//, '/upload/:id/'),
			),
		).toEqual([
			'/2/chat/media/upload/initialize',
			'/2/chat/media/upload/:id/append',
			'/2/chat/media/upload/:id/append',
			'/2/chat/media/upload/:id/append',
			'/2/chat/media/upload/:id/finalize',
		]);
		const downloaded = await chat({
			operation: 'downloadMedia',
			conversationId,
			mediaHashKey: String(uploaded.output[0].json.media_hash_key),
			binaryPropertyOutput: 'file',
		});
		const file = downloaded.output[0].binary!.file;
		const back = Buffer.from(file.data, 'base64');
		expect(createHash('sha256').update(back).digest('hex')).toBe(
			createHash('sha256').update(bytes).digest('hex'),
		);
		expect(downloaded.output[0].json.size).toBe(bytes.length);
	});

	it("reports a missing media file with the service's error, not a binary", async () => {
		const { error } = await failing({
			resource: 'chat',
			operation: 'downloadMedia',
			conversationId: sb.chatSample().conversationId,
			mediaHashKey: 'NoSuchKey',
			binaryPropertyOutput: 'data',
		});
		expect(error.httpCode).toBe('404');
		expect(error.message).toMatch(/NoSuchKey/);
	});

	it('adds a public key for the authenticated user and reads it back', async () => {
		const added = await run(
			{
				resource: 'chat',
				operation: 'addPublicKey',
				keyVersion: '7',
				publicKey: 'cHVibGlj',
				publicKeyDetails: { signingPublicKey: 'c2lnbmluZw==' },
			},
			undefined,
			{ credentials, authentication: 'platformOAuth1Api' },
		);
		expect(added.output[0].json).toMatchObject({ user_id: sb.keys.userId, version: '7' });
		const { output } = await chat({
			operation: 'getPublicKeys',
			keyUser: rl(sb.keys.username, 'username'),
			publicKeyFields: ['version', 'signing_public_key'],
		});
		expect(output.map((o) => o.json)).toEqual([
			{ user_id: sb.keys.userId, version: '7', signing_public_key: 'c2lnbmluZw==' },
		]);
	});

	it.each([
		[
			{ operation: 'getMessages', conversationId: '12345' },
			'Conversation ID: "12345" is not a chat conversation ID',
		],
		[
			{
				operation: 'downloadMedia',
				conversationId: 'g123',
				mediaHashKey: 'a/b',
				binaryPropertyOutput: 'data',
			},
			'Media Hash Key: "a/b" is not a media hash key',
		],
		[
			{
				operation: 'sendMessage',
				conversationId: 'g123',
				messageId: ' ',
				encodedMessageCreateEvent: 'eA==',
			},
			'Message ID is empty',
		],
	])('refuses bad input before any request: %j', async (parameters, message) => {
		const { error, requests } = await failing({ resource: 'chat', ...parameters });
		expect(error.message).toContain(message);
		expect(requests).toHaveLength(0);
	});

	it('refuses the app-only bearer token before any request', async () => {
		const { error, requests } = await runFailing(
			{ resource: 'chat', operation: 'getManyConversations', returnAll: true },
			undefined,
			{ authentication: 'platformBearerApi' },
		);
		expect(error.message).toBe(
			'Get many chat conversations needs OAuth2 (User Context), OAuth1 Keys (User Context) or OAuth1 Connect Account (User Context) authentication',
		);
		expect(requests).toHaveLength(0);
	});
});
