'use strict';
/**
 * Platform Posts' direct message conversations and the encrypted chat inside n8n, against the
 * sandbox: what one node creates, the next reads, under each credential kind the operations take.
 */
const { T, CRED, node, chain, workflow, webhookStart, credRef } = require('../lib/fixtures');

const OTHER = '1000000002';
/** The chat media the sandbox seeds in the one-to-one conversation, and its bytes. */
const SEEDED_HASH_KEY = 'SandboxChatMedia1';
const SEEDED_BYTES = Buffer.from('sandbox encrypted media bytes');
const GROUP_CHAT = 'g1790000000000000100';

const posts = (name, parameters, position, credential) =>
	node(name, T.posts, 1.1, parameters, position, { credentials: credRef(credential) });

module.exports = [
	{
		name: 'dm-chat: Direct Message > Create Group Conversation, Send to Conversation and Get Conversation Events',
		needs: [
			'platformPosts:directMessage.createGroupConversation',
			'platformPosts:directMessage.sendToConversation',
			'platformPosts:directMessage.getConversationEvents',
		],
		modes: ['regular'],
		workflows: () => [
			workflow(
				'e2eDmGroup00001',
				'e2e dm group conversation',
				[
					webhookStart('e2e-dm-group'),
					posts(
						'Create Group',
						{
							authentication: 'platformOAuth2Api',
							resource: 'directMessage',
							operation: 'createGroupConversation',
							participantIds: `${OTHER}, 1000000003`,
							text: 'Welcome to the group',
							attachment: 'none',
						},
						[250, 0],
						CRED.oauth2,
					),
					posts(
						'Send to Group',
						{
							authentication: 'platformOAuth1Api',
							resource: 'directMessage',
							operation: 'sendToConversation',
							conversationId: '={{ $json.dm_conversation_id }}',
							text: 'A second message',
							attachment: 'none',
						},
						[500, 0],
						CRED.oauth1,
					),
					posts(
						'Group Events',
						{
							authentication: 'platformOAuth1ConnectApi',
							resource: 'directMessage',
							operation: 'getConversationEvents',
							conversationBy: 'conversationId',
							conversationId: "={{ $('Create Group').item.json.dm_conversation_id }}",
							returnAll: true,
							dmFields: { eventFields: ['sender_id'], expansions: ['sender_id'] },
						},
						[750, 0],
						CRED.connect,
					),
				],
				chain(['Start', 'Create Group', 'Send to Group', 'Group Events']),
				{ active: true },
			),
		],
		publish: () => ['e2eDmGroup00001'],
		async run(ctx) {
			const { assert } = ctx;
			const since = ctx.seq();
			const items = await ctx.call('e2e-dm-group');
			assert.deepEqual(
				items.map((i) => [i.event_type, i.text || '']),
				[
					['MessageCreate', 'A second message'],
					['MessageCreate', 'Welcome to the group'],
					['ParticipantsJoin', ''],
				],
			);
			assert.equal(items[0].sender.username, ctx.keys.username);
			const rows = ctx.assertAllAuthValid(since);
			const created = rows.find((r) => r.method === 'POST' && r.path === '/2/dm_conversations');
			assert.ok(created, 'no POST /2/dm_conversations');
			assert.equal(created.status, 201);
			assert.equal(created.auth.kind, 'oauth2');
			assert.deepEqual(created.body.participant_ids, [OTHER, '1000000003']);
			const conversation = created.response.data.dm_conversation_id;
			const sent = rows.find((r) => r.path === `/2/dm_conversations/${conversation}/messages`);
			assert.equal(sent && sent.status, 201);
			assert.equal(sent.auth.kind, 'oauth1');
			const read = rows.find((r) => r.path === `/2/dm_conversations/${conversation}/dm_events`);
			assert.equal(read.query.expansions, 'sender_id');
		},
	},
	{
		name: 'dm-chat: Chat > Download Media, Upload Media and Download Media again give back the same bytes',
		needs: ['platformPosts:chat.downloadMedia', 'platformPosts:chat.uploadMedia'],
		modes: ['regular'],
		workflows: (ctx) => [
			workflow(
				'e2eChatMedia001',
				'e2e chat media',
				[
					webhookStart('e2e-chat-media'),
					posts(
						'Download Seeded',
						{
							authentication: 'platformOAuth1Api',
							resource: 'chat',
							operation: 'downloadMedia',
							conversationId: `${ctx.keys.userId}-${OTHER}`,
							mediaHashKey: SEEDED_HASH_KEY,
							binaryPropertyOutput: 'data',
						},
						[250, 0],
						CRED.oauth1,
					),
					posts(
						'Upload to Group',
						{
							authentication: 'platformOAuth2Api',
							resource: 'chat',
							operation: 'uploadMedia',
							conversationId: GROUP_CHAT,
							binaryPropertyName: 'data',
						},
						[500, 0],
						CRED.oauth2,
					),
					posts(
						'Download Uploaded',
						{
							authentication: 'platformOAuth1ConnectApi',
							resource: 'chat',
							operation: 'downloadMedia',
							conversationId: '={{ $json.conversation_id }}',
							mediaHashKey: '={{ $json.media_hash_key }}',
							binaryPropertyOutput: 'file',
						},
						[750, 0],
						CRED.connect,
					),
				],
				chain(['Start', 'Download Seeded', 'Upload to Group', 'Download Uploaded']),
				{ active: true },
			),
		],
		publish: () => ['e2eChatMedia001'],
		async run(ctx) {
			const { assert } = ctx;
			const since = ctx.seq();
			const items = await ctx.call('e2e-chat-media');
			assert.equal(items.length, 1);
			assert.equal(items[0].conversation_id, GROUP_CHAT);
			assert.equal(items[0].size, SEEDED_BYTES.length);
			const rows = ctx.assertAllAuthValid(since);
			assert.deepEqual(
				rows.map(
					(r) => `${r.method} ${r.path.replace(/upload\/\d+\//, 'upload/:id/')} ${r.status}`,
				),
				[
					`GET /2/chat/media/${ctx.keys.userId}-${OTHER}/${SEEDED_HASH_KEY} 200`,
					'POST /2/chat/media/upload/initialize 200',
					'POST /2/chat/media/upload/:id/append 200',
					'POST /2/chat/media/upload/:id/finalize 200',
					`GET /2/chat/media/${GROUP_CHAT}/${items[0].media_hash_key} 200`,
				],
			);
			// The bytes n8n uploaded are the bytes it downloaded: the group's copy is served back as they came.
			const last = rows[rows.length - 1];
			assert.ok(Buffer.isBuffer(last.response), 'the download answered no bytes');
			assert.ok(
				last.response.equals(SEEDED_BYTES),
				'the uploaded bytes differ from the downloaded ones',
			);
			assert.equal(rows[2].body.segment_index, 0);
		},
	},
];
