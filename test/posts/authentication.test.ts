import type { INodeProperties, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { PlatformPostsTrigger } from '../../nodes/PlatformPostsTrigger/PlatformPostsTrigger.node';
import { CREDENTIAL_TYPES } from '../../nodes/shared/transport';
import { node, runFailing, setupNock } from './helpers';

/**
 * One mechanism for the credential kinds the service accepts: each operation declares them, the
 * router refuses any other kind before a request (naming the kinds that work), and the editor shows
 * a notice under the operation while another kind is chosen.
 */

setupNock();

const NAMES: Record<string, string> = {
	[CREDENTIAL_TYPES.appOnly]: 'App-Only Bearer Token',
	[CREDENTIAL_TYPES.pkce]: 'OAuth2 (User Context)',
	[CREDENTIAL_TYPES.hmac]: 'OAuth1 Keys (User Context)',
	[CREDENTIAL_TYPES.connect]: 'OAuth1 Connect Account (User Context)',
};
const ALL = Object.keys(NAMES);

const properties = node.description.properties;

/** The notices the editor shows for these parameter values (n8n's own display rules). */
function shownNotices(values: INodeParameters, list: INodeProperties[] = properties): string[] {
	return list
		.filter((p) => p.name === 'authenticationNotice')
		.filter((p) => NodeHelpers.displayParameter(values, p, { typeVersion: 1.1 }, node.description))
		.map((p) => p.displayName);
}

/** Every resource / operation pair the node offers. */
const operations: Array<[string, string]> = (
	properties.find((p) => p.name === 'resource')!.options as Array<{ value: string }>
).flatMap(({ value: resource }) =>
	(
		properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.[0] === resource,
		)!.options as Array<{ value: string }>
	).map(({ value }): [string, string] => [resource, value]),
);

describe('the credential kinds of each operation', () => {
	/** [resource, operation, the kinds the service takes for it (with its fields' defaults)] */
	const expected: Array<[string, string, string[]]> = [
		['post', 'count', [CREDENTIAL_TYPES.appOnly]],
		['post', 'search', ALL],
		['post', 'get', ALL],
		['post', 'create', ALL.slice(1)],
		['news', 'search', [CREDENTIAL_TYPES.appOnly, CREDENTIAL_TYPES.pkce]],
		['news', 'get', ALL],
		['engagement', 'bookmark', [CREDENTIAL_TYPES.pkce]],
		['engagement', 'removeBookmark', [CREDENTIAL_TYPES.pkce]],
		['engagement', 'like', ALL.slice(1)],
		['user', 'getMe', ALL.slice(1)],
		['user', 'get', ALL],
		['admin', 'listWebhooks', [CREDENTIAL_TYPES.appOnly]],
		['admin', 'createSubscription', ALL],
		['token', 'revokeOAuth2Token', [CREDENTIAL_TYPES.pkce]],
		['token', 'revokeOAuth1Token', [CREDENTIAL_TYPES.hmac, CREDENTIAL_TYPES.connect]],
	];

	it.each(expected)('%s → %s: a notice exactly while a refused kind is chosen', (r, o, kinds) => {
		for (const type of ALL) {
			const notices = shownNotices({ authentication: type, resource: r, operation: o });
			if (kinds.includes(type)) expect(notices).toEqual([]);
			else {
				expect(notices).toHaveLength(1);
				for (const k of kinds) expect(notices[0]).toContain(NAMES[k]);
			}
		}
	});

	it('every operation refuses each kind the service does not take, before any request, naming the kinds it does', async () => {
		let refusals = 0;
		for (const [resource, operation] of operations) {
			for (const type of ALL) {
				const values = { authentication: type, resource, operation };
				const notices = shownNotices(values);
				if (!notices.length) continue;
				const { error, requests } = await runFailing({ resource, operation }, undefined, {
					authentication: type,
					typeVersion: 1.1,
				});
				expect(requests).toHaveLength(0);
				expect(error.message).toMatch(/ needs .+ authentication$/);
				expect(error.message).not.toContain(`needs ${NAMES[type]}`);
				// The notice and the failure name the same kinds.
				const needs = error.message.replace(/^.* needs /, '');
				expect(notices[0]).toContain(needs);
				refusals++;
			}
		}
		// Counts, full-archive search, bookmarks, news search, admin, tokens and the user-context
		// operations all refuse something.
		expect(refusals).toBeGreaterThan(60);
	});
});

describe('field values that narrow the kinds', () => {
	it.each([
		[{ resource: 'post', operation: 'search', archive: 'all' }, 'Full-archive search'],
		[{ resource: 'user', operation: 'getTimeline', timeline: 'bookmarks' }, 'Reading Bookmarks'],
		[
			{ resource: 'admin', operation: 'createSubscription', eventType: 'chat.received' },
			'Subscribing to direct message and chat events',
		],
	])('%o: a notice names what needs the narrower kinds', (values, what) => {
		const shown = ALL.map((type) => shownNotices({ ...values, authentication: type }));
		expect(shown.flat().every((n) => n.startsWith(what))).toBe(true);
		expect(shown.filter((n) => n.length).length).toBeGreaterThan(0);
	});

	it('recent search shows no notice for any kind', () => {
		for (const type of ALL)
			expect(
				shownNotices({
					resource: 'post',
					operation: 'search',
					archive: 'recent',
					authentication: type,
				}),
			).toEqual([]);
	});
});

describe('Platform Poll Trigger', () => {
	const trigger = new PlatformPostsTrigger().description;
	const notices = (values: INodeParameters) =>
		trigger.properties
			.filter((p) => p.name === 'authenticationNotice')
			.filter((p) => NodeHelpers.displayParameter(values, p, { typeVersion: 1 }, trigger))
			.map((p) => p.displayName);

	it.each([
		['bookmarks', CREDENTIAL_TYPES.hmac, 'OAuth2 (User Context)'],
		['likedPosts', CREDENTIAL_TYPES.appOnly, 'OAuth1 Keys (User Context)'],
		['directMessages', CREDENTIAL_TYPES.appOnly, 'OAuth2 (User Context)'],
	])('"%s" with %s shows a notice naming %s', (event, authentication, name) => {
		const shown = notices({ event, authentication });
		expect(shown).toHaveLength(1);
		expect(shown[0]).toContain(name);
	});

	it.each(['userPosts', 'search', 'followers'])('"%s" takes every kind', (event) => {
		for (const type of ALL) expect(notices({ event, authentication: type })).toEqual([]);
	});
});
