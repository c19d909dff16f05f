/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- credential type names in test parameters, not secrets */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { AdsCreatives } from '../../nodes/AdsCreatives/AdsCreatives.node';
import { ADS_BASE, createContext } from '../helpers/context';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const node = new AdsCreatives();

function build(parameters: IDataObject) {
	return createContext({ parameters: { authentication: 'platformOAuth1Api', accountId: 'acc1', ...parameters } });
}

async function failure(promise: Promise<unknown>) {
	return await promise.then(
		() => {
			throw new Error('expected a failure');
		},
		(e: Error) => e,
	);
}

const websiteCard = {
	resource: 'card',
	operation: 'create',
	name: 'Launch',
	mode: 'builder',
	mediaType: 'MEDIA',
	mediaKeys: '3_111',
	action: 'DETAILS',
	title: 'Our launch',
	websiteUrl: 'https://example.com/launch',
};

describe('Card → Create', () => {
	it('builds MEDIA + DETAILS and posts JSON signed with OAuth 1.0a', async () => {
		let sent: IDataObject = {};
		nock(ADS_BASE)
			.post('/12/accounts/acc1/cards', (b) => {
				sent = b;
				return true;
			})
			.reply(200, { data: { id: 'c1', card_uri: 'card://99', name: 'Launch' }, request: { params: {} } });
		const built = build(websiteCard);
		const [out] = await node.execute.call(built.context);
		expect(sent).toEqual({
			name: 'Launch',
			components: [
				{ type: 'MEDIA', media_key: '3_111' },
				{ type: 'DETAILS', title: 'Our launch', destination: { type: 'WEBSITE', url: 'https://example.com/launch' } },
			],
		});
		expect(built.requests[0].headers.authorization).toMatch(/^OAuth .*oauth_signature=/);
		expect(out[0].json.card_uri).toBe('card://99');
	});

	const bad: Array<[string, IDataObject, RegExp]> = [
		['1 swipeable media key', { mediaType: 'SWIPEABLE_MEDIA', mediaKeys: '3_1' }, /Swipeable Media Keys.*: needs 2 to 6 media keys/],
		['7 swipeable media keys', { mediaType: 'SWIPEABLE_MEDIA', mediaKeys: '3_1,3_2,3_3,3_4,3_5,3_6,3_7' }, /Swipeable Media Keys.*: needs 2 to 6 media keys/],
		['a name of 81 characters', { name: 'n'.repeat(81) }, /Name: at most 80 characters/],
		['a deep link without its store id', { action: 'BUTTON', label: 'INSTALL', app: { country_code: 'US', partnerb_app_store_identifier: '123', partneraplay_deep_link: 'app://x' } }, /Store A Deep Link.*: needs its store app ID/],
		['a button without a store id', { action: 'BUTTON', label: 'INSTALL', app: { country_code: 'US' } }, /at least one store app ID is required/],
	];
	it.each(bad)('refuses %s before any request', async (_label, change, message) => {
		const built = build({ ...websiteCard, ...change });
		const error = await failure(node.execute.call(built.context));
		expect(error.message).toMatch(message);
		expect(error.message).toContain('item 1');
		expect(built.requests).toHaveLength(0);
	});

	it('refuses a BUTTON with a WEBSITE destination (raw JSON mode)', async () => {
		const built = build({
			resource: 'card',
			operation: 'create',
			name: 'x',
			mode: 'json',
			cardJson: JSON.stringify({
				components: [
					{ type: 'MEDIA', media_key: '3_1' },
					{ type: 'BUTTON', label: { type: 'ENUM', value: 'SHOP' }, destination: { type: 'WEBSITE', url: 'https://a.b' } },
				],
			}),
		});
		const error = await failure(node.execute.call(built.context));
		expect(error.message).toMatch(/a BUTTON needs an APP destination, not WEBSITE/);
		expect(built.requests).toHaveLength(0);
	});

	it('lists cards with a limit via cursor', async () => {
		nock(ADS_BASE)
			.get('/12/accounts/acc1/cards').query({ count: '3' }).reply(200, { data: [{ id: 'a' }, { id: 'b' }], next_cursor: 'c' })
			.get('/12/accounts/acc1/cards').query({ count: '1', cursor: 'c' }).reply(200, { data: [{ id: 'c' }], next_cursor: 'd' });
		const [out] = await node.execute.call(build({ resource: 'card', operation: 'getMany', returnAll: false, limit: 3, q: '' }).context);
		expect(out.map((i) => i.json.id)).toEqual(['a', 'b', 'c']);
	});
});

describe('Scheduled Post → Create', () => {
	it('schedules a post with the card of a previous step', async () => {
		let sent: IDataObject = {};
		nock(ADS_BASE)
			.post('/12/accounts/acc1/scheduled_tweets', (b) => {
				sent = b;
				return true;
			})
			.reply(200, { data: { id: 's1', scheduled_status: 'SCHEDULED' } });
		const at = new Date(Date.now() + 3600_000);
		const [out] = await node.execute.call(
			build({ resource: 'scheduledPost', operation: 'create', asUserId: '12', scheduledAt: at.toISOString(), text: 'Soon', additionalFields: { card_uri: 'card://99' } }).context,
		);
		expect(sent).toEqual({ as_user_id: '12', scheduled_at: at.toISOString().replace(/\.\d{3}Z$/, 'Z'), text: 'Soon', card_uri: 'card://99', nullcast: true });
		expect(out[0].json.id).toBe('s1');
	});

	it('refuses scheduled_at in the past before any request', async () => {
		const built = build({ resource: 'scheduledPost', operation: 'create', asUserId: '12', scheduledAt: '2020-01-01T00:00:00Z', text: 'x', additionalFields: {} });
		const error = await failure(node.execute.call(built.context));
		expect(error.message).toMatch(/Scheduled At: must be in the future/);
		expect(built.requests).toHaveLength(0);
	});

	it('is never retried on a 5xx (a create)', async () => {
		nock(ADS_BASE).post('/12/accounts/acc1/scheduled_tweets').times(3).reply(503, { errors: [{ code: 'SERVICE_UNAVAILABLE', message: 'down' }] });
		const built = build({ resource: 'scheduledPost', operation: 'create', asUserId: '12', scheduledAt: new Date(Date.now() + 3600_000).toISOString(), text: 'x', additionalFields: {} });
		await failure(node.execute.call(built.context));
		expect(built.requests).toHaveLength(1);
	});
});
