/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- credential type names in test parameters, not secrets */
import nock from 'nock';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { PlatformPosts } from '../../nodes/PlatformPosts/PlatformPosts.node';
import { BASE, createContext } from '../helpers/context';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const node = new PlatformPosts();

async function run(parameters: IDataObject, items?: INodeExecutionData[], continueOnFail = false) {
	const built = createContext({ parameters: { authentication: 'platformOAuth2Api', ...parameters }, items, continueOnFail });
	const output = await node.execute.call(built.context);
	return { output: output[0], requests: built.requests };
}

async function failure(promise: Promise<unknown>) {
	return await promise.then(
		() => {
			throw new Error('expected a failure');
		},
		(e: Error) => e,
	);
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');

describe('Post → Create', () => {
	it('creates a text post with a reply given as a URL', async () => {
		let sent: IDataObject = {};
		nock(BASE)
			.post('/2/tweets', (b) => {
				sent = b;
				return true;
			})
			.reply(201, { data: { id: '55', text: 'hi' } });
		const { output } = await run({
			resource: 'post',
			operation: 'create',
			text: 'hi',
			additionalFields: { replyTo: 'https://x.com/jack/status/20', replySettings: 'following' },
		});
		expect(sent).toEqual({ text: 'hi', reply: { in_reply_to_tweet_id: '20' }, reply_settings: 'following' });
		expect(output).toEqual([{ json: { id: '55', text: 'hi' }, pairedItem: { item: 0 } }]);
	});

	it('uploads an image from the binary input and attaches it', async () => {
		const calls: string[] = [];
		nock(BASE)
			.post('/2/media/upload/initialize', (b) => {
				calls.push(`init ${b.media_type} ${b.total_bytes} ${b.media_category}`);
				return true;
			})
			.reply(200, { data: { id: '900', media_key: '3_900', expires_after_secs: 600 } })
			.post('/2/media/upload/900/append', (b) => {
				calls.push(`append ${b.segment_index} ${Buffer.from(b.media, 'base64').equals(PNG)}`);
				return true;
			})
			.reply(200, {})
			.post('/2/media/upload/900/finalize')
			.reply(200, { data: { id: '900', media_key: '3_900' } })
			.post('/2/tweets', (b) => {
				calls.push(`post ${JSON.stringify(b.media)}`);
				return true;
			})
			.reply(201, { data: { id: '1', text: 'pic' } });
		const items = [{ json: {}, binary: { data: { data: PNG.toString('base64'), mimeType: 'image/png' } } }];
		await run({ resource: 'post', operation: 'create', text: 'pic', additionalFields: { binaryProperties: 'data' } }, items);
		expect(calls).toEqual(['init image/png 20 tweet_image', 'append 0 true', 'post {"media_ids":["900"]}']);
	});

	it('polls STATUS for a video until it succeeds', async () => {
		nock(BASE)
			.post('/2/media/upload/initialize').reply(200, { data: { id: '7' } })
			.post('/2/media/upload/7/append').reply(200, {})
			.post('/2/media/upload/7/finalize').reply(200, { data: { processing_info: { state: 'pending', check_after_secs: 0 } } })
			.get('/2/media/upload').query({ command: 'STATUS', media_id: '7' }).reply(200, { data: { processing_info: { state: 'in_progress', check_after_secs: 0 } } })
			.get('/2/media/upload').query({ command: 'STATUS', media_id: '7' }).reply(200, { data: { processing_info: { state: 'succeeded' } } })
			.post('/2/tweets', { text: 'v', media: { media_ids: ['7'] } }).reply(201, { data: { id: '2' } });
		const items = [{ json: {}, binary: { data: { data: PNG.toString('base64'), mimeType: 'video/mp4' } } }];
		const { output } = await run({ resource: 'post', operation: 'create', text: 'v', additionalFields: { binaryProperties: 'data' } }, items);
		expect(output[0].json).toEqual({ id: '2' });
		expect(nock.isDone()).toBe(true);
	});

	it('fails clearly when processing fails, and posts nothing', async () => {
		nock(BASE)
			.post('/2/media/upload/initialize').reply(200, { data: { id: '8' } })
			.post('/2/media/upload/8/append').reply(200, {})
			.post('/2/media/upload/8/finalize').reply(200, { data: { processing_info: { state: 'failed', error: { message: 'InvalidMedia' } } } });
		const items = [{ json: {}, binary: { data: { data: PNG.toString('base64'), mimeType: 'video/mp4' } } }];
		const error = await failure(run({ resource: 'post', operation: 'create', text: 'v', additionalFields: { binaryProperties: 'data' } }, items));
		expect(error.message).toContain('could not process the media: InvalidMedia');
	});

	it.each([
		[{ mediaIds: '1', pollOptions: 'a,b' }, /media, poll cannot be combined/],
		[{ quote: '5', cardUri: 'card://1' }, /quote, card cannot be combined/],
		[{ pollOptions: 'only-one' }, /Poll Options: a poll has 2 to 4 options/],
		[{ pollOptions: 'a,b', pollDuration: 4 }, /Poll Duration \(Minutes\): at least 5 minutes/],
		[{ pollOptions: 'a,bbbbbbbbbbbbbbbbbbbbbbbbbbb' }, /Poll Options #2: at most 25 characters/],
		[{ replyTo: 'https://x.com/jack' }, /Reply To Post ID or URL: not a post ID or URL/],
	])('refuses %o before any request', async (fields, message) => {
		const built = createContext({ parameters: { authentication: 'platformOAuth2Api', resource: 'post', operation: 'create', text: 't', additionalFields: fields } });
		const error = await failure(node.execute.call(built.context));
		const requests = built.requests;
		expect(error.message).toMatch(message);
		expect(error.message).toContain('item 1');
		expect(requests).toHaveLength(0);
	});

	it('never retries a failed create and says it may have been published', async () => {
		nock(BASE).post('/2/tweets').times(3).reply(503, { title: 'Service Unavailable' });
		const built = createContext({ parameters: { authentication: 'platformOAuth2Api', resource: 'post', operation: 'create', text: 'x', additionalFields: {} } });
		const error = (await failure(node.execute.call(built.context))) as Error & { description?: string };
		expect(built.requests).toHaveLength(1);
		expect(error.description).toContain('may have been published');
	});
});

describe('Post → Get, Delete, Search', () => {
	it('splits 250 ids into 3 requests and merges includes', async () => {
		const ids = Array.from({ length: 250 }, (_, i) => String(1000 + i));
		const batches: number[] = [];
		nock(BASE)
			.get('/2/tweets')
			.query(true)
			.times(3)
			.reply(200, (uri) => {
				const got = new URL(uri, BASE).searchParams.get('ids')!.split(',');
				batches.push(got.length);
				return { data: got.map((id) => ({ id, author_id: '9' })), includes: { users: [{ id: '9', username: 'jack' }] } };
			});
		const { output } = await run({ resource: 'post', operation: 'get', postIds: ids.join(','), expansions: ['author_id'], output: 'merged' });
		expect(batches).toEqual([100, 100, 50]);
		expect(output).toHaveLength(250);
		expect(output[0].json.author).toEqual({ id: '9', username: 'jack' });
	});

	it('deletes a post given by URL', async () => {
		nock(BASE).delete('/2/tweets/77').reply(200, { data: { deleted: true } });
		const { output } = await run({ resource: 'post', operation: 'delete', postId: { __rl: true, mode: 'url', value: 'https://x.com/a/status/77?s=20' } });
		expect(output[0].json).toEqual({ id: '77', deleted: true });
	});

	it('searches with a limit across pages', async () => {
		nock(BASE)
			.get('/2/tweets/search/recent').query({ query: 'n8n', max_results: '15' }).reply(200, { data: Array.from({ length: 10 }, (_, i) => ({ id: `${i}` })), meta: { next_token: 'n2' } })
			.get('/2/tweets/search/recent').query({ query: 'n8n', max_results: '10', next_token: 'n2' }).reply(200, { data: Array.from({ length: 10 }, (_, i) => ({ id: `b${i}` })), meta: { next_token: 'n3' } });
		const { output, requests } = await run({ resource: 'post', operation: 'search', query: 'n8n', archive: 'recent', returnAll: false, limit: 15, searchOptions: {}, output: 'merged' });
		expect(output).toHaveLength(15);
		expect(requests).toHaveLength(2);
	});

	it('continues on fail with one error item per bad input item', async () => {
		nock(BASE).get('/2/tweets').query(true).reply(200, { data: [{ id: '1' }] });
		const { output } = await run(
			{ resource: 'post', operation: 'get', postIds: 'not-an-id', output: 'merged' },
			[{ json: {} }],
			true,
		);
		expect(output[0].json.error).toContain('"not-an-id" is not a post ID or URL');
		expect(output[0].pairedItem).toEqual({ item: 0 });
	});
});
