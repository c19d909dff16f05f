import nock from 'nock';

import { BASE } from '../helpers/context';
import { binaryItem, PNG, rl, run, runFailing, setupNock } from './helpers';

setupNock();

describe('Direct Message → Send', () => {
	it('sends text to a user given by username', async () => {
		nock(BASE)
			.get('/2/users/by/username/jack')
			.reply(200, { data: { id: '12' } });
		nock(BASE)
			.post('/2/dm_conversations/with/12/messages', { text: 'Hello' })
			.reply(201, { data: { dm_conversation_id: '12-42', dm_event_id: '900' } });
		const { output } = await run({
			resource: 'directMessage',
			operation: 'send',
			participant: rl('jack', 'username'),
			text: 'Hello',
			attachment: 'none',
		});
		expect(output[0].json).toEqual({
			dm_conversation_id: '12-42',
			dm_event_id: '900',
			participant_id: '12',
		});
	});

	it('attaches an existing media id', async () => {
		nock(BASE)
			.post('/2/dm_conversations/with/12/messages', { attachments: [{ media_id: '555' }] })
			.reply(201, { data: { dm_conversation_id: 'c', dm_event_id: 'e' } });
		const { output } = await run({
			resource: 'directMessage',
			operation: 'send',
			participant: rl('12', 'id'),
			text: '',
			attachment: 'mediaId',
			mediaId: '555',
		});
		expect(output[0].json.media_id).toBe('555');
	});

	it('uploads a binary image as dm_image, then sends it with the text', async () => {
		nock(BASE)
			.post(
				'/2/media/upload/initialize',
				(b) =>
					b.media_type === 'image/png' &&
					b.total_bytes === PNG.length &&
					b.media_category === 'dm_image',
			)
			.reply(200, { data: { id: '777' } })
			.post('/2/media/upload/777/append')
			.reply(200, {})
			.post('/2/media/upload/777/finalize')
			.reply(200, { data: { id: '777' } })
			.post('/2/dm_conversations/with/12/messages', {
				text: 'Look',
				attachments: [{ media_id: '777' }],
			})
			.reply(201, { data: { dm_conversation_id: 'c', dm_event_id: 'e' } });
		const { output, requests } = await run(
			{
				resource: 'directMessage',
				operation: 'send',
				participant: rl('12', 'id'),
				text: 'Look',
				attachment: 'binary',
				binaryPropertyName: 'data',
			},
			[binaryItem(PNG, 'image/png')],
		);
		expect(requests.map((r) => new URL(r.url).pathname)).toEqual([
			'/2/media/upload/initialize',
			'/2/media/upload/777/append',
			'/2/media/upload/777/finalize',
			'/2/dm_conversations/with/12/messages',
		]);
		expect(output[0].json.media_id).toBe('777');
	});

	it('refuses a message without text or attachment before any request', async () => {
		const { error, requests } = await runFailing({
			resource: 'directMessage',
			operation: 'send',
			participant: rl('12', 'id'),
			text: ' ',
			attachment: 'none',
		});
		expect(error.message).toBe(
			'Invalid input in item 1: Text: a message needs text or an attachment',
		);
		expect(requests).toHaveLength(0);
	});
});

describe('Direct Message → Get Many Events', () => {
	it('pages up to the limit with event types, fields and the sender merged', async () => {
		nock(BASE)
			.get('/2/dm_events')
			.query({
				max_results: '3',
				event_types: 'MessageCreate',
				'dm_event.fields': 'created_at,sender_id',
				expansions: 'sender_id',
			})
			.reply(200, {
				data: [
					{ id: '1', sender_id: '9' },
					{ id: '2', sender_id: '8' },
				],
				includes: { users: [{ id: '9', username: 'jack' }] },
				meta: { next_token: 'n2' },
			})
			.get('/2/dm_events')
			.query({
				max_results: '1',
				event_types: 'MessageCreate',
				'dm_event.fields': 'created_at,sender_id',
				expansions: 'sender_id',
				pagination_token: 'n2',
			})
			.reply(200, {
				data: [{ id: '3', sender_id: '9' }],
				includes: { users: [{ id: '9', username: 'jack' }] },
				meta: { next_token: 'n3' },
			});
		const { output } = await run({
			resource: 'directMessage',
			operation: 'getManyEvents',
			returnAll: false,
			limit: 3,
			eventTypes: ['MessageCreate'],
			eventFields: ['created_at'],
			includeSender: true,
		});
		expect(output.map((o) => o.json)).toEqual([
			{ id: '1', sender_id: '9', sender: { id: '9', username: 'jack' } },
			{ id: '2', sender_id: '8' },
			{ id: '3', sender_id: '9', sender: { id: '9', username: 'jack' } },
		]);
	});
});
