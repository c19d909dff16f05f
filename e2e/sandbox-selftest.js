'use strict';
/**
 * Self-test of the platform sandbox (no n8n): its checks must be right before it judges the package.
 * Run by e2e/run.js first; also `node e2e/sandbox-selftest.js`.
 */
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const http = require('node:http');

const { createSandbox } = require('../sandbox/server');
const oauth1 = require('../sandbox/lib/oauth1');

async function selftest() {
	// The service's published OAuth 1.0a test vector.
	const pairs = [
		['status', 'Hello Ladies + Gentlemen, a signed OAuth request!'],
		['include_entities', 'true'],
		['oauth_consumer_key', 'xvz1evFS4wEEPTGEFPHBog'],
		['oauth_nonce', 'kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg'],
		['oauth_signature_method', 'HMAC-SHA1'],
		['oauth_timestamp', '1318622958'],
		['oauth_token', '370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb'],
		['oauth_version', '1.0'],
	];
	const secret = [
		'kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw',
		'LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE',
	];
	assert.equal(
		oauth1.sign(
			...secret,
			oauth1.baseString('POST', 'https://api.x.com/1.1/statuses/update.json', pairs),
		),
		'Ls93hJiZbQ3akF3HF3x1Bz8/zU4=',
	);
	assert.equal(
		oauth1.sign(
			...secret,
			oauth1.baseString('POST', 'https://api.twitter.com/1.1/statuses/update.json', pairs),
		),
		'hCtSmYh+iHYCEqBWrE7C7hYmtUk=',
	);
	// Webhook HMAC vectors.
	const { sign } = require('../sandbox/routes/webhooks');
	assert.equal(
		sign('test', 'test=1&other_test=2'),
		'sha256=25Cu3iwbbiqBTwQRzcKJZwisjf736V2Q8UaTlkfLSoc=',
	);
	assert.equal(
		sign('test', '{"test_number":1,"test_string":"two"}'),
		'sha256=YWHphPn/JFq43jkF0y4/w8R/SelmLjvpunhVFY8JhlI=',
	);

	const sb = await createSandbox({ quiet: true }).listen(0);
	const K = sb.keys;
	const received = [];
	let crcMode = 'right';
	/** The status the receiver answers deliveries with (the service retries anything but 200). */
	let postStatus = 200;
	const receiver = http.createServer((req, res) => {
		let body = '';
		req.on('data', (c) => (body += c));
		req.on('end', () => {
			const u = new URL(req.url, 'http://x');
			if (req.method === 'GET') {
				const token = u.searchParams.get('crc_token');
				const key = crcMode === 'right' ? K.consumerSecret : 'wrong';
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ response_token: sign(key, token) }));
				return;
			}
			received.push({ body, signature: req.headers['x-platform-webhooks-signature'] });
			res.writeHead(postStatus);
			res.end();
		});
	});
	await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
	const hookUrl = `http://127.0.0.1:${receiver.address().port}/webhook/selftest`;
	const call = async (method, path, { body, auth = 'bearer', form } = {}) => {
		const url = sb.url + path;
		const headers = {};
		if (auth === 'bearer') headers.authorization = `Bearer ${K.bearerToken}`;
		// auth 'none': the sandbox's own control API
		if (auth === 'oauth')
			headers.authorization = oauth1.authorizationHeader({ method, url, form }, K);
		if (auth === 'badsig')
			headers.authorization = oauth1.authorizationHeader(
				{ method, url, form },
				Object.assign({}, K, { accessTokenSecret: 'wrong' }),
			);
		let payload;
		if (body !== undefined) {
			headers['content-type'] = 'application/json';
			payload = JSON.stringify(body);
		}
		if (form) {
			headers['content-type'] = 'application/x-www-form-urlencoded';
			payload = new URLSearchParams(form).toString();
		}
		const res = await fetch(url, { method, headers, body: payload });
		return { status: res.status, body: await res.json().catch(() => undefined) };
	};
	try {
		// Webhook registration runs a CRC; a wrong answer refuses the webhook.
		crcMode = 'wrong';
		let r = await call('POST', '/2/webhooks', { body: { url: hookUrl } });
		assert.equal(r.status, 400);
		assert.match(JSON.stringify(r.body), /CrcValidationFailed/);
		crcMode = 'right';
		r = await call('POST', '/2/webhooks', { body: { url: hookUrl } });
		assert.equal(r.status, 200, JSON.stringify(r.body));
		// The contract's answer: the webhook itself, without a data envelope.
		const hook = r.body;
		assert.equal(hook.valid, true);
		assert.equal(
			(await call('POST', '/2/webhooks', { body: { url: hookUrl } })).status,
			400,
			'duplicate URL',
		);
		assert.equal(
			(await call('POST', '/2/webhooks', { body: { url: hookUrl }, auth: 'oauth' })).status,
			403,
			'webhooks need the app bearer',
		);
		// A wrong CRC answer later marks the webhook invalid; PUT re-validates.
		crcMode = 'wrong';
		assert.equal((await sb.crc(sb.db.webhooks.get(hook.id), { reason: 'periodic' })).ok, false);
		assert.equal(sb.db.webhooks.get(hook.id).valid, false);
		crcMode = 'right';
		r = await call('PUT', `/2/webhooks/${hook.id}`);
		assert.deepEqual(r.body, { data: { valid: true } });
		// Subscription + signed delivery with the right HMAC over the raw body.
		r = await call('POST', '/2/activity/subscriptions', {
			body: {
				event_type: 'post.create',
				filter: { user_id: K.userId },
				webhook_id: hook.id,
				tag: 'selftest',
			},
		});
		assert.equal(r.status, 200, JSON.stringify(r.body));
		const [event] = await sb.emit({ event_type: 'post.create', text: 'hello' });
		assert.equal(event.deliveries.length, 1);
		assert.equal(received[0].signature, sign(K.consumerSecret, received[0].body));
		const envelope = JSON.parse(received[0].body);
		assert.equal(envelope.data.event_type, 'post.create');
		assert.equal(envelope.data.tag, 'selftest');
		assert.equal(envelope.data.payload.text, 'hello');
		await sb.emit({ event_type: 'post.create', forge: true });
		assert.notEqual(received[1].signature, sign(K.consumerSecret, received[1].body));
		// Replay re-delivers the logged (not the forged) events, then posts the job status.
		const now = new Date();
		const ymd = (d) => d.toISOString().replace(/[-T:]/g, '').slice(0, 12);
		r = await call('POST', '/2/webhooks/replay', {
			body: { webhook_id: hook.id, from_date: ymd(new Date(now - 3600e3)), to_date: ymd(now) },
		});
		assert.equal(r.status, 200, JSON.stringify(r.body));
		assert.equal(
			(
				await call('POST', '/2/webhooks/replay', {
					body: { webhook_id: hook.id, from_date: ymd(new Date(now - 3600e3)), to_date: ymd(now) },
				})
			).status,
			409,
			'conflict while a job runs',
		);
		await new Promise((res) => setTimeout(res, 400));
		assert.equal(received.length, 4, `replay: ${received.length}`);
		assert.equal(received[2].body, received[0].body);
		assert.equal(JSON.parse(received[3].body).replay_job_status.job_state, 'Complete');
		assert.equal(
			(
				await call('POST', '/2/webhooks/replay', {
					body: { webhook_id: hook.id, from_date: '202001010000', to_date: ymd(now) },
				})
			).status,
			400,
			'24-hour window',
		);

		// The service's retries: a recorded event sent again is the same bytes with the same signature;
		// an id it never delivered (or a forged one, never recorded) is refused.
		r = await call('POST', '/_sandbox/redeliver', {
			auth: 'none',
			body: { event_uuids: [event.event_uuid] },
		});
		assert.equal(r.status, 200, JSON.stringify(r.body));
		assert.equal(received.length, 5);
		assert.equal(received[4].body, received[0].body);
		assert.equal(received[4].signature, received[0].signature);
		r = await call('POST', '/_sandbox/redeliver', {
			auth: 'none',
			body: { event_uuids: [event.event_uuid, 'never-delivered'] },
		});
		assert.equal(r.status, 404, 'an event id the service never delivered');
		assert.equal(received.length, 5, 'nothing is sent when one id is unknown');
		const forgedId = sb.db.deliveries.find((d) => d.forged).event_uuid;
		r = await call('POST', '/_sandbox/redeliver', {
			auth: 'none',
			body: { event_uuids: [forgedId] },
		});
		assert.equal(r.status, 404, 'a forged delivery is not the service to re-send');
		assert.equal(
			(await call('POST', '/_sandbox/redeliver', { auth: 'none', body: { event_uuids: [] } }))
				.status,
			400,
		);
		// Automatic retries are bounded by the configured delays and stop at the first 200.
		assert.equal(
			(
				await call('POST', '/_sandbox/options', {
					auth: 'none',
					body: { deliveryRetryDelaysMs: [10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10] },
				})
			).status,
			400,
			'more than 10 retries',
		);
		r = await call('POST', '/_sandbox/options', {
			auth: 'none',
			body: { deliveryRetryDelaysMs: [20, 20] },
		});
		assert.equal(r.status, 200, JSON.stringify(r.body));
		postStatus = 500;
		await sb.emit({ event_type: 'post.create', text: 'refused' });
		await new Promise((res) => setTimeout(res, 300));
		assert.equal(received.length, 8, `one delivery and two retries: ${received.length - 5}`);
		assert.equal(received[7].body, received[5].body);
		assert.equal(received[7].signature, received[5].signature);
		postStatus = 200;
		await sb.emit({ event_type: 'post.create', forge: true });
		await new Promise((res) => setTimeout(res, 100));
		assert.equal(received.length, 9, 'an acknowledged delivery is not retried');
		postStatus = 500;
		await sb.emit({ event_type: 'post.create', forge: true });
		await new Promise((res) => setTimeout(res, 100));
		assert.equal(received.length, 10, 'a forged delivery is never retried');
		postStatus = 200;
		sb.options.deliveryRetryDelaysMs = [];

		// Activity subscriptions: DM and chat events only in user context; direction only sent / received.
		r = await call('POST', '/2/activity/subscriptions', {
			body: { event_type: 'dm.received', filter: { user_id: K.userId }, webhook_id: hook.id },
		});
		assert.equal(r.status, 403, 'a DM subscription with the app bearer is refused');
		assert.match(JSON.stringify(r.body), /unsupported-authentication/);
		r = await call('POST', '/2/activity/subscriptions', {
			auth: 'oauth',
			body: {
				event_type: 'dm.received',
				filter: { user_id: K.userId, direction: 'inbound' },
				webhook_id: hook.id,
			},
		});
		assert.equal(r.status, 400, 'direction takes the words sent / received only');
		r = await call('POST', '/2/activity/subscriptions', {
			auth: 'oauth',
			body: {
				event_type: 'post.create',
				filter: { user_id: K.userId, direction: 'sent' },
				webhook_id: hook.id,
			},
		});
		assert.equal(r.status, 400, 'direction applies to DM and chat events only');
		r = await call('POST', '/2/activity/subscriptions', {
			auth: 'oauth',
			body: {
				event_type: 'dm.received',
				filter: { user_id: K.userId, direction: 'received' },
				webhook_id: hook.id,
			},
		});
		assert.equal(r.status, 200, JSON.stringify(r.body));
		sb.db.subscriptions.delete(r.body.data.subscription.subscription_id);

		// Account Activity: user context subscribes and checks; the app bearer lists and removes.
		const aa = `/2/account_activity/webhooks/${hook.id}/subscriptions`;
		assert.equal((await call('POST', `${aa}/all`)).status, 403, 'subscribing needs user context');
		assert.equal((await call('GET', `${aa}/all`)).status, 403, 'checking needs user context');
		assert.equal((await call('POST', `${aa}/all`, { auth: 'oauth' })).status, 200);
		r = await call('POST', `${aa}/all`, { auth: 'oauth' });
		assert.equal(r.status, 409, 'an account subscribed twice');
		assert.match(JSON.stringify(r.body), /DuplicateSubscriptionFailed/);
		assert.deepEqual((await call('GET', `${aa}/all`, { auth: 'oauth' })).body, {
			data: { subscribed: true },
		});
		assert.equal(
			(await call('GET', `${aa}/all/list`, { auth: 'oauth' })).status,
			403,
			'listing needs the app bearer',
		);
		assert.deepEqual((await call('GET', `${aa}/all/list`)).body.data.subscriptions, [
			{ user_id: K.userId },
		]);
		assert.equal(
			(await call('POST', '/2/account_activity/webhooks/999/subscriptions/all', { auth: 'oauth' }))
				.status,
			400,
			'unknown webhook',
		);
		const before = received.length;
		await sb.emit({ event_type: 'favorite', shape: 'account_activity', text: 'liked' });
		assert.equal(received.length, before + 1, "a subscribed account's activity is delivered");
		assert.equal(JSON.parse(received[before].body).favorite_events.length, 1);
		assert.equal(
			(await call('DELETE', `${aa}/${K.userId}/all`, { auth: 'oauth' })).status,
			403,
			'removing needs the app bearer',
		);
		assert.deepEqual((await call('DELETE', `${aa}/${K.userId}/all`)).body, {
			data: { subscribed: false },
		});
		assert.equal(
			(await call('DELETE', `${aa}/${K.userId}/all`)).status,
			404,
			'no longer subscribed',
		);
		await sb.emit({ event_type: 'favorite', shape: 'account_activity' });
		assert.equal(
			received.length,
			before + 1,
			'nothing is delivered for an account no longer subscribed',
		);
		// A held request (delayMs without a status) is answered normally, late.
		sb.faults.rules.push({ status: 0, delayMs: 300, remaining: 1, path: '^/2/users/me$' });
		const heldAt = Date.now();
		assert.equal((await call('GET', '/2/users/me', { auth: 'oauth' })).status, 200);
		assert.ok(Date.now() - heldAt >= 290, 'the request was held');

		// OAuth 1.0a: right signature passes, wrong one is 401 code 89; query and form bodies are signed.
		assert.equal(
			(await call('GET', '/2/users/me?user.fields=created_at', { auth: 'oauth' })).status,
			200,
		);
		r = await call('GET', '/2/users/me', { auth: 'badsig' });
		assert.equal(r.status, 401);
		assert.equal(r.body.errors[0].code, 89);
		assert.equal(
			(await call('POST', '/12/product_catalogs?name=Shop', { auth: 'oauth' })).status,
			201,
		);
		assert.equal(
			(await call('POST', '/12/product_catalogs?name=Second', { auth: 'oauth' })).status,
			400,
			'one catalog per user',
		);
		assert.equal(
			(await call('GET', '/12/product_catalogs', { auth: 'bearer' })).status,
			401,
			'ads takes OAuth 1.0a only',
		);
		const catalog = [...sb.db.ads.catalogs.values()][0];
		const product = (i) => ({
			id: `sku-${i}`,
			title: `Product ${i}`,
			description: 'A product',
			availability: 'in stock',
			condition: 'new',
			price: '9.99 USD',
			link: 'https://shop.example/p',
			image_link: 'https://shop.example/p.png',
			brand: 'Acme',
		});
		r = await call('PUT', `/12/product_catalogs/${catalog.id}/products`, {
			auth: 'oauth',
			body: { products: Array.from({ length: 26 }, (_, i) => product(i)) },
		});
		assert.equal(r.status, 400, 'at most 25 products per PUT');
		r = await call('PUT', `/12/product_catalogs/${catalog.id}/products`, {
			auth: 'oauth',
			body: {
				products: [
					product(1),
					Object.assign(product(2), { price: '9,99 USD' }),
					product(3),
					product(3),
				],
			},
		});
		assert.deepEqual(
			r.body.data.products_response.map((x) => x.status),
			['CREATE_SUCCESS', 'ERROR', 'ERROR', 'ERROR'],
		);
		r = await call('PUT', `/12/product_catalogs/${catalog.id}/products`, {
			auth: 'oauth',
			body: { products: [product(1), Object.assign(product(4), { title: 'changed' })] },
		});
		assert.deepEqual(
			r.body.data.products_response.map((x) => x.status),
			['NO_CHANGE', 'CREATE_SUCCESS'],
		);
		// https is required for the product pages only; images may be http.
		r = await call('PUT', `/12/product_catalogs/${catalog.id}/products`, {
			auth: 'oauth',
			body: {
				products: [
					Object.assign(product(5), {
						image_link: 'http://cdn.example/5.png',
						additional_image_link: 'http://cdn.example/5b.png',
					}),
					Object.assign(product(6), { link: 'http://shop.example/p' }),
					Object.assign(product(7), { mobile_link: 'http://m.shop.example/p' }),
					Object.assign(product(8), { image_link: 'cdn.example/8.png' }),
				],
			},
		});
		assert.deepEqual(
			r.body.data.products_response.map((x) => x.status),
			['CREATE_SUCCESS', 'ERROR', 'ERROR', 'ERROR'],
		);
		// with_total_count: only where the endpoint takes it, true/false, never with a cursor.
		const acct = `/12/accounts/${K.adsAccountId}`;
		r = await call('GET', `${acct}/cards/poll?with_total_count=true`, { auth: 'oauth' });
		assert.equal(r.status, 200, JSON.stringify(r.body));
		assert.equal(typeof r.body.total_count, 'number');
		assert.equal(
			(await call('GET', `${acct}/cards/poll?with_total_count=true&cursor=abc`, { auth: 'oauth' }))
				.status,
			400,
			'exclusive with cursor',
		);
		assert.equal(
			(await call('GET', `${acct}/preroll_call_to_actions?with_total_count=yes`, { auth: 'oauth' }))
				.status,
			400,
			'a boolean',
		);
		assert.equal(
			(await call('GET', `${acct}/cards?with_total_count=true`, { auth: 'oauth' })).status,
			400,
			'cards do not take it',
		);
		assert.equal(
			(await call('GET', `${acct}/media_library?with_total_count=true`, { auth: 'oauth' })).status,
			400,
			'media library does not take it',
		);
		// Posting as the ad account: tweet_mode is compat or extended; extended answers with full_text.
		const long = 'x'.repeat(200);
		r = await call(
			'POST',
			`${acct}/tweet?as_user_id=${K.userId}&text=${long}&tweet_mode=extended`,
			{ auth: 'oauth' },
		);
		assert.equal(r.status, 200, JSON.stringify(r.body));
		assert.equal(r.body.data.full_text, long);
		r = await call('POST', `${acct}/tweet?as_user_id=${K.userId}&text=${long}&tweet_mode=compat`, {
			auth: 'oauth',
		});
		assert.equal(r.body.data.truncated, true);
		assert.equal(
			(
				await call('POST', `${acct}/tweet?as_user_id=${K.userId}&text=hi&tweet_mode=full`, {
					auth: 'oauth',
				})
			).status,
			400,
			'tweet_mode enum',
		);
		// Revoking the app bearer token: OAuth 1.0a user context only, access_token as a form body
		// that is part of the signature.
		sb.bearers['selftest-extra-bearer'] = { kind: 'app' };
		const revoke = { access_token: 'selftest-extra-bearer' };
		const revokeUrl = `${sb.url}/oauth2/invalidate_token`;
		r = await fetch(revokeUrl, {
			method: 'POST',
			headers: {
				authorization: oauth1.authorizationHeader({ method: 'POST', url: revokeUrl }, K),
				'content-type': 'application/x-www-form-urlencoded',
			},
			body: new URLSearchParams(revoke).toString(),
		});
		assert.equal(r.status, 401, 'form parameters left out of the signature are refused');
		assert.equal(
			(await call('POST', '/oauth2/invalidate_token', { auth: 'oauth', body: revoke })).status,
			400,
			'a JSON body is refused',
		);
		assert.equal(
			(await call('POST', '/oauth2/invalidate_token', { auth: 'bearer', form: revoke })).status,
			403,
			'the app bearer cannot revoke itself',
		);
		assert.equal(
			(await call('POST', '/oauth2/invalidate_token', { auth: 'badsig', form: revoke })).status,
			401,
			'wrong signature',
		);
		r = await call('POST', '/oauth2/invalidate_token', { auth: 'oauth', form: revoke });
		assert.equal(r.status, 200, JSON.stringify(r.body));
		assert.equal(sb.bearers['selftest-extra-bearer'], undefined, 'the token is revoked');
		assert.equal(
			(await call('POST', '/oauth2/invalidate_token', { auth: 'oauth', form: revoke })).status,
			401,
			'an unknown token',
		);
		// Faults: 429 with reset headers.
		sb.faults.rules.push({ status: 429, remaining: 1, path: '^/2/users/me$' });
		const res = await fetch(`${sb.url}/2/users/me`, {
			headers: {
				authorization: oauth1.authorizationHeader(
					{ method: 'GET', url: `${sb.url}/2/users/me` },
					K,
				),
			},
		});
		assert.equal(res.status, 429);
		assert.ok(Number(res.headers.get('x-rate-limit-reset')) > Date.now() / 1000 - 1);
		// Media: chunked upload of a video with STATUS polling.
		const init = await call('POST', '/2/media/upload/initialize', {
			auth: 'oauth',
			body: { media_type: 'video/mp4', total_bytes: 10, media_category: 'tweet_video' },
		});
		const id = init.body.data.id;
		assert.equal(
			(
				await call('POST', `/2/media/upload/${id}/append`, {
					auth: 'oauth',
					body: { media: Buffer.from('0123456789').toString('base64'), segment_index: 0 },
				})
			).status,
			200,
		);
		const fin = await call('POST', `/2/media/upload/${id}/finalize`, { auth: 'oauth' });
		assert.equal(fin.body.data.processing_info.state, 'pending');
		let state;
		for (let i = 0; i < 5 && state !== 'succeeded'; i++)
			state = (
				await call('GET', `/2/media/upload?command=STATUS&media_id=${id}`, { auth: 'oauth' })
			).body.data.processing_info.state;
		assert.equal(state, 'succeeded');
		r = await call('POST', '/2/tweets', {
			auth: 'oauth',
			body: { text: 'with video', media: { media_ids: [id] } },
		});
		assert.equal(r.status, 201, JSON.stringify(r.body));
		assert.equal(
			(
				await call('POST', '/2/tweets', {
					auth: 'oauth',
					body: {
						text: 'with video',
						media: { media_ids: [id] },
						poll: { options: ['a', 'b'], duration_minutes: 10 },
					},
				})
			).status,
			400,
			'media and poll are exclusive',
		);
		// media.tagged_user_ids and reply.exclude_reply_user_ids: lists of user ids, nothing else in media / reply.
		r = await call('POST', '/2/tweets', {
			auth: 'oauth',
			body: { text: 'tagged', media: { media_ids: [id], tagged_user_ids: [K.userId] } },
		});
		assert.equal(r.status, 201, JSON.stringify(r.body));
		const parent = r.body.data.id;
		assert.equal(
			(
				await call('POST', '/2/tweets', {
					auth: 'oauth',
					body: { text: 'tagged', media: { media_ids: [id], tagged_user_ids: ['@someone'] } },
				})
			).status,
			400,
			'tagged ids are user ids',
		);
		assert.equal(
			(
				await call('POST', '/2/tweets', {
					auth: 'oauth',
					body: { text: 'tagged', media: { media_ids: [id], tagged: [K.userId] } },
				})
			).status,
			400,
			'unknown media field',
		);
		assert.equal(
			(
				await call('POST', '/2/tweets', {
					auth: 'oauth',
					body: {
						text: 'reply',
						reply: { in_reply_to_tweet_id: parent, exclude_reply_user_ids: [K.userId] },
					},
				})
			).status,
			201,
			'exclude_reply_user_ids',
		);
		assert.equal(
			(
				await call('POST', '/2/tweets', {
					auth: 'oauth',
					body: {
						text: 'reply',
						reply: { in_reply_to_tweet_id: parent, exclude_reply_user_ids: 'x' },
					},
				})
			).status,
			400,
			'exclude_reply_user_ids is a list',
		);
		// A webhook is invalidated only when its CRC check fails; one that answers stays valid (409).
		crcMode = 'right';
		r = await call('POST', '/2/webhooks', { body: { url: `${hookUrl}/heal` } });
		assert.equal(r.status, 200, JSON.stringify(r.body));
		const healId = r.body.id;
		r = await call('POST', `/_sandbox/webhooks/${healId}/invalidate`, { auth: 'none' });
		assert.equal(r.status, 409, 'a webhook that answers its CRC check is not invalidated');
		assert.equal(sb.db.webhooks.get(healId).valid, true);
		crcMode = 'wrong';
		r = await call('POST', `/_sandbox/webhooks/${healId}/invalidate`, { auth: 'none' });
		assert.equal(r.status, 200);
		assert.equal(sb.db.webhooks.get(healId).valid, false);
		const [missed] = await sb.emit({
			event_type: 'post.create',
			text: 'while invalid',
			webhook_id: healId,
		});
		assert.deepEqual(
			missed.deliveries,
			[{ webhook_id: healId, skipped: 'webhook invalid' }],
			'an invalid webhook gets no delivery',
		);
		assert.ok(
			sb.db.events.some((e) => e.event_uuid === missed.event_uuid),
			'the event is recorded for replay',
		);
		crcMode = 'right';
		// Saved state survives a restart: webhooks (validity included), subscriptions, account
		// subscriptions, stream rules and links, events; new ids are issued above the loaded ones.
		const persist = require('../sandbox/lib/persist');
		sb.db.accountSubscriptions.set(healId, new Set([K.userId]));
		sb.db.streamRules.set('1799999999999999990', { id: '1799999999999999990', value: 'kept' });
		sb.db.streamLinks.set(healId, {
			webhook_id: healId,
			fields: [],
			created_at: new Date().toISOString(),
		});
		const stateFile = require('node:path').join(
			require('node:os').tmpdir(),
			`sandbox-selftest-${process.pid}.json`,
		);
		persist.save(sb, stateFile);
		const again = createSandbox({ quiet: true });
		try {
			const loaded = persist.persistTo(again, stateFile);
			assert.equal(loaded.webhooks, sb.db.webhooks.size);
			assert.deepEqual(again.db.webhooks.get(healId), sb.db.webhooks.get(healId));
			assert.deepEqual([...again.db.subscriptions.keys()], [...sb.db.subscriptions.keys()]);
			assert.deepEqual([...again.db.accountSubscriptions.get(healId)], [K.userId]);
			assert.equal(again.db.streamRules.get('1799999999999999990').value, 'kept');
			assert.equal(again.db.streamLinks.get(healId).webhook_id, healId);
			assert.equal(
				again.db.events.find((e) => e.event_uuid === missed.event_uuid).raw,
				sb.db.events.find((e) => e.event_uuid === missed.event_uuid).raw,
			);
			assert.ok(
				BigInt(again.newId()) > 1799999999999999990n,
				'new ids are issued above the loaded ones',
			);
			assert.throws(
				() => persist.load(again, __filename),
				/not a sandbox state|Unexpected/,
				'a file that is not a saved state is refused',
			);
		} finally {
			require('node:fs').rmSync(stateFile, { force: true });
		}
		// Poll reads: since_id / until_id are ids, taken by search and by the tweets / mentions timelines
		// only; search pages with next_token, timelines with pagination_token; max_results bounds hold.
		const published = [];
		for (const text of ['poll selftest one', 'poll selftest two', 'poll selftest three']) {
			r = await call('POST', '/_sandbox/posts', { auth: 'none', body: { text } });
			assert.equal(r.status, 201, JSON.stringify(r.body));
			published.push(r.body.data.id);
		}
		assert.equal(
			(await call('POST', '/_sandbox/posts', { auth: 'none', body: { text: '' } })).status,
			400,
			'a published post needs text',
		);
		r = await call(
			'GET',
			`/2/tweets/search/recent?query=${encodeURIComponent('poll selftest')}&max_results=10&since_id=${published[0]}`,
		);
		assert.deepEqual(
			r.body.data.map((t) => t.id),
			[published[2], published[1]],
			'since_id: only newer posts, newest first',
		);
		r = await call(
			'GET',
			`/2/tweets/search/recent?query=${encodeURIComponent('poll selftest')}&max_results=10&since_id=${published[2]}`,
		);
		assert.equal(r.status, 200);
		assert.equal(r.body.meta.result_count, 0, 'nothing newer than the newest');
		r = await call(
			'GET',
			`/2/users/${K.userId}/tweets?max_results=5&until_id=${published[2]}&since_id=${published[0]}`,
			{ auth: 'oauth' },
		);
		assert.deepEqual(
			r.body.data.map((t) => t.id),
			[published[1]],
			'timeline window',
		);
		assert.equal(
			(await call('GET', '/2/tweets/search/recent?query=x&since_id=abc')).status,
			400,
			'since_id is an id',
		);
		assert.equal(
			(await call('GET', '/2/tweets/search/recent?query=x&max_results=9')).status,
			400,
			'search max_results 10-100',
		);
		assert.equal(
			(await call('GET', '/2/tweets/search/recent?query=x&max_results=101')).status,
			400,
			'search max_results 10-100',
		);
		assert.equal(
			(await call('GET', '/2/tweets/search/recent?query=x&pagination_token=abc')).status,
			400,
			'search pages with next_token',
		);
		assert.equal(
			(await call('GET', `/2/users/${K.userId}/tweets?next_token=abc`, { auth: 'oauth' })).status,
			400,
			'timelines page with pagination_token',
		);
		assert.equal(
			(await call('GET', `/2/users/${K.userId}/tweets?max_results=4`, { auth: 'oauth' })).status,
			400,
			'tweets max_results 5-100',
		);
		assert.equal(
			(await call('GET', `/2/users/${K.userId}/followers?since_id=${published[0]}`)).status,
			400,
			'followers take no since_id',
		);
		assert.equal(
			(
				await call('GET', `/2/users/${K.userId}/liked_tweets?since_id=${published[0]}`, {
					auth: 'oauth',
				})
			).status,
			400,
			'liked posts take no since_id',
		);
		assert.equal(
			(await call('GET', `/2/users/${K.userId}/mentions`)).status,
			200,
			'mentions of a user are public',
		);
		assert.equal(
			(await call('GET', `/2/users/${K.userId}/bookmarks`)).status,
			403,
			'bookmarks need the user themselves',
		);
		assert.equal(
			(await call('GET', '/2/dm_events')).status,
			403,
			'direct messages need user context',
		);
		assert.equal(
			(await call('GET', '/2/dm_events?max_results=101', { auth: 'oauth' })).status,
			400,
			'dm_events max_results 1-100',
		);
		assert.equal(
			(await call('GET', '/2/tweets/search/recent?query=x')).status,
			200,
			'recent search takes the app bearer',
		);
		void crypto;
	} finally {
		receiver.close();
		await sb.close();
	}
}

module.exports = { selftest };
if (require.main === module)
	selftest().then(
		() => console.log('sandbox self-test passed'),
		(error) => {
			console.error(error);
			process.exit(1);
		},
	);
