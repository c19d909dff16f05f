'use strict';
/**
 * The example "post with an image" (examples/post-with-image.json) inside n8n, as `npm start` imports it:
 * n8n's HTTP Request node downloads the sandbox's sample PNG, Platform Posts uploads it (chunked media
 * upload), sets its alt text and publishes a post carrying it.
 */
const F = require('../lib/fixtures');

const example = (ctx) => F.sandboxExample(ctx.sandboxUrl, 'exPostWithImg01');

module.exports = [
	{
		name: 'examples: post with an image (download, upload with alt text, publish) runs with n8n execute',
		needs: ['platformPosts:post.create'],
		modes: ['regular'],
		workflows: (ctx) => [example(ctx)].filter(Boolean),
		timeoutMs: 240000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			const since = ctx.seq();
			const run = await ctx.inst.execute('exPostWithImg01');
			const runData = run.data.resultData.runData;
			assert.ok(
				!run.data.resultData.error,
				`the run failed: ${String(JSON.stringify(run.data.resultData.error)).slice(0, 500)}`,
			);
			const out = runData['Post With Image'][0].data.main[0][0].json;
			const post = sandbox.db.tweets.get(String(out.id));
			assert.ok(post, `the sandbox holds the new post ${out.id}`);
			assert.equal(post.text, 'Our new bike is here');
			const keys = (post.attachments && post.attachments.media_keys) || [];
			assert.equal(
				keys.length,
				1,
				`the post carries one media key: ${JSON.stringify(post.attachments)}`,
			);
			const media = [...sandbox.db.media.values()].find((m) => m.media_key === keys[0]);
			assert.ok(media && media.state === 'succeeded', 'the media was uploaded and finalized');
			assert.equal(media.media_type, 'image/png');
			assert.equal(media.alt_text, 'A small sample image');
			const paths = ctx
				.records(since)
				.filter((r) => r.path.startsWith('/2/'))
				.map((r) => `${r.method} ${r.path.replace(/\d{6,}/g, ':id')}`);
			assert.deepEqual(paths, [
				'POST /2/media/upload/initialize',
				'POST /2/media/upload/:id/append',
				'POST /2/media/upload/:id/finalize',
				'POST /2/media/metadata',
				'POST /2/tweets',
			]);
			ctx.assertAllAuthValid(since, 'oauth2');
		},
	},
];
