/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- credential type names in test parameters, not secrets */
/* eslint-disable @typescript-eslint/no-require-imports -- the sandbox is plain CommonJS */
/**
 * Spaces, trends, Communities, post usage and compliance against the stateful sandbox (its contract
 * check on): what each operation sends, what it returns, and what it refuses before any request.
 */
// eslint-disable-next-line @n8n/community-nodes/no-restricted-imports -- streams built by the test for the line reader; test code, not shipped
import { Readable } from 'node:stream';
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { readLines } from '../../nodes/shared/httpStream';
import { createContext, defaultCredentials, TEST_SECRETS } from '../helpers/context';
import { node, rl } from './helpers';

const { createSandbox } = require('../../sandbox/server');

interface Sandbox {
	url: string;
	records: IDataObject[];
	addLabelEvent(input: IDataObject): IDataObject;
	publishPost(input: IDataObject): IDataObject;
	close(): Promise<void>;
}

let sb: Sandbox;

beforeAll(async () => {
	sb = await createSandbox({
		quiet: true,
		keys: {
			consumerKey: 'ck',
			consumerSecret: TEST_SECRETS.consumerSecret,
			accessToken: TEST_SECRETS.accessToken,
			accessTokenSecret: TEST_SECRETS.accessTokenSecret,
			bearerToken: TEST_SECRETS.bearerToken,
			oauth2UserToken: TEST_SECRETS.oauth2AccessToken,
		},
	}).listen(0);
});
afterAll(async () => await sb.close());

const APP = 'platformBearerApi';
const OAUTH2 = 'platformOAuth2Api';
const OAUTH1 = 'platformOAuth1Api';

/** Runs Platform Posts 1.1 against the sandbox: its output, or its error, and the requests sent. */
async function runOn(parameters: IDataObject, authentication = OAUTH2) {
	const credentials = defaultCredentials();
	for (const c of Object.values(credentials)) c.baseUrl = sb.url;
	const built = createContext({
		parameters: { authentication, ...parameters },
		typeVersion: 1.1,
		credentials,
	});
	try {
		const output = await node.execute.call(built.context);
		return { json: output[0].map((i) => i.json), requests: built.requests, error: undefined };
	} catch (error) {
		return {
			json: [] as IDataObject[],
			requests: built.requests,
			error: error as Error & { httpCode?: string },
		};
	}
}

const query = (url: string) => new URL(url).searchParams;

describe('Space', () => {
	it('Get takes a Space URL and puts the expanded creator and topics beside the Space', async () => {
		const { json, requests, error } = await runOn({
			resource: 'space',
			operation: 'get',
			spaceId: rl('https://x.com/i/spaces/1DXxyRYNejbKM', 'url'),
			spaceFields: ['title', 'creator_id', 'topic_ids'],
			spaceExpansions: ['creator_id', 'topic_ids'],
			userFields: ['created_at'],
		});
		expect(error).toBeUndefined();
		expect(new URL(requests[0].url).pathname).toBe('/2/spaces/1DXxyRYNejbKM');
		expect(query(requests[0].url).get('expansions')).toBe('creator_id,topic_ids');
		expect(json).toHaveLength(1);
		expect(json[0]).toMatchObject({
			id: '1DXxyRYNejbKM',
			state: 'live',
			title: 'Automation office hours',
			creator: { id: '1000000001', username: 'sandbox_user', created_at: expect.any(String) },
			topics: [{ id: '848920371311001600', name: 'Technology' }],
		});
	});

	it('Get Many sends the ids as a repeated parameter and reports a missing Space as an item', async () => {
		const { json, requests, error } = await runOn(
			{
				resource: 'space',
				operation: 'getMany',
				spaceIds: '1DXxyRYNejbKM, https://x.com/i/spaces/1YpKkgVgevkxj 1NoSuchSpace1',
			},
			APP,
		);
		expect(error).toBeUndefined();
		expect(query(requests[0].url).getAll('ids')).toEqual([
			'1DXxyRYNejbKM',
			'1YpKkgVgevkxj',
			'1NoSuchSpace1',
		]);
		expect(json.map((s) => s.id)).toEqual(['1DXxyRYNejbKM', '1YpKkgVgevkxj', '1NoSuchSpace1']);
		expect(json[2].error).toMatch(/Could not find space/);
	});

	it('Get by Creators returns the live and scheduled Spaces of the users, and refuses a username before any request', async () => {
		const ok = await runOn(
			{ resource: 'space', operation: 'getByCreators', creatorUserIds: '1000000001' },
			APP,
		);
		expect(ok.error).toBeUndefined();
		// The sandbox user's ended Space is not among them.
		expect(ok.json.map((s) => s.id)).toEqual(['1DXxyRYNejbKM']);
		const bad = await runOn(
			{ resource: 'space', operation: 'getByCreators', creatorUserIds: '1000000001, @jack' },
			APP,
		);
		expect(bad.error?.message).toMatch(/Creator User IDs: "@jack" is not a user ID/);
		expect(bad.requests).toHaveLength(0);
	});

	it('Search filters by state', async () => {
		const { json, requests } = await runOn({
			resource: 'space',
			operation: 'search',
			query: 'workflow automation',
			state: 'scheduled',
			limit: 10,
		});
		expect(query(requests[0].url).get('state')).toBe('scheduled');
		expect(json.map((s) => s.id)).toEqual(['1YpKkgVgevkxj']);
	});

	it('Get Ticket Buyers pages through the buyers for the creator, with OAuth2 only', async () => {
		const all = await runOn({
			resource: 'space',
			operation: 'getBuyers',
			spaceId: rl('1DXxyRYNejbKM'),
			returnAll: true,
		});
		expect(all.error).toBeUndefined();
		expect(all.json.map((u) => u.username)).toEqual([
			'other_person',
			'ticket_holder',
			'early_bird',
		]);
		const limited = await runOn({
			resource: 'space',
			operation: 'getBuyers',
			spaceId: rl('1DXxyRYNejbKM'),
			returnAll: false,
			limit: 2,
		});
		expect(limited.json).toHaveLength(2);
		expect(query(limited.requests[0].url).get('max_results')).toBe('2');
		// Another user's Space: the service refuses.
		const other = await runOn({
			resource: 'space',
			operation: 'getBuyers',
			spaceId: rl('1YpKkgVgevkxj'),
			returnAll: true,
		});
		expect(other.error?.httpCode).toBe('403');
		const oauth1 = await runOn(
			{ resource: 'space', operation: 'getBuyers', spaceId: rl('1DXxyRYNejbKM'), returnAll: true },
			OAUTH1,
		);
		expect(oauth1.error?.message).toMatch(/needs OAuth2 \(User Context\) authentication/);
		expect(oauth1.requests).toHaveLength(0);
	});

	it('Get Posts returns the posts that link to the Space, with their authors', async () => {
		sb.publishPost({ text: 'Join us live: https://x.com/i/spaces/1OwxWzLXPmyJQ' });
		const { json, error } = await runOn(
			{
				resource: 'space',
				operation: 'getPosts',
				spaceId: rl('1OwxWzLXPmyJQ'),
				tweetFields: ['author_id'],
				expansions: ['author_id'],
			},
			APP,
		);
		expect(error).toBeUndefined();
		expect(json).toHaveLength(1);
		expect(json[0].text).toContain('/i/spaces/1OwxWzLXPmyJQ');
		expect(json[0].author).toMatchObject({ username: 'sandbox_user' });
	});
});

describe('Trend', () => {
	it('Get by Place asks for a listed place by its WOEID and ranks the trends', async () => {
		const { json, requests, error } = await runOn(
			{
				resource: 'trend',
				operation: 'getByPlace',
				place: '2459115',
				maxTrends: 2,
				trendFields: ['trend_name', 'tweet_count'],
			},
			APP,
		);
		expect(error).toBeUndefined();
		expect(new URL(requests[0].url).pathname).toBe('/2/trends/by/woeid/2459115');
		expect(json).toEqual([
			{ rank: 1, woeid: 2459115, trend_name: 'Knicks', tweet_count: expect.any(Number) },
			{ rank: 2, woeid: 2459115, trend_name: 'Central Park', tweet_count: expect.any(Number) },
		]);
	});

	it('Get by Place takes any WOEID, refuses a negative one and needs the app-only bearer', async () => {
		const unknown = await runOn(
			{ resource: 'trend', operation: 'getByPlace', place: 'woeid', woeid: 99 },
			APP,
		);
		expect(unknown.error?.httpCode).toBe('404');
		const negative = await runOn(
			{ resource: 'trend', operation: 'getByPlace', place: 'woeid', woeid: -5 },
			APP,
		);
		expect(negative.error?.message).toMatch(/WOEID: must be a positive WOEID/);
		expect(negative.requests).toHaveLength(0);
		const user = await runOn({ resource: 'trend', operation: 'getByPlace', place: '1' });
		expect(user.error?.message).toMatch(/needs App-Only Bearer Token authentication/);
	});

	it('Get Personalized reads the trends of the user with OAuth1', async () => {
		const { json, requests } = await runOn(
			{
				resource: 'trend',
				operation: 'getPersonalized',
				personalizedTrendFields: ['category', 'post_count'],
			},
			OAUTH1,
		);
		expect(query(requests[0].url).get('personalized_trend.fields')).toBe('category,post_count');
		expect(json[0]).toEqual({ category: 'Technology', post_count: 4200 });
	});
});

describe('Community', () => {
	it('Get reads one Community by URL with its fields', async () => {
		const { json, error } = await runOn(
			{
				resource: 'community',
				operation: 'get',
				communityId: rl('https://x.com/i/communities/1600000000000000001', 'url'),
				communityFields: ['member_count', 'join_policy'],
			},
			APP,
		);
		expect(error).toBeUndefined();
		expect(json).toEqual([
			{
				id: '1600000000000000001',
				name: 'n8n Builders',
				member_count: 1250,
				join_policy: 'Open',
			},
		]);
	});

	it('Search asks for at least 10 per page and returns every match with Return All', async () => {
		const limited = await runOn({
			resource: 'community',
			operation: 'search',
			query: 'automation',
			returnAll: false,
			limit: 5,
		});
		expect(query(limited.requests[0].url).get('max_results')).toBe('10');
		expect(limited.json).toHaveLength(5);
		const all = await runOn({
			resource: 'community',
			operation: 'search',
			query: 'automation',
			returnAll: true,
		});
		expect(all.error).toBeUndefined();
		// The 14 Automation Circles; n8n Builders does not mention automation.
		expect(all.json).toHaveLength(14);
		expect(new Set(all.json.map((c) => c.id)).size).toBe(14);
		expect(query(all.requests[0].url).get('max_results')).toBe('100');
	});
});

describe('Usage', () => {
	it('Get Post Usage returns the project usage with as many days as asked for', async () => {
		const { json, requests, error } = await runOn(
			{
				resource: 'usage',
				operation: 'get',
				days: 3,
				usageFields: ['daily_project_usage', 'project_usage'],
			},
			APP,
		);
		expect(error).toBeUndefined();
		expect(query(requests[0].url).get('days')).toBe('3');
		const daily = (json[0].daily_project_usage as IDataObject).usage as IDataObject[];
		expect(daily).toHaveLength(3);
		expect(json[0].project_usage).toBe(daily.reduce((n, d) => n + Number(d.usage), 0));
	});
});

describe('Compliance', () => {
	it('Create Job makes a job that Get Many Jobs and Get Job then return', async () => {
		const created = await runOn(
			{
				resource: 'compliance',
				operation: 'createJob',
				jobType: 'users',
				jobName: 'Weekly user check',
				resumable: true,
			},
			APP,
		);
		expect(created.error).toBeUndefined();
		expect(JSON.parse(String(created.requests[0].body))).toEqual({
			type: 'users',
			name: 'Weekly user check',
			resumable: true,
		});
		const job = created.json[0];
		expect(job).toMatchObject({ type: 'users', status: 'created', resumable: true });
		const many = await runOn(
			{ resource: 'compliance', operation: 'getManyJobs', jobType: 'users', jobStatus: 'created' },
			APP,
		);
		expect(many.json.map((j) => j.id)).toContain(job.id);
		expect(many.json.every((j) => j.type === 'users')).toBe(true);
		const one = await runOn(
			{
				resource: 'compliance',
				operation: 'getJob',
				complianceJobId: job.id,
				jobFields: ['status', 'download_url'],
			},
			APP,
		);
		expect(one.json).toEqual([
			{ id: job.id, status: 'created', download_url: expect.stringMatching(/^https:/) },
		]);
	});

	it('Create Job refuses a name over 64 characters before any request', async () => {
		const { error, requests } = await runOn(
			{
				resource: 'compliance',
				operation: 'createJob',
				jobType: 'tweets',
				jobName: 'x'.repeat(65),
			},
			APP,
		);
		expect(error?.message).toMatch(/Name: at most 64 characters/);
		expect(requests).toHaveLength(0);
	});

	it('Read Label Stream returns the backfilled events and stops at Max Events', async () => {
		const started = Date.now();
		const { json, requests, error } = await runOn(
			{
				resource: 'compliance',
				operation: 'readLabelStream',
				backfillMinutes: 5,
				maxEvents: 2,
				maxSeconds: 20,
			},
			APP,
		);
		expect(error).toBeUndefined();
		expect(query(requests[0].url).get('backfill_minutes')).toBe('5');
		expect(json).toHaveLength(2);
		expect(json[0]).toMatchObject({
			label_kind: 'public_tweet_notice',
			application: 'apply',
			event_type: 'misleading',
			tweet: { id: '1790000000000000900' },
		});
		// It did not wait for Max Duration.
		expect(Date.now() - started).toBeLessThan(10_000);
	});

	it('Read Label Stream returns the events that come while it reads, until Max Duration', async () => {
		const reading = runOn(
			{
				resource: 'compliance',
				operation: 'readLabelStream',
				backfillMinutes: 0,
				maxEvents: 50,
				maxSeconds: 2,
			},
			APP,
		);
		await sleep(700);
		sb.addLabelEvent({ post_id: '1790000000000000950', kind: 'unviewable' });
		const { json, error } = await reading;
		expect(error).toBeUndefined();
		expect(json).toEqual([
			{
				label_kind: 'public_tweet_unviewable',
				application: 'apply',
				event_at: expect.any(String),
				tweet: { id: '1790000000000000950', author_id: '1000000002' },
			},
		]);
	});

	it('Read Label Stream needs the app-only bearer', async () => {
		const { error, requests } = await runOn({
			resource: 'compliance',
			operation: 'readLabelStream',
		});
		expect(error?.message).toMatch(/needs App-Only Bearer Token authentication/);
		expect(requests).toHaveLength(0);
	});
});

describe('the bounded stream reader', () => {
	it('skips keep-alives, joins a line split across chunks and keeps a line that is not JSON', async () => {
		const body = Readable.from([
			'\r\n{"data":{"a"',
			':1}}\r\n\r\nnot json\r\n{"data":{"b":2}}\r\n',
		]);
		const read = await readLines(body, { maxEvents: 10, maxSeconds: 5 });
		expect(read).toEqual({
			events: [{ data: { a: 1 } }, { unparsed: 'not json' }, { data: { b: 2 } }],
			stoppedBy: 'closed',
		});
	});

	it('stops at Max Events and closes the stream', async () => {
		const body = Readable.from(['{"n":1}\n{"n":2}\n{"n":3}\n']);
		const read = await readLines(body, { maxEvents: 2, maxSeconds: 5 });
		expect(read).toEqual({ events: [{ n: 1 }, { n: 2 }], stoppedBy: 'maxEvents' });
		expect(body.destroyed).toBe(true);
	});

	it('stops when the time is up on a silent stream', async () => {
		const body = new Readable({ read() {} });
		body.push('{"n":1}\n');
		const read = await readLines(body, { maxEvents: 5, maxSeconds: 1 });
		expect(read).toEqual({ events: [{ n: 1 }], stoppedBy: 'maxTime' });
		expect(body.destroyed).toBe(true);
	});
});
