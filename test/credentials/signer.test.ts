/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- published test vectors, not shipped */
import { createHmac } from 'node:crypto';
import OAuth from 'oauth-1.0a';

import {
	authorizationHeader,
	percentEncode,
	signOAuth1,
} from '../../credentials/PlatformOAuth1Signer';
import { signRequest } from '../../credentials/PlatformOAuth1Api.credentials';

const VECTOR = {
	consumerKey: 'xvz1evFS4wEEPTGEFPHBog',
	consumerSecret: 'kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw',
	accessToken: '370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb',
	accessTokenSecret: 'LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE',
	nonce: 'kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg',
	timestamp: 1318622958,
};

describe("OAuth 1.0a signer: the service's published vector", () => {
	const form = { status: 'Hello Ladies + Gentlemen, a signed OAuth request!' };
	const query = { include_entities: 'true' };

	it.each([
		['https://api.x.com/1.1/statuses/update.json', 'Ls93hJiZbQ3akF3HF3x1Bz8/zU4='],
		['https://api.twitter.com/1.1/statuses/update.json', 'hCtSmYh+iHYCEqBWrE7C7hYmtUk='],
	])('%s signs to %s', (url, expected) => {
		const oauth = signOAuth1(VECTOR, {
			method: 'POST',
			url,
			query,
			form,
			nonce: VECTOR.nonce,
			timestamp: VECTOR.timestamp,
		});
		expect(oauth.oauth_signature).toBe(expected);
	});

	it('signs the same whether include_entities is in the URL or in the query object', () => {
		const oauth = signOAuth1(VECTOR, {
			method: 'post',
			url: 'https://API.x.com:443/1.1/statuses/update.json?include_entities=true',
			form,
			nonce: VECTOR.nonce,
			timestamp: VECTOR.timestamp,
		});
		expect(oauth.oauth_signature).toBe('Ls93hJiZbQ3akF3HF3x1Bz8/zU4=');
	});

	it('signs through the credential authenticate(): form body signed, header built', async () => {
		const signed = await signRequest(
			{ ...VECTOR },
			{
				method: 'POST',
				url: 'https://api.x.com/1.1/statuses/update.json',
				qs: query,
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: `status=${encodeURIComponent(form.status)}`,
			},
		);
		const header = String((signed.headers as Record<string, string>).Authorization);
		expect(header.startsWith('OAuth ')).toBe(true);
		expect(header).toContain('oauth_consumer_key="xvz1evFS4wEEPTGEFPHBog"');
		expect(header).toContain('oauth_token="370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb"');
		expect(header).not.toContain(VECTOR.consumerSecret);
		expect(header).not.toContain(VECTOR.accessTokenSecret);
	});

	it.each([
		['a JSON body is not signed', 'application/json', { text: 'hello', n: '1' }, false],
		['a form body is signed', 'application/x-www-form-urlencoded', { text: 'hello', n: '1' }, true],
	])('%s', async (_label, contentType, body, bodySigned) => {
		const url = 'https://api.x.com/2/tweets';
		const signed = await signRequest(VECTOR, {
			method: 'POST',
			url,
			qs: { a: '1' },
			body,
			headers: { 'Content-Type': contentType },
		});
		const header = String((signed.headers as Record<string, string>).Authorization);
		const param = (name: string) =>
			decodeURIComponent(header.match(new RegExp(`${name}="([^"]*)"`))?.[1] ?? '');
		const recompute = (form?: Record<string, string>) =>
			signOAuth1(VECTOR, {
				method: 'POST',
				url,
				query: { a: '1' },
				form,
				nonce: param('oauth_nonce'),
				timestamp: param('oauth_timestamp'),
			}).oauth_signature;
		expect(param('oauth_signature')).toBe(bodySigned ? recompute(body) : recompute());
		expect(param('oauth_signature')).not.toBe(bodySigned ? recompute() : recompute(body));
	});
});

describe("authenticate() with the request options of n8n's older request helper (HTTP Request node)", () => {
	const param = (header: string, name: string) =>
		decodeURIComponent(header.match(new RegExp(`${name}="([^"]*)"`))?.[1] ?? '');

	it('signs a `uri` with its query and a `form` body, and keeps the options it was given', async () => {
		const uri = 'https://api.x.com/1.1/statuses/update.json';
		const form = { status: 'Hello Ladies + Gentlemen, a signed OAuth request!' };
		const options = { method: 'POST', uri, qs: { include_entities: 'true' }, form };
		const signed = await signRequest(VECTOR, options as never);
		const header = String((signed.headers as Record<string, string>).Authorization);
		const expected = signOAuth1(VECTOR, {
			method: 'POST',
			url: uri,
			query: { include_entities: 'true' },
			form,
			nonce: param(header, 'oauth_nonce'),
			timestamp: param(header, 'oauth_timestamp'),
		}).oauth_signature;
		expect(param(header, 'oauth_signature')).toBe(expected);
		expect(signed).toMatchObject({ uri, form, qs: { include_entities: 'true' } });
	});

	it('signs a GET `uri` without a body', async () => {
		const uri = 'https://api.x.com/2/users/me?user.fields=id';
		const signed = await signRequest(VECTOR, { method: 'GET', uri } as never);
		const header = String((signed.headers as Record<string, string>).Authorization);
		const expected = signOAuth1(VECTOR, {
			method: 'GET',
			url: uri,
			nonce: param(header, 'oauth_nonce'),
			timestamp: param(header, 'oauth_timestamp'),
		}).oauth_signature;
		expect(param(header, 'oauth_signature')).toBe(expected);
	});
});

/** Deterministic PRNG so that a failing case can be reproduced. */
function mulberry32(seed: number) {
	let a = seed;
	return () => {
		a |= 0;
		a = (a + 0x6d2b79f5) | 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const ALPHABETS = [
	'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
	"!*'();:@&=+$,/?#[]%-._~ ",
	'äöüßéñçøåЖжЯя中文日本語한국어',
	'😀🚀👍🏽',
];

function randomString(rand: () => number, maxLength: number): string {
	const length = Math.floor(rand() * (maxLength + 1));
	let out = '';
	for (let i = 0; i < length; i++) {
		const alphabet = Array.from(ALPHABETS[Math.floor(rand() * ALPHABETS.length)]);
		out += alphabet[Math.floor(rand() * alphabet.length)];
	}
	return out;
}

describe('OAuth 1.0a signer agrees with the oauth-1.0a package on 250 randomised requests', () => {
	const rand = mulberry32(20261122);
	const cases = Array.from({ length: 250 }, (_, n) => {
		const method = ['GET', 'POST', 'PUT', 'DELETE'][Math.floor(rand() * 4)];
		const host = ['api.x.com', 'ads-api.x.com', '127.0.0.1:8080', 'localhost:3000'][
			Math.floor(rand() * 4)
		];
		const scheme = host.includes(':') ? 'http' : 'https';
		const path = `/${['2', '12', '1.1'][Math.floor(rand() * 3)]}/${encodeURIComponent(randomString(rand, 8) || 'x')}`;
		const query: Record<string, string[]> = {};
		const form: Record<string, string[]> = {};
		const keys = Math.floor(rand() * 6);
		for (let k = 0; k < keys; k++) {
			const key = rand() < 0.2 ? 'dup' : randomString(rand, 6) || 'k';
			const value = rand() < 0.15 ? '' : randomString(rand, 20);
			const target = method !== 'GET' && rand() < 0.5 ? form : query;
			(target[key] ??= []).push(value);
		}
		const jsonBody =
			method === 'POST' && rand() < 0.3 ? { text: randomString(rand, 30) } : undefined;
		return {
			n,
			method,
			url: `${scheme}://${host}${path}`,
			query,
			form: jsonBody ? {} : form,
			jsonBody,
			consumerSecret: randomString(rand, 30) || 's',
			tokenSecret: randomString(rand, 30),
			token: randomString(rand, 20) || 't',
			nonce: Math.floor(rand() * 1e12).toString(36),
			timestamp: 1700000000 + Math.floor(rand() * 1e6),
		};
	});

	it.each(cases)('case $n: $method $url', (c) => {
		const reference = new OAuth({
			consumer: { key: 'ck-ü', secret: c.consumerSecret },
			signature_method: 'HMAC-SHA1',
			hash_function: (base: string, key: string) =>
				createHmac('sha1', key).update(base).digest('base64'),
		});
		reference.getNonce = () => c.nonce;
		reference.getTimeStamp = () => c.timestamp;
		const merged: Record<string, string[]> = {};
		for (const source of [c.query, c.form]) {
			for (const [k, vs] of Object.entries(source)) merged[k] = [...(merged[k] ?? []), ...vs];
		}
		const data: Record<string, string | string[]> = {};
		for (const [k, vs] of Object.entries(merged)) data[k] = vs.length === 1 ? vs[0] : [...vs];
		const expected = reference.authorize(
			{ url: c.url, method: c.method, data },
			{ key: c.token, secret: c.tokenSecret },
		).oauth_signature;

		const ours = signOAuth1(
			{
				consumerKey: 'ck-ü',
				consumerSecret: c.consumerSecret,
				accessToken: c.token,
				accessTokenSecret: c.tokenSecret,
			},
			{
				method: c.method,
				url: c.url,
				query: c.query,
				form: c.form,
				nonce: c.nonce,
				timestamp: c.timestamp,
			},
		);
		expect(ours.oauth_signature).toBe(expected);
	});
});

describe('signer helpers', () => {
	it('percent-encodes per RFC 3986', () => {
		expect(percentEncode("a b!*'()~._-")).toBe('a%20b%21%2A%27%28%29~._-');
		expect(percentEncode('ü')).toBe('%C3%BC');
	});

	it('builds a sorted header with every oauth parameter encoded', () => {
		expect(authorizationHeader({ oauth_b: 'x y', oauth_a: '1' })).toBe(
			'OAuth oauth_a="1", oauth_b="x%20y"',
		);
	});

	it('changes the signature when any signed input changes', () => {
		const input = {
			method: 'GET',
			url: 'https://api.x.com/2/users/me',
			query: { a: '1' },
			nonce: 'n',
			timestamp: 1,
		};
		const base = signOAuth1(VECTOR, input).oauth_signature;
		expect(signOAuth1(VECTOR, { ...input, query: { a: '2' } }).oauth_signature).not.toBe(base);
		expect(signOAuth1(VECTOR, { ...input, method: 'POST' }).oauth_signature).not.toBe(base);
		expect(signOAuth1({ ...VECTOR, accessTokenSecret: 'other' }, input).oauth_signature).not.toBe(
			base,
		);
	});
});
