import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { ADS_BASE } from '../helpers/context';
import { A, build, failure, node, queryOf, rl, run } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const poll = {
	resource: 'pollCard',
	operation: 'create',
	name: 'Which colour?',
	durationInMinutes: 1440,
	firstChoice: 'Red',
	secondChoice: 'Blue',
	thirdChoice: '',
	fourthChoice: '',
	mediaKey: '',
};

describe('Poll Card', () => {
	it('creates a poll with query parameters and leaves unset choices out', async () => {
		nock(ADS_BASE)
			.post(`${A}/cards/poll`)
			.query(true)
			.reply(201, { data: { id: 'p1', card_uri: 'card://5', card_type: 'TEXT_POLLS' } });
		const { out, requests } = await run({ ...poll, thirdChoice: 'Green' });
		expect(queryOf(requests[0].url)).toEqual({
			name: 'Which colour?',
			duration_in_minutes: '1440',
			first_choice: 'Red',
			second_choice: 'Blue',
			third_choice: 'Green',
		});
		expect(out[0].json.card_uri).toBe('card://5');
	});

	const bad: Array<[string, IDataObject, RegExp]> = [
		[
			'a duration of 4 minutes',
			{ durationInMinutes: 4 },
			/Duration \(Minutes\): at least 5 minutes/,
		],
		[
			'a duration of 10,081 minutes',
			{ durationInMinutes: 10081 },
			/Duration \(Minutes\): at most 10,080 minutes/,
		],
		[
			'a fourth choice without a third',
			{ fourthChoice: 'Pink' },
			/Fourth Choice: needs a third choice/,
		],
		[
			'a choice of 26 characters',
			{ secondChoice: 'b'.repeat(26) },
			/Second Choice: at most 25 characters/,
		],
		['no second choice', { secondChoice: '' }, /Second Choice/],
		['a name of 81 characters', { name: 'n'.repeat(81) }, /Name: at most 80 characters/],
		['a media key that is not one', { mediaKey: 'img.png' }, /Media Key: a media key looks like/],
	];
	it.each(bad)('refuses %s before any request', async (_label, change, message) => {
		const built = build({ ...poll, ...change });
		const error = await failure(node.execute.call(built.context));
		expect(error.message).toMatch(message);
		expect(error.message).toContain('item 1');
		expect(built.requests).toHaveLength(0);
	});

	it('is not retried on a 5xx (a create)', async () => {
		nock(ADS_BASE).post(`${A}/cards/poll`).query(true).times(3).reply(503, {});
		const built = build(poll);
		await failure(node.execute.call(built.context));
		expect(built.requests).toHaveLength(1);
	});

	it('lists poll cards with a limit, ids and name prefix; count up to 1000', async () => {
		const built = build({
			resource: 'pollCard',
			operation: 'getMany',
			returnAll: false,
			limit: 1000,
			filters: { cardIds: 'p1,p2', q: 'Which' },
		});
		nock(ADS_BASE)
			.get(`${A}/cards/poll`)
			.query(true)
			.reply(200, { data: [{ id: 'p1' }, { id: 'p2' }], next_cursor: null });
		const [out] = await node.execute.call(built.context);
		expect(out).toHaveLength(2);
		expect(queryOf(built.requests[0].url)).toEqual({
			count: '1000',
			card_ids: 'p1,p2',
			q: 'Which',
		});
	});

	it('gets a poll card', async () => {
		nock(ADS_BASE)
			.get(`${A}/cards/poll/p1`)
			.reply(200, { data: { id: 'p1', duration_in_minutes: '1440' } });
		const { out } = await run({ resource: 'pollCard', operation: 'get', pollCardId: rl('p1') });
		expect(out[0].json.duration_in_minutes).toBe('1440');
	});

	it('deletes a poll card for good and says so in the UI', async () => {
		nock(ADS_BASE)
			.delete(`${A}/cards/poll/p1`)
			.reply(200, { data: { id: 'p1', deleted: true } });
		const { out } = await run({ resource: 'pollCard', operation: 'delete', pollCardId: rl('p1') });
		expect(out[0].json.deleted).toBe(true);
		const notice = node.description.properties.find(
			(p) => p.type === 'notice' && p.displayOptions?.show?.resource?.[0] === 'pollCard',
		);
		expect(notice?.displayName).toMatch(/deleted for good/);
		const op = node.description.properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.[0] === 'pollCard',
		);
		expect(JSON.stringify(op?.options)).toMatch(/hard delete/);
	});
});
