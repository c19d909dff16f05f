'use strict';
/**
 * Issue #36, the media and admin families inside n8n, against the sandbox with its contract check on:
 * every request these operations send is held against the service's published contract.
 */
const { T, CRED, node, chain, workflow, webhookStart, credRef } = require('../lib/fixtures');

const START = "$('Start').item.json.body";

module.exports = [
	{
		name: 'media more: Upload (Single Request), Get by media key, Add / Delete Subtitles, Get Analytics',
		needs: [
			'platformPosts:media.uploadSingle',
			'platformPosts:media.get',
			'platformPosts:media.addSubtitles',
			'platformPosts:media.deleteSubtitles',
			'platformPosts:media.getAnalytics',
		],
		modes: ['regular'],
		workflows: (ctx) => [
			workflow(
				'e2eMediaMore0001',
				'e2e media more',
				[
					webhookStart('e2e-media-more'),
					node(
						'Download Image',
						'n8n-nodes-base.httpRequest',
						4.2,
						{
							url: `${ctx.sandboxUrl}/_sandbox/sample.png`,
							options: {
								response: { response: { responseFormat: 'file', outputPropertyName: 'data' } },
							},
						},
						[200, 0],
					),
					node(
						'Upload Single',
						T.posts,
						1.1,
						{
							authentication: 'platformOAuth1Api',
							resource: 'media',
							operation: 'uploadSingle',
							purpose: 'post',
							altText: 'A sample image, uploaded in one request',
						},
						[400, 0],
						{ credentials: credRef(CRED.oauth1) },
					),
					node(
						'Get By Key',
						T.posts,
						1.1,
						{
							authentication: 'platformBearerApi',
							resource: 'media',
							operation: 'get',
							mediaKey: '={{ $json.media_key }}',
							mediaFields: ['alt_text', 'url', 'width'],
						},
						[600, 0],
						{ credentials: credRef(CRED.bearer) },
					),
					node(
						'Add Subtitles',
						T.posts,
						1.1,
						{
							authentication: 'platformOAuth2Api',
							resource: 'media',
							operation: 'addSubtitles',
							mediaId: `={{ ${START}.videoId }}`,
							videoCategory: 'TweetVideo',
							subtitlesSource: 'mediaId',
							subtitlesMediaId: `={{ ${START}.subtitlesId }}`,
							languageCode: 'es',
							displayName: 'Español',
						},
						[800, 0],
						{ credentials: credRef(CRED.oauth2) },
					),
					node(
						'Delete Subtitles',
						T.posts,
						1.1,
						{
							authentication: 'platformOAuth1ConnectApi',
							resource: 'media',
							operation: 'deleteSubtitles',
							mediaId: `={{ ${START}.videoId }}`,
							videoCategory: 'TweetVideo',
							languageCode: 'ES',
						},
						[1000, 0],
						{ credentials: credRef(CRED.connect) },
					),
					node(
						'Get Analytics',
						T.posts,
						1.1,
						{
							authentication: 'platformOAuth2Api',
							resource: 'media',
							operation: 'getAnalytics',
							mediaKeys: `={{ ${START}.videoKey }}`,
							// Two whole days: two daily buckets.
							startTime: '2026-03-01T00:00:00.000Z',
							endTime: '2026-03-03T00:00:00.000Z',
							granularity: 'daily',
							analyticsFields: ['video_views', 'playback_start'],
						},
						[1200, 0],
						{ credentials: credRef(CRED.oauth2) },
					),
				],
				chain([
					'Start',
					'Download Image',
					'Upload Single',
					'Get By Key',
					'Add Subtitles',
					'Delete Subtitles',
					'Get Analytics',
				]),
				{ active: true },
			),
		],
		publish: () => ['e2eMediaMore0001'],
		timeoutMs: 240000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			// A processed video and an uploaded subtitle file, as the chunked upload leaves them.
			const seed = (type, category, extra) => {
				const id = sandbox.newId();
				const media = Object.assign(
					{ id, type, media_category: category, state: 'succeeded', width: 1280, height: 720 },
					extra,
				);
				sandbox.db.media.set(id, media);
				return media;
			};
			const video = seed('video', 'tweet_video', {
				media_key: '',
				media_type: 'video/mp4',
				duration_ms: 15000,
			});
			video.media_key = `13_${video.id}`;
			const subtitles = seed('subtitles', 'subtitles', { media_type: 'text/srt' });
			subtitles.media_key = `3_${subtitles.id}`;
			const since = ctx.seq();
			const items = await ctx.call('e2e-media-more', {
				videoId: video.id,
				videoKey: video.media_key,
				subtitlesId: subtitles.id,
			});
			assert.equal(items.length, 1, JSON.stringify(items).slice(0, 500));
			assert.equal(items[0].media_key, video.media_key);
			assert.equal(items[0].timestamped_metrics.length, 2, JSON.stringify(items[0]));
			assert.deepEqual(Object.keys(items[0].timestamped_metrics[0].metrics).sort(), [
				'playback_start',
				'video_views',
			]);
			// The one-shot upload stored the image under its media key, with its alt text.
			const rows = ctx.records(since).filter((r) => r.path.startsWith('/2/'));
			const route = (r) => `${r.method} ${r.path.replace(/\d{6,}/g, ':id')} ${r.status}`;
			assert.deepEqual(rows.map(route), [
				'POST /2/media/upload 200',
				'POST /2/media/metadata 200',
				'GET /2/media/3_:id 200',
				'POST /2/media/subtitles 200',
				'DELETE /2/media/subtitles 200',
				'GET /2/media/analytics 200',
			]);
			const uploaded = [...sandbox.db.media.values()].find(
				(m) => m.media_key === rows[2].path.split('/').pop(),
			);
			assert.ok(uploaded, 'the key Get asked for is the uploaded image');
			assert.equal(uploaded.media_category, 'tweet_image');
			assert.equal(uploaded.alt_text, 'A sample image, uploaded in one request');
			assert.equal(rows[2].query['media.fields'], 'alt_text,url,width');
			assert.deepEqual(rows[3].body, {
				id: video.id,
				media_category: 'TweetVideo',
				subtitles: { id: subtitles.id, language_code: 'ES', display_name: 'Español' },
			});
			// Added, then removed again.
			assert.equal(video.subtitles.size, 0);
			assert.deepEqual(
				rows.map((r) => r.auth.kind),
				['oauth1', 'oauth1', 'app', 'oauth2', 'oauth1', 'oauth2'],
			);
			ctx.assertAllAuthValid(since);
		},
	},
	{
		name: 'admin more: Account Activity list / count / check / replay, stream rule counts, Delete Note',
		needs: [
			'platformPosts:admin.listAccountActivitySubscriptions',
			'platformPosts:admin.countAccountActivitySubscriptions',
			'platformPosts:admin.checkAccountActivitySubscription',
			'platformPosts:admin.replayAccountActivity',
			'platformPosts:admin.getRuleCounts',
			'platformPosts:communityNote.delete',
		],
		modes: ['regular'],
		workflows: () => {
			const bearer = (name, parameters, x) =>
				node(
					name,
					T.posts,
					1.1,
					Object.assign({ authentication: 'platformBearerApi', resource: 'admin' }, parameters),
					[x, 0],
					{ credentials: credRef(CRED.bearer) },
				);
			return [
				workflow(
					'e2eAdminMore0001',
					'e2e admin more',
					[
						webhookStart('e2e-admin-more'),
						bearer('Count', { operation: 'countAccountActivitySubscriptions' }, 200),
						bearer(
							'List',
							{
								operation: 'listAccountActivitySubscriptions',
								webhookId: `={{ ${START}.webhookId }}`,
							},
							400,
						),
						node(
							'Check',
							T.posts,
							1.1,
							{
								authentication: 'platformOAuth2Api',
								resource: 'admin',
								operation: 'checkAccountActivitySubscription',
								webhookId: `={{ ${START}.webhookId }}`,
							},
							[600, 0],
							{ credentials: credRef(CRED.oauth2), executeOnce: true },
						),
						bearer(
							'Replay',
							{
								operation: 'replayAccountActivity',
								webhookId: `={{ ${START}.webhookId }}`,
								from: '={{ $now.minus({ hours: 2 }).toISO() }}',
								to: '={{ $now.minus({ hours: 1 }).toISO() }}',
							},
							800,
						),
						bearer(
							'Rule Counts',
							{ operation: 'getRuleCounts', ruleCountFields: ['client_app_rules_count'] },
							1000,
						),
						node(
							'Delete Note',
							T.posts,
							1.1,
							{
								authentication: 'platformOAuth1Api',
								resource: 'communityNote',
								operation: 'delete',
								noteId: `={{ ${START}.noteId }}`,
							},
							[1200, 0],
							{ credentials: credRef(CRED.oauth1) },
						),
					],
					chain(['Start', 'Count', 'List', 'Check', 'Replay', 'Rule Counts', 'Delete Note']),
					{ active: true },
				),
			];
		},
		publish: () => ['e2eAdminMore0001'],
		async run(ctx) {
			const { assert, sandbox } = ctx;
			// A webhook of the app with the sandbox's account subscribed, and a note that account wrote;
			// the webhook goes again afterwards (the app's webhook limit is shared with later tests).
			const webhookId = sandbox.newId();
			sandbox.db.webhooks.set(webhookId, {
				id: webhookId,
				url: `${ctx.sandboxUrl}/_sandbox/e2e-admin-more`,
				valid: true,
				created_at: new Date().toISOString(),
			});
			sandbox.db.accountSubscriptions.set(webhookId, new Set([ctx.keys.userId]));
			const noteId = sandbox.newId();
			sandbox.db.notes.push({ id: noteId, post_id: '1', author: ctx.keys.userId, info: {} });
			try {
				const since = ctx.seq();
				const items = await ctx.call('e2e-admin-more', { webhookId, noteId });
				assert.deepEqual(items, [{ id: noteId, deleted: true }]);
				assert.ok(!sandbox.db.notes.some((n) => n.id === noteId), 'the note is gone');
				const rows = ctx.records(since).filter((r) => r.path.startsWith('/2/'));
				const route = (r) => `${r.method} ${r.path.replace(/\d{6,}/g, ':id')} ${r.status}`;
				assert.deepEqual(rows.map(route), [
					'GET /2/account_activity/subscriptions/count 200',
					'GET /2/account_activity/webhooks/:id/subscriptions/all/list 200',
					'GET /2/account_activity/webhooks/:id/subscriptions/all 200',
					'POST /2/account_activity/replay/webhooks/:id/subscriptions/all 200',
					'GET /2/tweets/search/stream/rules/counts 200',
					'DELETE /2/notes/:id 200',
				]);
				assert.deepEqual(
					rows.map((r) => r.auth.kind),
					['app', 'app', 'oauth2', 'app', 'app', 'oauth1'],
				);
				assert.match(rows[3].query.from_date, /^\d{12}$/);
				assert.match(rows[3].query.to_date, /^\d{12}$/);
				const job = sandbox.db.replayJobs.find((j) => j.webhook_id === webhookId);
				assert.ok(job, 'the replay job was created for the webhook');
				ctx.assertAllAuthValid(since);
			} finally {
				sandbox.db.webhooks.delete(webhookId);
				sandbox.db.accountSubscriptions.delete(webhookId);
			}
		},
	},
];
