import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { splitThreadText } from '../../nodes/PlatformPosts/resources/post/createThread';
import { BASE } from '../helpers/context';
import { PNG, binaryItem, run, runFailing, setupNock } from './helpers';

setupNock();

const thread = (extra: IDataObject = {}) => ({
	resource: 'post',
	operation: 'createThread',
	partsFrom: 'list',
	...extra,
});

const FIVE = ['one', 'two', 'three', 'four', 'five'];

/** Answers POST /2/tweets with ids 101, 102, ... and records each body; `failAt` (1-based) fails. */
function postsAnswered(
	bodies: IDataObject[],
	failAt?: { n: number; status: number; body: IDataObject },
	start = 100,
) {
	let n = 0;
	return nock(BASE)
		.post('/2/tweets', (b) => {
			bodies.push(b);
			return true;
		})
		.times(10)
		.reply(() => {
			n++;
			if (failAt && n === failAt.n) return [failAt.status, failAt.body];
			const text = String(bodies[bodies.length - 1].text ?? '');
			return [201, { data: { id: String(start + n), text } }];
		});
}

const DUPLICATE = {
	title: 'Forbidden',
	type: 'about:blank',
	status: 403,
	detail: 'You are not allowed to create a Tweet with duplicate content.',
};

describe('Post → Create Thread: split rules', () => {
	it('splits at blank lines when the text has no --- line', () => {
		expect(splitThreadText('First\nstill first\n\n\nSecond\n  \nThird  ')).toEqual([
			'First\nstill first',
			'Second',
			'Third',
		]);
	});

	it('splits only at --- lines when there is one, so a part keeps its paragraphs', () => {
		expect(
			splitThreadText('Intro\n\nsecond paragraph\n---\nPart two\r\n  -----  \nPart three'),
		).toEqual(['Intro\n\nsecond paragraph', 'Part two', 'Part three']);
	});

	it('keeps --- inside a line, drops empty parts', () => {
		expect(splitThreadText('a---b\n---\n\n---\nc')).toEqual(['a---b', 'c']);
	});

	it('posts the split parts in order, each replying to the one before', async () => {
		const bodies: IDataObject[] = [];
		postsAnswered(bodies);
		const { output } = await run(
			thread({ partsFrom: 'text', threadText: 'First\n\nSecond\n\nThird' }),
		);
		expect(bodies).toEqual([
			{ text: 'First' },
			{ text: 'Second', reply: { in_reply_to_tweet_id: '101' } },
			{ text: 'Third', reply: { in_reply_to_tweet_id: '102' } },
		]);
		expect(output).toHaveLength(1);
		expect(output[0].json).toMatchObject({
			complete: true,
			thread_id: '101',
			part_ids: ['101', '102', '103'],
		});
		expect(output[0].pairedItem).toEqual({ item: 0 });
	});
});

describe('Post → Create Thread: parts and media', () => {
	it('takes a list of texts or of objects with text, from an expression or typed JSON', async () => {
		const bodies: IDataObject[] = [];
		postsAnswered(bodies);
		await run(thread({ parts: [{ text: 'a', score: 1 }, 'b'] }));
		await run(thread({ parts: '["c", "d"]' }));
		expect(bodies.map((b) => b.text)).toEqual(['a', 'b', 'c', 'd']);
	});

	it('uploads the media of a part before the first post and attaches it to that part only', async () => {
		const bodies: IDataObject[] = [];
		const order: string[] = [];
		nock(BASE)
			.post('/2/media/upload/initialize')
			.reply(200, () => {
				order.push('upload');
				return { data: { id: '900', media_key: '3_900' } };
			})
			.post('/2/media/upload/900/append')
			.reply(200, {})
			.post('/2/media/upload/900/finalize')
			.reply(200, { data: { id: '900', media_key: '3_900' } });
		nock(BASE)
			.post('/2/tweets', (b) => {
				order.push('post');
				bodies.push(b);
				return true;
			})
			.times(2)
			.reply(201, (_uri, b) => ({
				data: { id: bodies.length === 1 ? '1' : '2', text: (b as IDataObject).text },
			}));
		const { output } = await run(
			thread({
				parts: ['text only', 'with a picture'],
				additionalFields: {
					partMedia: { media: [{ part: 2, binaryProperties: 'data', mediaIds: '' }] },
				},
			}),
			[binaryItem(PNG, 'image/png')],
		);
		expect(order).toEqual(['upload', 'post', 'post']);
		expect(bodies[0]).toEqual({ text: 'text only' });
		expect(bodies[1]).toEqual({
			text: 'with a picture',
			media: { media_ids: ['900'] },
			reply: { in_reply_to_tweet_id: '1' },
		});
		const parts = output[0].json.parts as IDataObject[];
		expect(parts[1].attached_media).toEqual([
			expect.objectContaining({ id: '900', binary_property: 'data' }),
		]);
	});

	it.each(
		[
			[{ parts: [] }, 'Invalid input in item 1: Parts: no parts: give at least one text'],
			[
				{ parts: ['a', 'b', 'a'] },
				'Part #3: the same text as part 1: the service refuses duplicate text',
			],
			[{ parts: ['ok', 'x'.repeat(25001)] }, 'Part #2: at most 25,000 characters'],
			[{ parts: ['ok', ''] }, 'Part #2: text is required unless media is attached'],
			[{ parts: ['ok', 5] }, 'Parts #2: must be a text, or an object with a "text" field'],
			[{ parts: 'not json' }, 'Parts: not a list'],
			[
				{ parts: Array.from({ length: 26 }, (_, i) => `p${i}`) },
				'Parts: at most 25 parts in one thread',
			],
			[
				{
					parts: ['a', 'b'],
					additionalFields: { partMedia: { media: [{ part: 3, mediaIds: '1' }] } },
				},
				'Part Media #1: there is no part 3 (the thread has 2)',
			],
			[
				{
					parts: ['a', 'b'],
					additionalFields: { partMedia: { media: [{ part: 1, mediaIds: '1,2,3,4,5' }] } },
				},
				'Part #1: at most 4 media per post (got 5)',
			],
			[
				{
					parts: ['a'],
					additionalFields: { altTexts: { altText: [{ property: 'data', text: 'A bike' }] } },
				},
				'Alt Text #1: "data" is not a binary property of any part (Part Media)',
			],
			[
				{ parts: ['a'], options: { continueAfterPostId: 'https://x.com/jack' } },
				'Continue After Post ID: give the ID or the URL of the last part that was posted',
			],
		].map(([params, message]) => [message, params] as const),
	)('refuses before any request, naming the field and item: %s', async (message, params) => {
		const { error, requests } = await runFailing(thread(params as IDataObject));
		expect(error.message).toContain(message);
		expect(error.message).toContain('item 1');
		expect(requests).toHaveLength(0);
	});
});

describe('Post → Create Thread: a failing part stops the thread', () => {
	it('a part answered 201 with errors and no post ID stops the thread there: nothing replies to it, and it may have been published', async () => {
		const bodies: IDataObject[] = [];
		postsAnswered(bodies, {
			n: 2,
			status: 201,
			body: { errors: [{ title: 'Partial Error', detail: 'The post could not be shown' }] },
		});
		const { output } = await run(thread({ parts: FIVE }), undefined, { continueOnFail: true });
		expect(bodies.map((b) => b.text)).toEqual(['one', 'two']);
		const item = output[0].json;
		expect(item).toMatchObject({
			complete: false,
			part_ids: ['101'],
			failed_part: 2,
			not_attempted_parts: [3, 4, 5],
		});
		expect(item.description).toContain(
			'Part 2 may have been published although the request failed',
		);
		expect(item.description).toContain(
			'The service said: Partial Error: The post could not be shown.',
		);
	});

	it('third part of five fails: parts 1-2 posted, 3 failed, 4-5 not attempted (Continue On Fail item)', async () => {
		const bodies: IDataObject[] = [];
		postsAnswered(bodies, {
			n: 3,
			status: 400,
			body: {
				title: 'Invalid Request',
				type: 'https://api.x.com/2/problems/invalid-request',
				detail: 'One or more parameters to your request was invalid.',
				errors: [{ message: 'text is too long', parameters: { text: ['three'] } }],
			},
		});
		const { output } = await run(thread({ parts: FIVE }), undefined, { continueOnFail: true });
		expect(bodies.map((b) => b.text)).toEqual(['one', 'two', 'three']);
		expect(output).toHaveLength(1);
		const item = output[0].json;
		expect(item).toMatchObject({
			complete: false,
			thread_id: '101',
			part_ids: ['101', '102'],
			failed_part: 3,
			not_attempted_parts: [4, 5],
			continue_after_post_id: '102',
			error_info: { httpStatus: 400, type: 'invalid-request' },
		});
		expect((item.parts as IDataObject[]).map((p) => p.part)).toEqual([1, 2]);
		expect(item.description).toContain(
			'Posted: parts 1-2 (IDs 101, 102). Failed: part 3. Not attempted: parts 4-5.',
		);
		expect(item.description).toContain('Continue After Post ID set to 102');
	});

	it('without Continue On Fail, the error says what was posted and how to continue', async () => {
		const bodies: IDataObject[] = [];
		postsAnswered(bodies, { n: 3, status: 503, body: { title: 'Service Unavailable' } });
		const { error, requests } = await runFailing(thread({ parts: FIVE }));
		// Never retried: a create is not safe to repeat.
		expect(requests).toHaveLength(3);
		expect(error.message).toMatch(/^Part 3 of 5 was not posted: /);
		expect(error.description).toContain(
			'Posted: parts 1-2 (IDs 101, 102). Failed: part 3. Not attempted: parts 4-5.',
		);
		// A 5xx may have published the part all the same: look first.
		expect(error.description).toContain('Part 3 may have been published');
		expect(error.description).toContain('Options › Continue After Post ID');
	});

	it('a duplicate-text refusal (403, type about:blank) stops the thread like any refusal, with the error type on the item', async () => {
		const bodies: IDataObject[] = [];
		postsAnswered(bodies, { n: 2, status: 403, body: DUPLICATE });
		const { output } = await run(thread({ parts: ['new', 'posted before', 'after'] }), undefined, {
			continueOnFail: true,
		});
		expect(bodies).toHaveLength(2);
		expect(output[0].json).toMatchObject({
			complete: false,
			part_ids: ['101'],
			failed_part: 2,
			not_attempted_parts: [3],
			continue_after_post_id: '101',
			error_info: { httpStatus: 403, type: 'about:blank' },
		});
		expect(output[0].json.description).toContain('duplicate content');
	});
});

describe('Post → Create Thread: Continue After Post ID', () => {
	/** The service's answers for a thread 101 ← 102 (102 replies to 101), by the user 7. */
	function postedThread(reads: string[]) {
		const posts: Record<string, IDataObject> = {
			'101': { id: '101', text: 'one', author_id: '7' },
			'102': {
				id: '102',
				text: 'two',
				author_id: '7',
				referenced_tweets: [{ type: 'replied_to', id: '101' }],
			},
		};
		nock(BASE)
			.get(/^\/2\/tweets\/\d+/)
			.query(true)
			.times(5)
			.reply((uri) => {
				const url = new URL(uri, BASE);
				reads.push(`${url.pathname} ${url.searchParams.get('tweet.fields')}`);
				return [200, { data: posts[url.pathname.split('/').pop() as string] }];
			});
	}

	it('posts only the parts after the given post, the first replying to it, never a part twice', async () => {
		const reads: string[] = [];
		postedThread(reads);
		const bodies: IDataObject[] = [];
		postsAnswered(bodies, undefined, 200);
		const { output } = await run(
			thread({ parts: FIVE, options: { continueAfterPostId: 'https://x.com/me/status/102' } }),
		);
		expect(reads).toEqual([
			'/2/tweets/102 author_id,referenced_tweets',
			'/2/tweets/101 author_id,referenced_tweets',
		]);
		expect(bodies).toEqual([
			{ text: 'three', reply: { in_reply_to_tweet_id: '102' } },
			{ text: 'four', reply: { in_reply_to_tweet_id: '201' } },
			{ text: 'five', reply: { in_reply_to_tweet_id: '202' } },
		]);
		expect(output[0].json).toMatchObject({
			complete: true,
			thread_id: '101',
			part_ids: ['101', '102', '201', '202', '203'],
			continued_after_post_id: '102',
		});
	});

	it('posts nothing when every part is there already', async () => {
		const reads: string[] = [];
		postedThread(reads);
		const { output, requests } = await run(
			thread({ parts: ['one', 'two'], options: { continueAfterPostId: '102' } }),
		);
		expect(requests.every((r) => r.method === 'GET')).toBe(true);
		expect(output[0].json).toMatchObject({ complete: true, part_ids: ['101', '102'] });
	});

	it('refuses a post that follows more posts than the thread has parts, before posting', async () => {
		const reads: string[] = [];
		postedThread(reads);
		const { error, requests } = await runFailing(
			thread({ parts: ['only one'], options: { continueAfterPostId: '102' } }),
		);
		expect(error.message).toContain('Continue After Post ID: post 102 follows 1 or more posts');
		expect(requests.every((r) => r.method === 'GET')).toBe(true);
	});

	it('stops at a post of another author (the thread began as a reply to someone)', async () => {
		nock(BASE)
			.get('/2/tweets/50')
			.query(true)
			.reply(200, {
				data: {
					id: '50',
					text: 'mine',
					author_id: '7',
					referenced_tweets: [{ type: 'replied_to', id: '40' }],
				},
			})
			.get('/2/tweets/40')
			.query(true)
			.reply(200, { data: { id: '40', text: 'theirs', author_id: '8' } });
		const bodies: IDataObject[] = [];
		postsAnswered(bodies);
		await run(thread({ parts: ['mine', 'next'], options: { continueAfterPostId: '50' } }));
		expect(bodies).toEqual([{ text: 'next', reply: { in_reply_to_tweet_id: '50' } }]);
	});
});
