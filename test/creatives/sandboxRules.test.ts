/* eslint-disable @typescript-eslint/no-require-imports -- the sandbox is plain CommonJS */
/**
 * The sandbox's routes for a card of any type by id, image conversation cards and the update and
 * delete of draft posts enforce the service's rules: one refusal per rule (required fields, limits,
 * enums, who may call), so that the sandbox judges the package as the service would.
 */
const { createSandbox } = require('../../sandbox/server');
const oauth1 = require('../../sandbox/lib/oauth1');
const { SAMPLE_IMAGE_KEY, SAMPLE_VIDEO_KEY } = require('../../sandbox/routes/creatives');

type Sandbox = {
	url: string;
	keys: Record<string, string>;
	tokens: Record<string, { secret: string; userId: string }>;
	db: { ads: { accounts: Map<string, Record<string, unknown>> } };
	close(): Promise<void>;
};
type Answer = {
	status: number;
	body: {
		data?: Record<string, unknown> & Array<Record<string, unknown>>;
		errors?: Array<{ code: string; parameter?: string }>;
		next_cursor?: string | null;
		total_count?: number;
	};
};
let sb: Sandbox;
let A: string;
const OTHER = { accessToken: 'other-user-token', accessTokenSecret: 'other-user-secret' };

beforeAll(async () => {
	sb = await createSandbox({ quiet: true }).listen(0);
	A = `/12/accounts/${sb.keys.adsAccountId}`;
	// A second user with a valid token, associated with no ad account.
	sb.tokens[OTHER.accessToken] = { secret: OTHER.accessTokenSecret, userId: '1000000002' };
});
afterAll(async () => {
	await sb.close();
});

async function call(
	method: string,
	path: string,
	params: Record<string, string> = {},
	as: Partial<typeof OTHER> = {},
): Promise<Answer> {
	const query = new URLSearchParams(params).toString();
	const url = sb.url + path + (query ? `?${query}` : '');
	const authorization = oauth1.authorizationHeader({ method, url }, { ...sb.keys, ...as });
	const res = await fetch(url, { method, headers: { authorization } });
	return { status: res.status, body: (await res.json()) as Answer['body'] };
}

/** The first error's code and parameter, for a refusal. */
const refusal = (a: Answer) => [a.status, a.body.errors?.[0]?.code, a.body.errors?.[0]?.parameter];

const IC = {
	name: 'Pick one',
	media_key: SAMPLE_IMAGE_KEY,
	first_cta: '#Red',
	first_cta_tweet: 'I pick red',
	thank_you_text: 'Thanks!',
	title: 'Which colour?',
};

async function imageCard(extra: Record<string, string> = {}) {
	const made = await call('POST', `${A}/cards/image_conversation`, { ...IC, ...extra });
	expect(made.status).toBe(201);
	return made.body.data as Record<string, unknown>;
}

async function draft(text = 'Draft text') {
	const made = await call('POST', `${A}/draft_tweets`, { as_user_id: sb.keys.userId, text });
	expect(made.status).toBe(201);
	return made.body.data as Record<string, unknown>;
}

describe('GET cards/all/:card_id', () => {
	it('returns one card of any type as an object, a deleted one only with with_deleted', async () => {
		const card = await imageCard();
		const got = await call('GET', `${A}/cards/all/${String(card.id)}`);
		expect(got.status).toBe(200);
		expect(got.body.data).toMatchObject({ id: card.id, card_type: 'IMAGE_CONVERSATION' });
		expect(Array.isArray(got.body.data)).toBe(false);

		const poll = await call('POST', `${A}/cards/poll`, {
			name: 'Poll',
			duration_in_minutes: '60',
			first_choice: 'A',
			second_choice: 'B',
		});
		const pollCard = await call('GET', `${A}/cards/all/${String(poll.body.data?.id)}`);
		expect(pollCard.body.data).toMatchObject({ card_type: 'TEXT_POLLS' });

		await call('DELETE', `${A}/cards/image_conversation/${String(card.id)}`);
		expect(refusal(await call('GET', `${A}/cards/all/${String(card.id)}`))).toEqual([
			404,
			'NOT_FOUND',
			'card_id',
		]);
		const deleted = await call('GET', `${A}/cards/all/${String(card.id)}`, {
			with_deleted: 'true',
		});
		expect(deleted.body.data).toMatchObject({ id: card.id, deleted: true });
	});

	it('refuses a user not associated with the account, and an unknown card', async () => {
		const card = await imageCard();
		expect(refusal(await call('GET', `${A}/cards/all/${String(card.id)}`, {}, OTHER))).toEqual([
			403,
			'UNAUTHORIZED_ACCESS',
			'account_id',
		]);
		expect(refusal(await call('GET', `${A}/cards/all/nosuch`))[0]).toBe(404);
	});
});

describe('image conversation cards', () => {
	it('creates, lists, gets, updates and soft-deletes a card', async () => {
		const card = await imageCard({ second_cta: '#Blue', second_cta_tweet: 'I pick blue' });
		expect(card).toMatchObject({
			card_type: 'IMAGE_CONVERSATION',
			media_key: SAMPLE_IMAGE_KEY,
			second_cta: '#Blue',
			deleted: false,
		});
		expect(String(card.card_uri)).toMatch(/^card:\/\/\d+$/);
		expect(card).not.toHaveProperty('unlocked_image_media_key');

		const listed = await call('GET', `${A}/cards/image_conversation`, {
			card_ids: String(card.id),
			q: 'pick',
			with_total_count: 'true',
		});
		expect(listed.body.data?.map((c) => c.id)).toEqual([card.id]);
		expect(listed.body.total_count).toBe(1);

		const updated = await call('PUT', `${A}/cards/image_conversation/${String(card.id)}`, {
			title: 'Red or blue?',
		});
		expect(updated.body.data).toMatchObject({ title: 'Red or blue?', first_cta: '#Red' });

		const deleted = await call('DELETE', `${A}/cards/image_conversation/${String(card.id)}`);
		expect(deleted.body.data).toEqual({
			name: 'Pick one',
			id: card.id,
			created_at: card.created_at,
			updated_at: expect.any(String),
			deleted: true,
			card_type: 'IMAGE_CONVERSATION',
		});
		const gone = await call('GET', `${A}/cards/image_conversation/${String(card.id)}`);
		expect(gone.status).toBe(404);
		const kept = await call('GET', `${A}/cards/image_conversation/${String(card.id)}`, {
			with_deleted: 'true',
		});
		expect(kept.body.data).toMatchObject({ deleted: true });
	});

	const bad: Array<[string, Record<string, string>, [number, string, string]]> = [
		...(['name', 'media_key', 'first_cta', 'first_cta_tweet', 'thank_you_text'] as const).map(
			(f): [string, Record<string, string>, [number, string, string]] => [
				`no ${f}`,
				{ [f]: '' },
				[400, 'MISSING_PARAMETER', f],
			],
		),
		['a name of 81 characters', { name: 'n'.repeat(81) }, [400, 'INVALID_PARAMETER', 'name']],
		[
			'a CTA of 21 characters',
			{ first_cta: `#${'c'.repeat(21)}` },
			[400, 'INVALID_PARAMETER', 'first_cta'],
		],
		['a title of 24 characters', { title: 't'.repeat(24) }, [400, 'INVALID_PARAMETER', 'title']],
		[
			'a thank-you text of 24 characters',
			{ thank_you_text: 't'.repeat(24) },
			[400, 'INVALID_PARAMETER', 'thank_you_text'],
		],
		['neither a title nor a second CTA', { title: '' }, [400, 'INVALID_PARAMETER', 'title']],
		[
			'a second CTA without its post text',
			{ second_cta: '#Blue' },
			[400, 'MISSING_PARAMETER', 'second_cta_tweet'],
		],
		[
			'a video as the image',
			{ media_key: SAMPLE_VIDEO_KEY },
			[400, 'INVALID_PARAMETER', 'media_key'],
		],
		[
			'an unlocked image not in the library',
			{ unlocked_image_media_key: '3_42' },
			[400, 'INVALID_PARAMETER', 'unlocked_image_media_key'],
		],
		[
			'a thank-you URL that is not one',
			{ thank_you_url: 'thanks' },
			[400, 'INVALID_PARAMETER', 'thank_you_url'],
		],
	];
	it.each(bad)('refuses a card with %s', async (_label, change, expected) => {
		const params = { ...IC, ...change };
		for (const [k, v] of Object.entries(params)) if (v === '') delete params[k as keyof typeof IC];
		expect(refusal(await call('POST', `${A}/cards/image_conversation`, params))).toEqual(expected);
	});

	it('refuses list parameters out of range and with_total_count with a cursor', async () => {
		const list = (params: Record<string, string>) =>
			call('GET', `${A}/cards/image_conversation`, params);
		expect(refusal(await list({ count: '1001' }))).toEqual([400, 'INVALID_PARAMETER', 'count']);
		expect(
			refusal(await list({ card_ids: Array.from({ length: 201 }, (_, i) => `c${i}`).join(',') })),
		).toEqual([400, 'INVALID_PARAMETER', 'card_ids']);
		expect(refusal(await list({ q: 'q'.repeat(81) }))).toEqual([400, 'INVALID_PARAMETER', 'q']);
		expect(refusal(await list({ with_total_count: 'true', cursor: 'x' }))).toEqual([
			400,
			'INVALID_PARAMETER',
			'with_total_count',
		]);
	});

	it('refuses an update breaking a limit, and a user not associated with the account', async () => {
		const card = await imageCard();
		const path = `${A}/cards/image_conversation/${String(card.id)}`;
		expect(refusal(await call('PUT', path, { third_cta: '#Green' }))).toEqual([
			400,
			'MISSING_PARAMETER',
			'third_cta_tweet',
		]);
		for (const [method, p] of [
			['GET', `${A}/cards/image_conversation`],
			['POST', `${A}/cards/image_conversation`],
			['GET', path],
			['PUT', path],
			['DELETE', path],
		])
			expect(refusal(await call(method, p, method === 'POST' ? IC : {}, OTHER))).toEqual([
				403,
				'UNAUTHORIZED_ACCESS',
				'account_id',
			]);
		// Nothing was deleted by the refused call.
		expect((await call('GET', path)).status).toBe(200);
	});

	it('does not find a card through another ad account of the same user', async () => {
		const card = await imageCard();
		sb.db.ads.accounts.set('other1', { id: 'other1', name: 'Other', user_id: sb.keys.userId });
		const there = await call(
			'GET',
			`/12/accounts/other1/cards/image_conversation/${String(card.id)}`,
		);
		expect(refusal(there)[0]).toBe(404);
		const all = await call('GET', `/12/accounts/other1/cards/all/${String(card.id)}`);
		expect(refusal(all)[0]).toBe(404);
	});
});

describe('draft posts: update and delete', () => {
	it('updates the text and media of a draft, and deletes it for good', async () => {
		const d = await draft();
		const path = `${A}/draft_tweets/${String(d.id)}`;
		const updated = await call('PUT', path, { text: 'New text', media_keys: SAMPLE_IMAGE_KEY });
		expect(updated.body.data).toMatchObject({ text: 'New text', media_keys: [SAMPLE_IMAGE_KEY] });
		const deleted = await call('DELETE', path);
		expect(deleted.body.data).toMatchObject({ id: d.id, text: 'New text' });
		expect(refusal(await call('GET', path))).toEqual([404, 'NOT_FOUND', 'draft_tweet_id']);
		expect(refusal(await call('DELETE', path))[0]).toBe(404);
	});

	it('keeps no name: a name sent on creation or update is not stored', async () => {
		const made = await call('POST', `${A}/draft_tweets`, {
			as_user_id: sb.keys.userId,
			text: 'Named?',
			name: 'A name',
		});
		expect(made.body.data).toMatchObject({ name: null });
		const updated = await call('PUT', `${A}/draft_tweets/${String(made.body.data?.id)}`, {
			name: 'Another',
		});
		expect(updated.body.data).toMatchObject({ name: null });
	});

	it('refuses an update that breaks a rule', async () => {
		const d = await draft();
		const path = `${A}/draft_tweets/${String(d.id)}`;
		expect(refusal(await call('PUT', path, { text: '' }))).toEqual([
			400,
			'MISSING_PARAMETER',
			'text',
		]);
		expect(
			refusal(await call('PUT', path, { media_keys: `${SAMPLE_IMAGE_KEY},${SAMPLE_VIDEO_KEY}` })),
		).toEqual([400, 'INVALID_PARAMETER', 'media_keys']);
		expect(refusal(await call('PUT', path, { card_uri: 'card://1' }))).toEqual([
			400,
			'INVALID_PARAMETER',
			'card_uri',
		]);
		expect(refusal(await call('PUT', path, { as_user_id: '1000000002' }))).toEqual([
			403,
			'UNAUTHORIZED_ACCESS',
			'as_user_id',
		]);
		expect(refusal(await call('PUT', path, { text: 'x' }, OTHER))).toEqual([
			403,
			'UNAUTHORIZED_ACCESS',
			'account_id',
		]);
		expect(refusal(await call('DELETE', path, {}, OTHER))).toEqual([
			403,
			'UNAUTHORIZED_ACCESS',
			'account_id',
		]);
		// The draft is unchanged by every refused call.
		expect((await call('GET', path)).body.data).toMatchObject({ text: 'Draft text' });
	});
});

// A module of its own (its names do not meet those of other test files).
export {};
