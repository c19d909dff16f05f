import nock from 'nock';

import { BASE } from '../helpers/context';
import { binaryItem, PNG, rl, run, runFailing, setupNock } from '../posts/helpers';

setupNock();

describe('Direct Message → Send', () => {
	it('sends text to a user given by username', async () => {
		nock(BASE).get('/2/users/by/username/jack').reply(200, { data: { id: '12' } });
		nock(BASE)
			.post('/2/dm_conversations/with/12/messages', { text: 'Hello' })
			.reply(201, { data: { dm_conversation_id: '12-42', dm_event_id: '900' } });
		const { output } = await run({ resource: 'directMessage', operation: 'send', participant: rl('jack', 'username'), text: 'Hello', attachment: 'none' });
		expect(output[0].json).toEqual({ dm_conversation_id: '12-42', dm_event_id: '900', participant_id: '12' });
	});

	it('attaches an existing media id', async () => {
		nock(BASE)
			.post('/2/dm_conversations/with/12/messages', { attachments: [{ media_id: '555' }] })
			.reply(201, { data: { dm_conversation_id: 'c', dm_event_id: 'e' } });
		const { output } = await run({ resource: 'directMessage', operation: 'send', participant: rl('12', 'id'), text: '', attachment: 'mediaId', mediaId: '555' });
		expect(output[0].json.media_id).toBe('555');
	});

	it('uploads a binary image as dm_image, then sends it with the text', async () => {
		nock(BASE)
			.post('/2/media/upload/initialize', (b) => b.media_type === 'image/png' && b.total_bytes === PNG.length && b.media_category === 'dm_image')
			.reply(200, { data: { id: '777' } })
			.post('/2/media/upload/777/append')
			.reply(200, {})
			.post('/2/media/upload/777/finalize')
			.reply(200, { data: { id: '777' } })
			.post('/2/dm_conversations/with/12/messages', { text: 'Look', attachments: [{ media_id: '777' }] })
			.reply(201, { data: { dm_conversation_id: 'c', dm_event_id: 'e' } });
		const { output, requests } = await run(
			{ resource: 'directMessage', operation: 'send', participant: rl('12', 'id'), text: 'Look', attachment: 'binary', binaryPropertyName: 'data' },
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
		const { error, requests } = await runFailing({ resource: 'directMessage', operation: 'send', participant: rl('12', 'id'), text: ' ', attachment: 'none' });
		expect(error.message).toBe('Invalid input in item 1: Text: a message needs text or an attachment');
		expect(requests).toHaveLength(0);
	});
});

describe('Direct Message → Get Many Events', () => {
	it('pages up to the limit with event types, fields and the sender merged', async () => {
		nock(BASE)
			.get('/2/dm_events')
			.query({ max_results: '3', event_types: 'MessageCreate', 'dm_event.fields': 'created_at,sender_id', expansions: 'sender_id' })
			.reply(200, { data: [{ id: '1', sender_id: '9' }, { id: '2', sender_id: '8' }], includes: { users: [{ id: '9', username: 'jack' }] }, meta: { next_token: 'n2' } })
			.get('/2/dm_events')
			.query({ max_results: '1', event_types: 'MessageCreate', 'dm_event.fields': 'created_at,sender_id', expansions: 'sender_id', pagination_token: 'n2' })
			.reply(200, { data: [{ id: '3', sender_id: '9' }], includes: { users: [{ id: '9', username: 'jack' }] }, meta: { next_token: 'n3' } });
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

describe('Community Note', () => {
	it('refuses a note without a source URL before any request', async () => {
		const { error, requests } = await runFailing({
			resource: 'communityNote',
			operation: 'create',
			postId: rl('5'),
			text: 'This is wrong, see www.example.org or http:// nothing',
			classification: 'not_misleading',
			testMode: true,
		});
		expect(error.message).toBe('Invalid input in item 1: Text: a community note must contain a source URL (http:// or https://)');
		expect(requests).toHaveLength(0);
	});

	it('submits in test mode by default with classification, tags and sources', async () => {
		nock(BASE)
			.post('/2/notes', {
				test_mode: true,
				post_id: '5',
				info: {
					text: 'Outdated figure, see https://example.org/report',
					classification: 'misinformed_or_potentially_misleading',
					trustworthy_sources: true,
					misleading_tags: ['outdated_information'],
				},
			})
			.reply(200, { data: { note_id: '88' } });
		const { output } = await run({
			resource: 'communityNote',
			operation: 'create',
			postId: rl('https://x.com/a/status/5', 'url'),
			text: 'Outdated figure, see https://example.org/report',
			misleadingTags: ['outdated_information'],
		});
		expect(output[0].json).toEqual({ note_id: '88', post_id: '5' });
	});

	it('evaluates a draft, falling back to the newer path on 404', async () => {
		nock(BASE)
			.post('/2/evaluate_note', { note_text: 'Draft https://a.org', post_id: '5' })
			.reply(404, { title: 'Not Found', type: 'about:blank', status: 404, detail: 'Not Found' })
			.post('/2/notes/evaluate', { note_text: 'Draft https://a.org', post_id: '5' })
			.reply(200, { data: { claim_opinion_score: 0.42 } });
		const { output } = await run({ resource: 'communityNote', operation: 'evaluate', postId: rl('5'), noteText: 'Draft https://a.org' });
		expect(output[0].json).toEqual({ post_id: '5', claim_opinion_score: 0.42 });
	});

	it('lists eligible posts and written notes in test mode, up to the limit', async () => {
		nock(BASE)
			.get('/2/notes/search/posts_eligible_for_notes')
			.query({ test_mode: 'true', max_results: '2' })
			.reply(200, { data: [{ id: '1' }, { id: '2' }], meta: { next_token: 'x' } });
		const eligible = await run({ resource: 'communityNote', operation: 'getEligiblePosts', testMode: true, returnAll: false, limit: 2 });
		expect(eligible.output.map((o) => o.json.id)).toEqual(['1', '2']);
		expect(eligible.requests).toHaveLength(1);
		nock(BASE)
			.get('/2/notes/search/notes_written')
			.query({ test_mode: 'true', max_results: '100', 'note.fields': 'status,test_result' })
			.reply(200, { data: [{ id: 'n1', status: 'needs_more_ratings' }] });
		const written = await run({ resource: 'communityNote', operation: 'getManyWritten', returnAll: true, noteFields: ['status', 'test_result'] });
		expect(written.output[0].json).toEqual({ id: 'n1', status: 'needs_more_ratings' });
	});
});

describe('Media → Set Alt Text', () => {
	it('posts the metadata body', async () => {
		nock(BASE)
			.post('/2/media/metadata', { id: '777', metadata: { alt_text: { text: 'A cat' } } })
			.reply(200, {});
		const { output } = await run({ resource: 'media', operation: 'setAltText', mediaId: '777', altText: 'A cat' });
		expect(output[0].json).toEqual({ media_id: '777', alt_text: 'A cat' });
	});

	it('refuses alt text over 1,000 characters before any request', async () => {
		const { error, requests } = await runFailing({ resource: 'media', operation: 'setAltText', mediaId: '777', altText: 'x'.repeat(1001) });
		expect(error.message).toBe('Invalid input in item 1: Alt Text: at most 1000 characters (got 1001)');
		expect(requests).toHaveLength(0);
	});
});
