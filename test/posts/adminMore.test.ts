/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- credential type names in test parameters, not secrets */
/**
 * Admin → List / Count / Check Account Activity Subscriptions, Replay Account Activity, Get Stream
 * Rule Counts, and Community Note → Delete Note, against the sandbox.
 */
import { runOn, startTestSandbox, type TestSandbox } from './sandboxNode';

let sb: TestSandbox;
beforeAll(async () => {
	sb = await startTestSandbox();
});
afterAll(async () => await sb.close());

const BEARER = { authentication: 'platformBearerApi' };

/** A webhook of the app with the sandbox's own account subscribed to its Account Activity. */
function subscribedWebhook(): string {
	const id = sb.newId();
	sb.db.webhooks.set(id, {
		id,
		url: 'https://example.com/hooks/aaa',
		valid: true,
		created_at: new Date().toISOString(),
	});
	sb.db.accountSubscriptions.set(id, new Set([sb.keys.userId]));
	return id;
}

describe('Admin: Account Activity subscriptions', () => {
	it('lists the accounts subscribed to a webhook, one item each', async () => {
		const webhookId = subscribedWebhook();
		sb.db.accountSubscriptions.get(webhookId)!.add('1000000002');
		const { output, requests } = await runOn(
			sb,
			{ resource: 'admin', operation: 'listAccountActivitySubscriptions', webhookId },
			BEARER,
		);
		expect(new URL(requests[0].url).pathname).toBe(
			`/2/account_activity/webhooks/${webhookId}/subscriptions/all/list`,
		);
		expect(output.map((i) => i.json)).toEqual([
			expect.objectContaining({ webhook_id: webhookId, user_id: sb.keys.userId }),
			expect.objectContaining({ webhook_id: webhookId, user_id: '1000000002' }),
		]);
		expect(output.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
	});

	it('counts the subscribed accounts of all webhooks', async () => {
		const before = await runOn(
			sb,
			{ resource: 'admin', operation: 'countAccountActivitySubscriptions' },
			BEARER,
		);
		subscribedWebhook();
		const after = await runOn(
			sb,
			{ resource: 'admin', operation: 'countAccountActivitySubscriptions' },
			BEARER,
		);
		expect(Number(after.output[0].json.subscriptions_count_all)).toBe(
			Number(before.output[0].json.subscriptions_count_all) + 1,
		);
		expect(after.output[0].json.provisioned_count).toBeDefined();
	});

	it("checks the authenticated account's own subscription with its user credential", async () => {
		const webhookId = subscribedWebhook();
		const check = { resource: 'admin', operation: 'checkAccountActivitySubscription', webhookId };
		const yes = await runOn(sb, check, { authentication: 'platformOAuth1Api' });
		expect(yes.output[0].json).toEqual({ webhook_id: webhookId, subscribed: true });
		expect(yes.requests[0].headers.authorization).toMatch(/^OAuth /);
		sb.db.accountSubscriptions.get(webhookId)!.clear();
		const no = await runOn(sb, check);
		expect(no.output[0].json).toEqual({ webhook_id: webhookId, subscribed: false });
		// The app-only token cannot say which account is meant: refused before any request.
		const bearer = await runOn(sb, check, BEARER);
		expect(bearer.requests).toHaveLength(0);
		expect(bearer.error?.message).toMatch(
			/Check an account activity subscription needs OAuth2 \(User Context\), OAuth1 Keys/,
		);
	});

	it('replays a window, sending From and To as yyyymmddhhmm in UTC', async () => {
		const webhookId = subscribedWebhook();
		const from = new Date(Date.now() - 2 * 3600_000);
		const to = new Date(Date.now() - 3600_000);
		const stamp = (d: Date) => d.toISOString().replace(/[-T:]/g, '').slice(0, 12);
		const { output, requests, error } = await runOn(
			sb,
			{
				resource: 'admin',
				operation: 'replayAccountActivity',
				webhookId,
				from: from.toISOString(),
				to: to.toISOString(),
			},
			BEARER,
		);
		expect(error).toBeUndefined();
		const url = new URL(requests[0].url);
		expect(requests[0].method).toBe('POST');
		expect(url.pathname).toBe(`/2/account_activity/replay/webhooks/${webhookId}/subscriptions/all`);
		expect(Object.fromEntries(url.searchParams)).toEqual({
			from_date: stamp(from),
			to_date: stamp(to),
		});
		const job = sb.db.replayJobs.find((j) => j.job_id === output[0].json.job_id);
		expect(job).toMatchObject({ webhook_id: webhookId });
	});

	it('refuses a window older than 24 hours before any request', async () => {
		const { error, requests } = await runOn(
			sb,
			{
				resource: 'admin',
				operation: 'replayAccountActivity',
				webhookId: '1',
				from: new Date(Date.now() - 30 * 3600_000).toISOString(),
				to: new Date().toISOString(),
			},
			BEARER,
		);
		expect(requests).toHaveLength(0);
		expect(error?.message).toBe(
			'Invalid input in item 1: From: the service replays only the past 24 hours',
		);
	});
});

describe('Admin → Get Stream Rule Counts', () => {
	it("returns the app's rule count and the caps asked for", async () => {
		sb.db.streamRules.clear();
		for (const value of ['cats', 'dogs', 'birds']) {
			const id = sb.newId();
			sb.db.streamRules.set(id, { id, value });
		}
		const { output, requests } = await runOn(
			sb,
			{
				resource: 'admin',
				operation: 'getRuleCounts',
				ruleCountFields: ['project_rules_count', 'cap_per_project'],
			},
			BEARER,
		);
		expect(new URL(requests[0].url).searchParams.get('rules_count.fields')).toBe(
			'project_rules_count,cap_per_project',
		);
		expect(output[0].json).toEqual({ project_rules_count: 3, cap_per_project: 1000 });
	});
});

describe('Community Note → Delete Note', () => {
	it('deletes a note the account wrote; a note of another account is refused by the service', async () => {
		const mine = { id: sb.newId(), post_id: '1', author: sb.keys.userId, info: {} };
		const theirs = { id: sb.newId(), post_id: '1', author: '1000000002', info: {} };
		sb.db.notes.push(mine, theirs);
		const { output, requests } = await runOn(sb, {
			resource: 'communityNote',
			operation: 'delete',
			noteId: mine.id,
		});
		expect(`${requests[0].method} ${new URL(requests[0].url).pathname}`).toBe(
			`DELETE /2/notes/${mine.id}`,
		);
		expect(output[0].json).toEqual({ id: mine.id, deleted: true });
		expect(sb.db.notes.map((n) => n.id)).not.toContain(mine.id);
		const refused = await runOn(sb, {
			resource: 'communityNote',
			operation: 'delete',
			noteId: theirs.id,
		});
		expect(refused.error?.message).toMatch(/notes you wrote|Forbidden/);
		expect(sb.db.notes.map((n) => n.id)).toContain(theirs.id);
	});

	it('refuses an ID that is not 1-19 digits before any request', async () => {
		const { error, requests } = await runOn(sb, {
			resource: 'communityNote',
			operation: 'delete',
			noteId: 'abc',
		});
		expect(requests).toHaveLength(0);
		expect(error?.message).toBe(
			'Invalid input in item 1: Note ID: "abc" is not a note ID (1-19 digits)',
		);
	});
});
