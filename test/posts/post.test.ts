/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- credential type names in test parameters, not secrets */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { postIdFrom, postIdsFrom } from '../../nodes/shared/locators';
import { BASE, TEST_SECRETS } from '../helpers/context';
import { PNG, binaryItem, rl, run, runFailing, setupNock } from './helpers';

setupNock();

const create = (text: string, additionalFields: IDataObject = {}, extra: IDataObject = {}) => ({
	resource: 'post',
	operation: 'create',
	text,
	additionalFields,
	...extra,
});

describe('post URL → id', () => {
	it.each([
		['1346889436626259968', '1346889436626259968'],
		['https://x.com/jack/status/20', '20'],
		['https://twitter.com/jack/statuses/20?s=20&t=abc', '20'],
		[
			'http://mobile.example.com/some_user/status/1234567890123456789/photo/1',
			'1234567890123456789',
		],
		['https://x.com/i/web/status/42', '42'],
		['  77  ', '77'],
	])('%s → %s', (input, id) => expect(postIdFrom(input)).toBe(id));

	it.each(['https://x.com/jack', 'abc', 'https://x.com/jack/status/', '12345678901234567890'])(
		'%s is refused',
		(input) => expect(postIdFrom(input)).toBeUndefined(),
	);

	it('reads lists of ids and URLs separated by commas, spaces and new lines', () => {
		expect(postIdsFrom('1, https://x.com/a/status/2\n3 https://x.com/b')).toEqual({
			ids: ['1', '2', '3'],
			invalid: ['https://x.com/b'],
		});
	});
});

describe('Post → Create', () => {
	it('creates a text post replying to a post given by URL, with reply settings and community fields', async () => {
		let sent: IDataObject = {};
		nock(BASE)
			.post('/2/tweets', (b) => {
				sent = b;
				return true;
			})
			.reply(201, { data: { id: '55', text: 'hi' } });
		const { output } = await run(
			create('hi', {
				replyTo: rl('https://x.com/jack/status/20', 'url'),
				replySettings: 'mentionedUsers',
				communityId: '1146654567674912769',
				shareWithFollowers: true,
				paidPartnership: true,
			}),
		);
		expect(sent).toEqual({
			text: 'hi',
			reply: { in_reply_to_tweet_id: '20' },
			reply_settings: 'mentionedUsers',
			community_id: '1146654567674912769',
			share_with_followers: true,
			paid_partnership: true,
		});
		expect(output).toEqual([{ json: { id: '55', text: 'hi' }, pairedItem: { item: 0 } }]);
	});

	it('sends a quote, a poll and a card as the service names them', async () => {
		const bodies: IDataObject[] = [];
		nock(BASE)
			.post('/2/tweets', (b) => {
				bodies.push(b);
				return true;
			})
			.times(3)
			.reply(201, { data: { id: '1', text: 't' } });
		await run(create('q', { quote: rl('https://x.com/a/status/99', 'url') }));
		await run(create('p', { pollOptions: 'Yes, No , Maybe', pollDuration: 60 }));
		await run(create('c', { cardUri: 'card://1234' }));
		expect(bodies).toEqual([
			{ text: 'q', quote_tweet_id: '99' },
			{ text: 'p', poll: { options: ['Yes', 'No', 'Maybe'], duration_minutes: 60 } },
			{ text: 'c', card_uri: 'card://1234' },
		]);
	});

	it('attaches existing media ids', async () => {
		nock(BASE)
			.post('/2/tweets', { text: 'm', media: { media_ids: ['11', '12'] } })
			.reply(201, { data: { id: '3' } });
		const { output } = await run(create('m', { mediaIds: '11, 12' }));
		expect(output[0].json).toEqual({ id: '3', attached_media: [{ id: '11' }, { id: '12' }] });
	});

	it('tags users in the media and excludes users from a reply (media.tagged_user_ids, reply.exclude_reply_user_ids)', async () => {
		nock(BASE)
			.post('/2/tweets', {
				text: 'm',
				media: { media_ids: ['11'], tagged_user_ids: ['2244994945', '6253282'] },
			})
			.reply(201, { data: { id: '3' } });
		expect(
			(await run(create('m', { mediaIds: '11', taggedUserIds: '2244994945, 6253282' }))).output[0]
				.json,
		).toEqual({ id: '3', attached_media: [{ id: '11' }] });
		nock(BASE)
			.post('/2/tweets', {
				text: 'r',
				reply: { in_reply_to_tweet_id: '20', exclude_reply_user_ids: ['6253282'] },
			})
			.reply(201, { data: { id: '4' } });
		expect(
			(
				await run(
					create('r', {
						replyTo: { __rl: true, mode: 'id', value: '20' },
						excludeReplyUserIds: '6253282',
					}),
				)
			).output[0].json,
		).toEqual({ id: '4' });
	});

	it.each([
		[
			{ taggedUserIds: '123' },
			'Invalid input in item 1: Tagged User IDs: users are tagged in attached media: add Binary Properties or Media IDs',
		],
		[
			{ mediaIds: '11', taggedUserIds: '@someone' },
			'Invalid input in item 1: Tagged User IDs #1: a user ID is 1-19 digits',
		],
		[
			{ excludeReplyUserIds: '123' },
			'Invalid input in item 1: Exclude Reply User IDs: is used with Reply To Post',
		],
	])(
		'refuses tagged / excluded users that cannot apply, before any request (%o)',
		async (fields, message) => {
			const { error, requests } = await runFailing(create('t', fields));
			expect(error.message).toBe(message);
			expect(requests).toHaveLength(0);
		},
	);

	it('uploads an image from the binary input (initialize, append, finalize) and attaches it', async () => {
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
			.reply(200, {
				data: { id: '900', media_key: '3_900', image: { image_type: 'image/png', w: 1, h: 1 } },
			})
			.post('/2/tweets', (b) => {
				calls.push(`post ${JSON.stringify(b)}`);
				return true;
			})
			.reply(201, { data: { id: '1', text: 'pic' } });
		const { output, requests } = await run(create('pic', { binaryProperties: 'data' }), [
			binaryItem(PNG, 'image/png'),
		]);
		expect(calls).toEqual([
			'init image/png 20 tweet_image',
			'append 0 true',
			'post {"text":"pic","media":{"media_ids":["900"]}}',
		]);
		expect(requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
			'POST /2/media/upload/initialize',
			'POST /2/media/upload/900/append',
			'POST /2/media/upload/900/finalize',
			'POST /2/tweets',
		]);
		// The output says what was attached (issue: a user could not see the image was attached).
		expect(output[0].json).toEqual({
			id: '1',
			text: 'pic',
			attached_media: [
				{
					id: '900',
					media_key: '3_900',
					type: 'image',
					binary_property: 'data',
					file_name: 'file.png',
				},
			],
		});
	});

	it('uploads two images and posts them without text', async () => {
		let n = 0;
		nock(BASE)
			.post('/2/media/upload/initialize')
			.times(2)
			.reply(200, () => ({ data: { id: String(++n) } }))
			.post(/\/2\/media\/upload\/\d\/(append|finalize)/)
			.times(4)
			.reply(200, {})
			.post('/2/tweets', { media: { media_ids: ['1', '2'] } })
			.reply(201, { data: { id: '5' } });
		const item = binaryItem(PNG, 'image/png');
		item.binary!.second = { ...item.binary!.data };
		const { output } = await run(create('', { binaryProperties: 'data, second' }), [item]);
		expect(output[0].json.id).toBe('5');
		expect(
			(output[0].json.attached_media as Array<{ id: string; binary_property: string }>).map((m) => [
				m.id,
				m.binary_property,
			]),
		).toEqual([
			['1', 'data'],
			['2', 'second'],
		]);
	});

	it.each([
		[{ mediaIds: '1', pollOptions: 'a,b' }, /Attachments: media, poll cannot be combined/],
		[{ quote: '5', cardUri: 'card://1' }, /Attachments: quote, card cannot be combined/],
		[{ quote: rl('5'), mediaIds: '7' }, /Attachments: media, quote cannot be combined/],
		[{ pollOptions: 'a,b', cardUri: 'card://1' }, /poll, card cannot be combined/],
		[{ pollOptions: 'only-one' }, /Poll Options: a poll has 2 to 4 options/],
		[{ pollOptions: 'a,b,c,d,e' }, /Poll Options: a poll has 2 to 4 options/],
		[{ pollOptions: 'a,b', pollDuration: 4 }, /Poll Duration \(Minutes\): at least 5 minutes/],
		[
			{ pollOptions: 'a,b', pollDuration: 10081 },
			/Poll Duration \(Minutes\): at most 10,080 minutes/,
		],
		[{ pollOptions: 'a,bbbbbbbbbbbbbbbbbbbbbbbbbbb' }, /Poll Options #2: at most 25 characters/],
		[{ pollOptions: 'a,,b' }, /Poll Options #2: must not be empty/],
		[{ mediaIds: '1,2,3,4,5' }, /Media: at most 4 media per post/],
		[{ mediaIds: 'abc' }, /Media IDs #1: a media ID is 1-19 digits/],
		[{ cardUri: 'https://example.com' }, /Card: a card URI looks like card:\/\/123/],
		[{ shareWithFollowers: true }, /Share With Followers: needs a Community ID/],
		[{ replyTo: rl('https://x.com/jack', 'url') }, /"Reply To Post" in item 1 is not valid/],
	])('refuses %o before any request', async (fields, message) => {
		const { error, requests } = await runFailing(create('t', fields as IDataObject));
		expect(error.message).toMatch(message);
		expect(error.message).toContain('item 1');
		expect(requests).toHaveLength(0);
	});

	it('refuses a video together with an image, and a missing binary property, before any upload', async () => {
		const item = binaryItem(PNG, 'image/png');
		item.binary!.video = { data: PNG.toString('base64'), mimeType: 'video/mp4' };
		const mixed = await runFailing(create('t', { binaryProperties: 'data,video' }), [item]);
		expect(mixed.error.message).toContain(
			'Media: a post takes 1 to 4 images, or 1 GIF, or 1 video',
		);
		expect(mixed.requests).toHaveLength(0);
		const missing = await runFailing(create('t', { binaryProperties: 'nope' }), [
			binaryItem(PNG, 'image/png'),
		]);
		expect(missing.error.message).toContain("binary file 'nope'");
		expect(missing.requests).toHaveLength(0);
	});

	it('sets the alt text of an attached image after its upload and before the post', async () => {
		const calls: string[] = [];
		nock(BASE)
			.post('/2/media/upload/initialize')
			.reply(200, { data: { id: '901' } })
			.post(/\/2\/media\/upload\/901\/(append|finalize)/)
			.times(2)
			.reply(200, { data: { id: '901' } })
			.post('/2/media/metadata', (b) => (calls.push(`alt ${JSON.stringify(b)}`), true))
			.reply(200, {})
			.post('/2/tweets', (b) => (calls.push(`post ${JSON.stringify(b.media)}`), true))
			.reply(201, { data: { id: '2' } });
		await run(
			create('pic', {
				binaryProperties: 'data',
				altTexts: { altText: [{ property: 'data', text: 'A red bicycle' }] },
			}),
			[binaryItem(PNG, 'image/png')],
		);
		expect(calls).toEqual([
			'alt {"id":"901","metadata":{"alt_text":{"text":"A red bicycle"}}}',
			'post {"media_ids":["901"]}',
		]);
	});

	it('refuses alt text for a property that is not attached, for a video, and over 1,000 characters', async () => {
		const item = binaryItem(PNG, 'image/png');
		item.binary!.clip = { data: PNG.toString('base64'), mimeType: 'video/mp4' };
		const cases: Array<[IDataObject, RegExp]> = [
			[
				{ binaryProperties: 'data', altTexts: { altText: [{ property: 'other', text: 'x' }] } },
				/Alt Text #1: "other" is not one of the Binary Properties/,
			],
			[
				{ binaryProperties: 'clip', altTexts: { altText: [{ property: 'clip', text: 'x' }] } },
				/Alt Text #1: "clip" is a video/,
			],
			[
				{
					binaryProperties: 'data',
					altTexts: { altText: [{ property: 'data', text: 'x'.repeat(1001) }] },
				},
				/Alt Text #1.*at most 1000 characters/,
			],
		];
		for (const [fields, message] of cases) {
			const { error, requests } = await runFailing(create('t', fields), [item]);
			expect(error.message).toMatch(message);
			expect(requests).toHaveLength(0);
		}
	});

	it('refuses text and no media', async () => {
		const { error, requests } = await runFailing(create('', {}));
		expect(error.message).toContain('Text: text is required unless media is attached');
		expect(requests).toHaveLength(0);
	});

	it('never retries a failed create (5xx) and says it may have been published', async () => {
		nock(BASE)
			.post('/2/tweets')
			.times(4)
			.reply(503, { title: 'Service Unavailable', detail: 'Service Unavailable' });
		const { error, requests } = await runFailing(create('x'));
		expect(requests).toHaveLength(1);
		expect(error.description).toContain('may have been published');
		expect(error.description).toContain('before running the node again');
		expect(nock.pendingMocks()).toHaveLength(1);
	});

	it('never retries a create that timed out / lost its connection and says how to check', async () => {
		nock(BASE).post('/2/tweets').replyWithError({ code: 'ETIMEDOUT', message: 'socket timeout' });
		nock(BASE)
			.post('/2/tweets')
			.reply(201, { data: { id: 'second' } });
		const { error, requests } = await runFailing(create('x'));
		expect(requests).toHaveLength(1);
		expect(error.message).toBe(
			'The request to create the post got no answer from the service (ETIMEDOUT: socket timeout); it was not retried',
		);
		expect(error.description).toContain('may have been published');
		expect(error.description).toContain('Post > Search');
		expect(nock.pendingMocks()).toHaveLength(1);
	});

	it('explains a 403 duplicate content in plain language', async () => {
		nock(BASE).post('/2/tweets').reply(403, {
			title: 'Forbidden',
			type: 'about:blank',
			status: 403,
			detail: 'You are not allowed to create a Tweet with duplicate content.',
		});
		const { error, requests } = await runFailing(create('same again'));
		expect(requests).toHaveLength(1);
		expect(error.message).toBe('The service refused a duplicate post');
		expect(error.description).toContain('may have been published');
	});

	it('shows the service refusal of a too long text as it is', async () => {
		nock(BASE)
			.post('/2/tweets')
			.reply(400, {
				title: 'Invalid Request',
				type: 'https://api.x.com/2/problems/invalid-request',
				detail: 'One or more parameters to your request was invalid.',
				errors: [{ message: 'Your Tweet text is too long.', parameters: { text: [] } }],
			});
		const { error } = await runFailing(create('long text'));
		expect(error.message).toContain('Your Tweet text is too long.');
	});

	it('refuses create with the app-only bearer before any request', async () => {
		const { error, requests } = await runFailing(create('x'), undefined, {
			authentication: 'platformBearerApi',
		});
		expect(error.message).toBe(
			'Create a post needs OAuth2 (User Context), OAuth1 Keys (User Context) or OAuth1 Connect Account (User Context) authentication',
		);
		expect(requests).toHaveLength(0);
	});

	it('signs a create with OAuth1 keys and leaks no secret in the output', async () => {
		let auth = '';
		nock(BASE)
			.post('/2/tweets')
			.reply(function () {
				auth = String(this.req.headers.authorization);
				return [201, { data: { id: '8', text: 'o1' } }];
			});
		const { output } = await run(create('o1'), undefined, { authentication: 'platformOAuth1Api' });
		expect(auth).toMatch(/^OAuth .*oauth_signature=/);
		const text = JSON.stringify(output);
		for (const secret of Object.values(TEST_SECRETS)) expect(text).not.toContain(secret);
	});
});

describe('Post → Edit', () => {
	it('sends edit_options.previous_post_id on POST /2/tweets', async () => {
		let sent: IDataObject = {};
		nock(BASE)
			.post('/2/tweets', (b) => {
				sent = b;
				return true;
			})
			.reply(201, { data: { id: '101', text: 'fixed', edit_history_tweet_ids: ['100', '101'] } });
		const { output } = await run({
			resource: 'post',
			operation: 'edit',
			postId: rl('https://x.com/me/status/100', 'url'),
			text: 'fixed',
			additionalFields: {},
		});
		expect(sent).toEqual({ text: 'fixed', edit_options: { previous_post_id: '100' } });
		expect(output[0].json).toEqual({
			previous_post_id: '100',
			id: '101',
			text: 'fixed',
			edit_history_tweet_ids: ['100', '101'],
		});
	});

	it('is never retried and says the edit may have gone through', async () => {
		nock(BASE).post('/2/tweets').times(2).reply(502, { title: 'Bad Gateway' });
		const { error, requests } = await runFailing({
			resource: 'post',
			operation: 'edit',
			postId: rl('100'),
			text: 'x',
			additionalFields: {},
		});
		expect(requests).toHaveLength(1);
		expect(error.description).toContain('edit may have gone through');
	});

	it('refuses an invalid post id before any request', async () => {
		const { error, requests } = await runFailing({
			resource: 'post',
			operation: 'edit',
			postId: rl('abc'),
			text: 'x',
			additionalFields: {},
		});
		expect(error.message).toContain('"Post" in item 1 is not valid');
		expect(requests).toHaveLength(0);
	});
});

describe('Post → Delete', () => {
	it('deletes a post given by URL', async () => {
		nock(BASE)
			.delete('/2/tweets/77')
			.reply(200, { data: { deleted: true } });
		const { output } = await run({
			resource: 'post',
			operation: 'delete',
			postId: rl('https://x.com/a/status/77?s=20', 'url'),
		});
		expect(output).toEqual([{ json: { id: '77', deleted: true }, pairedItem: { item: 0 } }]);
	});
});
