'use strict';
/**
 * The trigger example (examples/new-post-to-scheduled-ad-post.json) against the events it really gets,
 * inside n8n as `npm start` imports it: posts with and without an image, a reply, a repost, a quote, a
 * post deleted before the run fetched its image, then an n8n restart with three events missed meanwhile
 * (recovered by the trigger's replay job, whose status arrives on the trigger's Status output). Every
 * run must succeed and each post must have taken its path (card, text only, skipped).
 */
const F = require('../lib/fixtures');
const { session } = require('../lib/rest');

const ID = 'exPostToAdPost01';
const FAILED = ['error', 'crashed', 'canceled'];
const DONE = ['success', ...FAILED];

const example = (ctx) => F.sandboxExample(ctx.sandboxUrl, ID);

/** The runs of the example started after `before` (a set of execution ids), once all have finished. */
async function newRuns(ctx, before, expected, what) {
	const s = await session(ctx.inst.port);
	let last = [];
	await ctx.waitFor(
		`${expected} finished runs of the example (${what})`,
		async () => {
			last = (await s.executions(ID)).filter((e) => !before.has(e.id));
			return last.length >= expected && last.every((e) => DONE.includes(e.status));
		},
		{ timeoutMs: 120000, intervalMs: 1000 },
	);
	// Nothing more arrives late (a duplicate that ran twice would show here).
	await ctx.sleep(4000);
	last = (await s.executions(ID)).filter((e) => !before.has(e.id));
	return last;
}

module.exports = [
	{
		name: 'examples under ordinary events: the trigger example takes a path for posts with and without an image, replies, reposts, quotes, a deleted post and a replay after a restart, with no failed run',
		needs: [
			'platformTriggerPosts',
			'adsCreatives:card.create',
			'adsCreatives:scheduledPost.create',
		],
		modes: ['regular'],
		workflows: (ctx) => [example(ctx)].filter(Boolean),
		publish: () => [ID],
		timeoutMs: 420000,
		async run(ctx) {
			const { assert, sandbox, inst } = ctx;
			const webhookId = F.uuidFrom('example:post-to-ad-post:trigger');
			const hookOf = () =>
				[...sandbox.db.webhooks.values()].find(
					(w) =>
						w.url.includes(webhookId) &&
						[...sandbox.db.subscriptions.values()].some((s) => s.webhook_id === w.id),
				);
			const hook = await ctx.waitFor('the example trigger to register its webhook', hookOf, {
				timeoutMs: 60000,
			});
			const before = new Set((await (await session(inst.port)).executions(ID)).map((e) => e.id));
			const scheduledBefore = new Set(sandbox.db.ads.scheduled.keys());
			const emit = async (input) => {
				const [e] = await sandbox.emit(
					Object.assign({ event_type: 'post.create', webhook_id: hook.id }, input),
				);
				return e;
			};
			const live = async (input) => {
				const e = await emit(input);
				assert.equal(e.deliveries[0].status, 200, JSON.stringify(e.deliveries));
			};

			// Live events: 3 posts with an image, 3 without, a reply, a repost, a quote with an image,
			// and a post with an image deleted before the run downloads it.
			for (let i = 1; i <= 3; i++) await live({ text: `New bike model ${i}`, media: true });
			for (let i = 1; i <= 3; i++) await live({ text: `Shop news ${i}` });
			await live({ text: 'Thanks!', reply_to: '1234567890123' });
			await live({ text: 'Look at this', repost_of: '1234567890124' });
			await live({ text: 'Our take on it', quote_of: '1234567890125', media: true });
			await live({ text: 'Posted by mistake', media: true, deleted: true });
			const first = await newRuns(ctx, before, 10, 'live events');
			assert.equal(first.length, 10, `one run per event: ${JSON.stringify(first)}`);

			// n8n down: three events are missed, then recovered by the trigger's replay job.
			await inst.stopN8n();
			const missed = [
				await emit({ text: 'While n8n was down 1', media: true }),
				await emit({ text: 'While n8n was down 2' }),
				await emit({ text: 'While n8n was down 3' }),
			];
			for (const e of missed)
				assert.notEqual(e.deliveries[0].status, 200, 'n8n is down: the delivery must fail');
			// The trigger replays whole minutes (yyyymmddhhmm): restart in a later minute.
			const nextMinute = (Math.floor(Date.now() / 60000) + 1) * 60000;
			await ctx.sleep(Math.max(0, nextMinute - Date.now()) + 1000);
			const jobsBefore = sandbox.db.replayJobs.length;
			await inst.start();
			// The service's next CRC check reaches the restarted trigger, which asks for the replay.
			const url = hook.url.replace('//localhost:', '//127.0.0.1:');
			await ctx.waitFor(
				'the example to answer a CRC check after the restart',
				async () => {
					const r = await fetch(`${url}?crc_token=e2e-examples-events-check`);
					if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
					return true;
				},
				{ timeoutMs: 120000 },
			);
			const job = await ctx.waitFor(
				'the trigger to create a replay job after the restart',
				() => sandbox.db.replayJobs.slice(jobsBefore).find((j) => j.webhook_id === hook.id),
				{ timeoutMs: 60000 },
			);
			await ctx.waitFor('the replay job to finish', () => job.finished_at, { timeoutMs: 60000 });
			await live({ text: 'After the restart' });

			// 10 live + 3 missed + 1 after the restart + 1 replay status run.
			const runs = await newRuns(ctx, before, 15, 'after the replay');
			const failed = runs.filter((e) => FAILED.includes(e.status));
			assert.deepEqual(failed, [], `failed runs of the example: ${JSON.stringify(failed)}`);
			assert.equal(runs.length, 15, `runs: ${JSON.stringify(runs.map((e) => e.status))}`);

			// Each post took its path: the card path for the 5 posts with a downloadable image (3 + the
			// quote + one missed), a text-only ad post for the 6 without one (3 + 2 missed + 1 after);
			// the reply, the repost and the deleted post scheduled nothing.
			const scheduled = [...sandbox.db.ads.scheduled.values()].filter(
				(s) => !scheduledBefore.has(s.id),
			);
			const texts = (withCard) =>
				scheduled
					.filter((s) => !!s.card_uri === withCard)
					.map((s) => s.text)
					.sort();
			assert.deepEqual(texts(true), [
				'New bike model 1',
				'New bike model 2',
				'New bike model 3',
				'Our take on it',
				'While n8n was down 1',
			]);
			assert.deepEqual(texts(false), [
				'After the restart',
				'Shop news 1',
				'Shop news 2',
				'Shop news 3',
				'While n8n was down 2',
				'While n8n was down 3',
			]);
		},
	},
];
