/* eslint-disable @typescript-eslint/no-require-imports -- the sandbox is plain CommonJS */
/**
 * List against the local sandbox (its contract check on), whose answers are stateful: what one
 * operation creates or changes, the next one reads.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	ILoadOptionsFunctions,
} from 'n8n-workflow';

import { searchOwnedLists } from '../../nodes/shared/listSearch';
import { createContext } from '../helpers/context';
import { rl, run, runFailing } from './helpers';

const { createSandbox } = require('../../sandbox/server');

type Sandbox = {
	url: string;
	keys: Record<string, string>;
	seededListId: string;
	records: Array<{ method: string; path: string; query: IDataObject; status: number }>;
	close(): Promise<void>;
	publishPost(input: IDataObject): IDataObject;
};
let sb: Sandbox;
let credentials: Record<string, ICredentialDataDecryptedObject>;
const OTHER = '1000000002';
/** The sandbox's public list owned by another account. */
const OTHERS_LIST = '1780000000000000002';

beforeAll(async () => {
	sb = await createSandbox({ quiet: true }).listen(0);
	credentials = {
		platformOAuth2Api: {
			clientId: 'sandbox-client',
			clientSecret: 'sandbox-client-secret',
			oauthTokenData: { access_token: sb.keys.oauth2UserToken },
			baseUrl: sb.url,
			webUrl: sb.url,
		},
		platformOAuth1Api: {
			consumerKey: sb.keys.consumerKey,
			consumerSecret: sb.keys.consumerSecret,
			accessToken: sb.keys.accessToken,
			accessTokenSecret: sb.keys.accessTokenSecret,
			baseUrl: sb.url,
			adsBaseUrl: sb.url,
		},
		platformBearerApi: {
			origin: 'pasted',
			bearerToken: sb.keys.bearerToken,
			consumerKey: sb.keys.consumerKey,
			consumerSecret: sb.keys.consumerSecret,
			mintedToken: '',
			baseUrl: sb.url,
			adsBaseUrl: sb.url,
		},
	};
});
afterAll(async () => await sb.close());

const list = (parameters: IDataObject, authentication = 'platformOAuth2Api') =>
	run({ resource: 'list', ...parameters }, undefined, { credentials, authentication });
const failing = (parameters: IDataObject, authentication = 'platformOAuth2Api') =>
	runFailing({ resource: 'list', ...parameters }, undefined, { credentials, authentication });
const json = (output: Array<{ json: IDataObject }>) => output.map((o) => o.json);

describe('List: create, read, change, delete', () => {
	it('creates a private list, finds it by URL, renames it, makes it public and deletes it', async () => {
		const created = await list({
			operation: 'create',
			name: 'Automation news',
			description: 'Accounts about workflows',
			private: true,
		});
		const id = String(created.output[0].json.id);
		expect(created.output[0].json).toEqual({ id, name: 'Automation news', private: true });
		expect(JSON.parse(created.requests[0].body ?? '{}')).toEqual({
			name: 'Automation news',
			description: 'Accounts about workflows',
			private: true,
		});

		const got = await list({
			operation: 'get',
			listId: rl(`https://x.com/i/lists/${id}`, 'url'),
			listFields: ['description', 'member_count', 'owner_id', 'private'],
			includeOwner: true,
			userFields: ['created_at'],
		});
		expect(got.output[0].json).toMatchObject({
			id,
			name: 'Automation news',
			description: 'Accounts about workflows',
			member_count: 0,
			private: true,
			owner_id: sb.keys.userId,
			owner: { id: sb.keys.userId, username: sb.keys.username, created_at: expect.any(String) },
		});
		// A private list is not shown to the app.
		const hidden = await failing({ operation: 'get', listId: rl(id) }, 'platformBearerApi');
		expect(hidden.error.message).toBe(`The list ${id} was not found`);

		const updated = await list({
			operation: 'update',
			listId: rl(id),
			name: 'Workflow news',
			visibility: 'public',
		});
		expect(updated.output[0].json).toEqual({
			id,
			updated: true,
			name: 'Workflow news',
			private: false,
		});
		expect(JSON.parse(updated.requests[0].body ?? '{}')).toEqual({
			name: 'Workflow news',
			private: false,
		});
		const shown = await list(
			{ operation: 'get', listId: rl(id), listFields: ['private'] },
			'platformBearerApi',
		);
		expect(shown.output[0].json).toEqual({ id, name: 'Workflow news', private: false });

		const deleted = await list({ operation: 'delete', listId: rl(id) });
		expect(deleted.output[0].json).toEqual({ id, deleted: true });
		const gone = await failing({ operation: 'get', listId: rl(id) });
		expect(gone.error.message).toBe(`The list ${id} was not found`);
	});

	it('refuses a name longer than 25 characters and an update with nothing to change, before any request', async () => {
		const long = await failing({ operation: 'create', name: 'A name that is far too long' });
		expect(long.error.message).toBe('Invalid input in item 1: Name: must be at most 25 characters');
		expect(long.requests).toHaveLength(0);
		const description = await failing({
			operation: 'create',
			name: 'Fine',
			description: 'x'.repeat(101),
		});
		expect(description.error.message).toBe(
			'Invalid input in item 1: Description: must be at most 100 characters',
		);
		const nothing = await failing({ operation: 'update', listId: rl(sb.seededListId) });
		expect(nothing.error.message).toBe(
			'Nothing to update in item 1: set Name, Description or Visibility',
		);
		expect(nothing.requests).toHaveLength(0);
		const badUrl = await failing({
			operation: 'get',
			listId: rl('https://x.com/someone/lists', 'url'),
		});
		expect(badUrl.error.message).toBe(
			'"List" in item 1 is not valid: "https://x.com/someone/lists"',
		);
	});

	it("takes only a user's token for changes, and any kind for reads", async () => {
		const refused = await failing({ operation: 'create', name: 'Mine' }, 'platformBearerApi');
		expect(refused.error.message).toBe(
			'Create a list needs OAuth2 (User Context), OAuth1 Keys (User Context) or OAuth1 Connect Account (User Context) authentication',
		);
		expect(refused.requests).toHaveLength(0);
		const members = await list(
			{ operation: 'getMembers', listId: rl(sb.seededListId) },
			'platformBearerApi',
		);
		expect(json(members.output).map((u) => u.id)).toEqual([OTHER]);
	});

	it("refuses to change another account's list (the service's 403)", async () => {
		const { error } = await failing({
			operation: 'update',
			listId: rl(OTHERS_LIST),
			name: 'Taken over',
		});
		expect((error as { httpCode?: string }).httpCode).toBe('403');
	});
});

describe('List: members, followers and posts', () => {
	it('adds a member by handle with OAuth1, reads members with their pinned post and removes the member', async () => {
		const created = await list({ operation: 'create', name: 'Members test' });
		const id = String(created.output[0].json.id);
		const added = await list(
			{ operation: 'addMember', listId: rl(id), user: rl('other_person', 'username') },
			'platformOAuth1Api',
		);
		expect(added.output[0].json).toEqual({ is_member: true, list_id: id, user_id: OTHER });
		const post = sb.publishPost({ text: 'Latest from the member', author_id: OTHER });

		const members = await list({
			operation: 'getMembers',
			listId: rl(id),
			userFields: ['verified'],
			expansions: ['most_recent_tweet_id'],
			tweetFields: ['created_at'],
		});
		expect(json(members.output)).toEqual([
			expect.objectContaining({
				id: OTHER,
				username: 'other_person',
				verified: true,
				list_id: id,
				most_recent_post: expect.objectContaining({ id: post.id, text: 'Latest from the member' }),
			}),
		]);

		const removed = await list({ operation: 'removeMember', listId: rl(id), user: rl(OTHER) });
		expect(removed.output[0].json).toEqual({ is_member: false, list_id: id, user_id: OTHER });
		const none = await list({ operation: 'getMembers', listId: rl(id) });
		expect(none.output).toEqual([]);
	});

	it("reads a list's posts newest first, authors beside them, up to the Limit or all pages", async () => {
		const created = await list({ operation: 'create', name: 'Posts test' });
		const id = String(created.output[0].json.id);
		await list({ operation: 'addMember', listId: rl(id), user: rl(OTHER) });
		const ids: string[] = [];
		for (let i = 0; i < 105; i++)
			ids.push(String(sb.publishPost({ text: `List post ${i}`, author_id: OTHER }).id));

		const limited = await list({
			operation: 'getPosts',
			listId: rl(id),
			limit: 3,
			tweetFields: ['author_id'],
			expansions: ['author_id'],
		});
		expect(json(limited.output).map((p) => p.id)).toEqual(ids.slice(-3).reverse());
		expect(limited.output[0].json.author).toMatchObject({ id: OTHER, username: 'other_person' });
		expect(new URL(limited.requests[0].url).searchParams.get('max_results')).toBe('3');

		const all = await list({ operation: 'getPosts', listId: rl(id), returnAll: true });
		const pageRequests = all.requests.filter((r) => r.url.includes(`/2/lists/${id}/tweets`));
		expect(pageRequests).toHaveLength(2);
		expect(new URL(pageRequests[1].url).searchParams.get('pagination_token')).toBeTruthy();
		// Every post of the member: the 105 above and the one of the earlier test.
		expect(all.output.length).toBeGreaterThanOrEqual(105);
		expect(
			json(all.output)
				.slice(0, 105)
				.map((p) => p.id),
		).toEqual([...ids].reverse());
	});
});

describe('List: follow and pin as the authenticated user', () => {
	it("follows and pins another account's list; the user's followed and pinned lists show it until undone", async () => {
		const timeline = async (which: string) =>
			json(
				(
					await run(
						{ resource: 'user', operation: 'getTimeline', timeline: which, forMe: true },
						undefined,
						{ credentials },
					)
				).output,
			).map((l) => l.id);

		const followed = await list({ operation: 'follow', listId: rl(OTHERS_LIST) });
		expect(followed.output[0].json).toEqual({
			following: true,
			list_id: OTHERS_LIST,
			user_id: sb.keys.userId,
		});
		expect(JSON.parse(followed.requests[1].body ?? '{}')).toEqual({ list_id: OTHERS_LIST });
		expect(await timeline('followedLists')).toEqual([OTHERS_LIST]);
		const followers = await list({ operation: 'getFollowers', listId: rl(OTHERS_LIST) });
		expect(json(followers.output).map((u) => u.id)).toEqual([sb.keys.userId]);

		const pinned = await list({ operation: 'pin', listId: rl(OTHERS_LIST) }, 'platformOAuth1Api');
		expect(pinned.output[0].json).toMatchObject({ pinned: true, list_id: OTHERS_LIST });
		expect(await timeline('pinnedLists')).toEqual([OTHERS_LIST]);

		const unpinned = await list({ operation: 'unpin', listId: rl(OTHERS_LIST) });
		expect(unpinned.output[0].json).toMatchObject({ pinned: false });
		expect(await timeline('pinnedLists')).toEqual([]);
		const unfollowed = await list({ operation: 'unfollow', listId: rl(OTHERS_LIST) });
		expect(unfollowed.output[0].json).toMatchObject({ following: false });
		expect(await timeline('followedLists')).toEqual([]);
	});
});

describe("List field's From List mode", () => {
	const search = async (authentication: string, filter?: string) => {
		const built = createContext({ parameters: { authentication }, credentials });
		return await searchOwnedLists.call(built.context as unknown as ILoadOptionsFunctions, filter);
	};

	it("lists the authenticated user's own lists, filtered by name", async () => {
		await list({ operation: 'create', name: 'Search me' });
		const all = await search('platformOAuth2Api');
		expect(all.results.map((r) => r.name)).toEqual(
			expect.arrayContaining(['Sandbox reading (1780000000000000001)']),
		);
		expect(all.results.some((r) => r.value === OTHERS_LIST)).toBe(false);
		const filtered = await search('platformOAuth2Api', 'search');
		expect(filtered.results).toEqual([
			{ name: expect.stringMatching(/^Search me \(\d+\)$/), value: expect.any(String) },
		]);
	});

	it('says to enter the ID or URL when the app-only bearer is chosen', async () => {
		const result = await search('platformBearerApi');
		expect(result.results).toEqual([
			{ name: 'Your Lists Need a User Credential: Enter the ID or URL', value: '' },
		]);
	});
});
