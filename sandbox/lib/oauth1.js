'use strict';
/**
 * OAuth 1.0a HMAC-SHA1 verification as the service does it (signature base string over method, URL, query and form parameters):
 * the base string covers the method, the URL without query, every query parameter and every
 * application/x-www-form-urlencoded body parameter (never a JSON body), RFC 3986 encoded and sorted.
 * Reimplemented here with node:crypto so that the sandbox does not trust the package's own signer.
 */
const crypto = require('node:crypto');

function percentEncode(value) {
	return encodeURIComponent(String(value)).replace(
		/[!'()*]/g,
		(c) => '%' + c.charCodeAt(0).toString(16).toUpperCase(),
	);
}

function parseAuthorizationHeader(header) {
	if (!header || !/^OAuth\s/i.test(header)) return undefined;
	const params = {};
	const re = /([A-Za-z0-9_.~%-]+)="([^"]*)"/g;
	let m;
	while ((m = re.exec(header.slice(6))))
		params[decodeURIComponent(m[1])] = decodeURIComponent(m[2]);
	return params;
}

function baseUri(protocol, host, pathname) {
	const [hostname, port] = String(host).toLowerCase().split(':');
	const keepPort =
		port && !((protocol === 'http' && port === '80') || (protocol === 'https' && port === '443'));
	return `${protocol}://${hostname}${keepPort ? ':' + port : ''}${pathname}`;
}

function baseString(method, uri, pairs) {
	const encoded = pairs.map(([k, v]) => [percentEncode(k), percentEncode(v)]);
	encoded.sort((a, b) =>
		a[0] === b[0] ? (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) : a[0] < b[0] ? -1 : 1,
	);
	return [
		method.toUpperCase(),
		percentEncode(uri),
		percentEncode(encoded.map(([k, v]) => `${k}=${v}`).join('&')),
	].join('&');
}

function sign(consumerSecret, tokenSecret, base) {
	return crypto
		.createHmac('sha1', `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret || '')}`)
		.update(base)
		.digest('base64');
}

function safeEqual(a, b) {
	const x = Buffer.from(String(a));
	const y = Buffer.from(String(b));
	return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/**
 * Verifies a request. `app` = {consumerKey, consumerSecret}, `tokens` maps access token -> {secret, userId}.
 * Returns {ok, reason, userId, oauth} — reason is for the sandbox's own log, never sent to the client.
 */
function verify(
	{ method, protocol = 'http', host, pathname, query, formPairs, header },
	app,
	tokens,
	nonces,
) {
	const oauth = parseAuthorizationHeader(header);
	if (!oauth) return { ok: false, reason: 'no OAuth header' };
	if (oauth.oauth_signature_method !== 'HMAC-SHA1')
		return { ok: false, reason: 'signature method is not HMAC-SHA1' };
	if (oauth.oauth_version && oauth.oauth_version !== '1.0')
		return { ok: false, reason: 'oauth_version is not 1.0' };
	if (oauth.oauth_consumer_key !== app.consumerKey)
		return { ok: false, reason: 'unknown consumer key' };
	const token = oauth.oauth_token ? tokens[oauth.oauth_token] : undefined;
	if (oauth.oauth_token && !token) return { ok: false, reason: 'unknown or revoked access token' };
	const ts = Number(oauth.oauth_timestamp);
	if (!Number.isFinite(ts) || Math.abs(ts - Date.now() / 1000) > 300)
		return { ok: false, reason: 'timestamp outside 5 minutes' };
	if (!oauth.oauth_nonce || !/^[\x20-\x7e]+$/.test(oauth.oauth_nonce))
		return { ok: false, reason: 'missing or non-ASCII nonce' };
	const pairs = [];
	for (const [k, v] of query) pairs.push([k, v]);
	for (const [k, v] of formPairs || []) pairs.push([k, v]);
	for (const [k, v] of Object.entries(oauth))
		if (k !== 'oauth_signature' && k !== 'realm') pairs.push([k, v]);
	const base = baseString(method, baseUri(protocol, host, pathname), pairs);
	const expected = sign(app.consumerSecret, token ? token.secret : '', base);
	if (!safeEqual(expected, oauth.oauth_signature || ''))
		return { ok: false, reason: 'signature mismatch', base };
	const nonceKey = `${oauth.oauth_consumer_key}:${oauth.oauth_timestamp}:${oauth.oauth_nonce}`;
	if (nonces.has(nonceKey)) return { ok: false, reason: 'nonce reused' };
	nonces.add(nonceKey);
	if (nonces.size > 200000) nonces.clear();
	return { ok: true, userId: token ? token.userId : undefined, oauth };
}

/** Client-side signer, used by the sandbox CLI and the tests of the sandbox itself. */
function authorizationHeader({ method, url, form }, keys, fixed = {}) {
	const u = new URL(url);
	const oauth = {
		oauth_consumer_key: keys.consumerKey,
		oauth_nonce: fixed.nonce || crypto.randomBytes(16).toString('hex'),
		oauth_signature_method: 'HMAC-SHA1',
		oauth_timestamp: String(fixed.timestamp || Math.floor(Date.now() / 1000)),
		oauth_version: '1.0',
	};
	if (keys.accessToken) oauth.oauth_token = keys.accessToken;
	const pairs = [
		...u.searchParams.entries(),
		...Object.entries(form || {}),
		...Object.entries(oauth),
	];
	const base = baseString(method, baseUri(u.protocol.replace(':', ''), u.host, u.pathname), pairs);
	oauth.oauth_signature = sign(keys.consumerSecret, keys.accessTokenSecret, base);
	return (
		'OAuth ' +
		Object.keys(oauth)
			.sort()
			.map((k) => `${percentEncode(k)}="${percentEncode(oauth[k])}"`)
			.join(', ')
	);
}

module.exports = {
	verify,
	percentEncode,
	parseAuthorizationHeader,
	baseString,
	sign,
	authorizationHeader,
	safeEqual,
};
