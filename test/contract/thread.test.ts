/**
 * Post › Create Thread against the contract: the conformance run reaches the operation with its
 * sample text (one part); this holds every request of a whole thread (media on a part, each part a
 * reply), of a thread whose third part fails, and of its continuation (the lookups of the posted
 * parts), under each user-context credential kind, against the contract's rule table, and every
 * answer of the sandbox against the contract's answer schemas.
 */
import type { INodeParameters } from 'n8n-workflow';

import { PlatformPosts } from '../../nodes/PlatformPosts/PlatformPosts.node';
import { type CaseResult, type Checker, runCase, type Sandbox, startSandbox } from './harness';

let sb: Sandbox;
let checker: Checker;

beforeAll(async () => {
	({ sb, checker } = await startSandbox());
});
afterAll(async () => await sb.close());

const posts = new PlatformPosts();
const invoke = (context: never) => posts.execute.call(context);

function broken(result: CaseResult): string[] {
	return [
		...result.requests.flatMap((r) =>
			r.violations.map((v) => `${r.method} ${r.path} breaks ${v.rule}: ${v.message}`),
		),
		...result.answers.flatMap((a) =>
			a.violations.map(
				(v) => `the answer to ${a.route} (${a.status}) breaks ${v.rule}: ${v.message}`,
			),
		),
	];
}

/** The sandbox answers the third post create from now 503 (the first two pass). */
function failThirdCreate(sb: Sandbox): void {
	(sb as unknown as { faults: { rules: unknown[] } }).faults.rules.push({
		status: 503,
		remaining: 1,
		skip: 2,
		method: 'POST',
		path: '^/2/tweets$',
	});
}

const thread = (
	authentication: string,
	tag: string,
	extra: INodeParameters = {},
): INodeParameters => ({
	authentication,
	resource: 'post',
	operation: 'createThread',
	partsFrom: 'list',
	parts: JSON.stringify([`${tag} one`, `${tag} two`, `${tag} three`, `${tag} four`]),
	additionalFields: {
		partMedia: { media: [{ part: 2, binaryProperties: 'data', mediaIds: '' }] },
		altTexts: { altText: [{ property: 'data', text: 'A one-pixel sample image' }] },
	},
	...extra,
});

describe.each(['platformOAuth2Api', 'platformOAuth1Api', 'platformOAuth1ConnectApi'])(
	'Post › Create Thread as %s',
	(authentication) => {
		it('a whole thread, a failing third part and its continuation send only requests the contract allows', async () => {
			const tag = `Thread ${authentication}`;
			const whole = await runCase(sb, checker, 'whole', thread(authentication, tag), invoke, {
				typeVersion: 1.1,
			});
			expect(whole.error).toBeUndefined();
			expect(whole.requests.map((r) => `${r.method} ${r.path}`)).toEqual(
				expect.arrayContaining(['POST /2/media/upload/initialize', 'POST /2/media/metadata']),
			);
			expect(whole.requests.filter((r) => r.path === '/2/tweets')).toHaveLength(4);
			expect(broken(whole)).toEqual([]);

			failThirdCreate(sb);
			const failing = await runCase(
				sb,
				checker,
				'failing',
				thread(authentication, `${tag} again`),
				invoke,
				{ typeVersion: 1.1 },
			);
			expect(failing.error).toMatch(/^Part 3 of 4 was not posted/);
			expect(broken(failing)).toEqual([]);
			const posted = failing.requests.filter((r) => r.path === '/2/tweets');
			expect(posted).toHaveLength(3);

			const output = (await runCase(
				sb,
				checker,
				'failing, continue on fail',
				thread(authentication, `${tag} third`),
				async (context: never) => {
					failThirdCreate(sb);
					return await posts.execute.call(
						Object.create(context, { continueOnFail: { value: () => true } }) as never,
					);
				},
				{ typeVersion: 1.1 },
			)) as CaseResult;
			const item = (output.output as Array<Array<{ json: Record<string, unknown> }>>)[0][0].json;
			expect(item.failed_part).toBe(3);
			const rest = await runCase(
				sb,
				checker,
				'continue',
				thread(authentication, `${tag} third`, {
					options: { continueAfterPostId: String(item.continue_after_post_id) },
				}),
				invoke,
				{ typeVersion: 1.1 },
			);
			expect(rest.error).toBeUndefined();
			expect(
				rest.requests.filter((r) => r.method === 'GET' && /^\/2\/tweets\/\d+$/.test(r.path)),
			).toHaveLength(2);
			expect(
				rest.requests.filter((r) => r.method === 'POST' && r.path === '/2/tweets'),
			).toHaveLength(2);
			expect(broken(rest)).toEqual([]);
		}, 60_000);
	},
);
