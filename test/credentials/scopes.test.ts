/* eslint-disable @typescript-eslint/no-require-imports -- the rule table is plain JSON */
import { DEFAULT_OAUTH2_SCOPES } from '../../credentials/PlatformOAuth2Api.credentials';
import { TIMELINES } from '../../nodes/shared/timelines';
import { MODES } from '../../nodes/triggers/poll/modes';

/**
 * The OAuth 2.0 credential's default scopes cover what the service asks of the endpoints the nodes
 * read with an OAuth 2.0 token, by the sandbox's rule table (taken from the service's contract).
 * Every request of every operation is checked against the same table by the conformance test, with
 * a token holding exactly these scopes; this one names the timelines, whose scopes differ the most.
 */

type Rule = { method: string; path: string; auth: { oauth2?: string[] } };
const rules = Object.values(
	(require('../../sandbox/contract/rules.json') as { operations: Record<string, Rule> }).operations,
);
const granted = DEFAULT_OAUTH2_SCOPES.split(' ');

function scopesOf(method: string, path: string): string[] {
	const rule = rules.find((r) => r.method === method && r.path === path);
	if (!rule) throw new Error(`no rule for ${method} ${path}`);
	return rule.auth.oauth2 ?? [];
}

describe('the default OAuth 2.0 scopes', () => {
	it.each(TIMELINES.filter((t) => t.authentication.includes('pkce')).map((t) => [t.name, t]))(
		'cover the %s timeline',
		(_name, timeline) => {
			const needed = scopesOf('GET', `/2/users/{id}/${timeline.suffix}`);
			expect(needed.length).toBeGreaterThan(0);
			expect(needed.filter((s) => !granted.includes(s))).toEqual([]);
		},
	);

	it('cover the Poll Trigger modes and the look-up of the authenticated user', () => {
		const needed = [
			...scopesOf('GET', '/2/users/me'),
			...scopesOf('GET', '/2/tweets/search/recent'),
			...scopesOf('GET', '/2/dm_events'),
		];
		expect(MODES.some((m) => m.value === 'directMessages')).toBe(true);
		expect(needed.filter((s) => !granted.includes(s))).toEqual([]);
	});

	it('ask for refresh tokens and name each scope once', () => {
		expect(granted).toContain('offline.access');
		expect(new Set(granted).size).toBe(granted.length);
	});
});
