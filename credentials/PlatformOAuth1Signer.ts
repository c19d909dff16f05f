import { createHmac, randomBytes } from 'node:crypto';

/**
 * OAuth 1.0a HMAC-SHA1 request signing (RFC 5849), written against node:crypto only.
 *
 * The signature base string covers the method, the URL without its query, and every query
 * parameter plus every application/x-www-form-urlencoded body parameter. JSON bodies are never
 * part of the signature.
 */

export type OAuth1ParamValue = string | number | boolean | Array<string | number | boolean>;
export type OAuth1Params = Record<string, OAuth1ParamValue | undefined | null>;

export interface OAuth1Keys {
	consumerKey: string;
	consumerSecret: string;
	accessToken?: string;
	accessTokenSecret?: string;
}

export interface OAuth1SignInput {
	method: string;
	/** Full URL; a query string in it is signed like `query`. */
	url: string;
	query?: OAuth1Params;
	/** Parameters of an application/x-www-form-urlencoded body (never a JSON body). */
	form?: OAuth1Params;
	/** Injected for tests; random / current time otherwise. */
	nonce?: string;
	timestamp?: string | number;
	/** Extra oauth_* protocol parameters, such as oauth_callback. */
	extraOAuthParams?: Record<string, string>;
}

/** RFC 3986 percent-encoding: everything but unreserved characters. */
export function percentEncode(value: string): string {
	return encodeURIComponent(value).replace(
		/[!'()*]/g,
		(c) => '%' + c.charCodeAt(0).toString(16).toUpperCase(),
	);
}

function pairsOf(params: OAuth1Params | undefined): Array<[string, string]> {
	const pairs: Array<[string, string]> = [];
	if (!params) return pairs;
	for (const [key, value] of Object.entries(params)) {
		if (value === undefined || value === null) continue;
		const values = Array.isArray(value) ? value : [value];
		for (const v of values) pairs.push([key, String(v)]);
	}
	return pairs;
}

/** Scheme and host lower-cased, default port dropped, no query or fragment. */
export function baseStringUri(url: URL): string {
	const protocol = url.protocol.toLowerCase();
	const host = url.hostname.toLowerCase();
	const defaultPort =
		(protocol === 'http:' && url.port === '80') || (protocol === 'https:' && url.port === '443');
	const port = url.port && !defaultPort ? `:${url.port}` : '';
	return `${protocol}//${host}${port}${url.pathname}`;
}

export function signatureBaseString(
	method: string,
	url: string,
	allParams: Array<[string, string]>,
): string {
	const parsed = new URL(url);
	const encoded = allParams.map(
		([k, v]) => [percentEncode(k), percentEncode(v)] as [string, string],
	);
	encoded.sort((a, b) =>
		a[0] === b[0] ? (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) : a[0] < b[0] ? -1 : 1,
	);
	const normalized = encoded.map(([k, v]) => `${k}=${v}`).join('&');
	return [
		method.toUpperCase(),
		percentEncode(baseStringUri(parsed)),
		percentEncode(normalized),
	].join('&');
}

export function hmacSha1(key: string, text: string): string {
	return createHmac('sha1', key).update(text).digest('base64');
}

/** Returns the oauth_* parameters including oauth_signature. */
export function signOAuth1(keys: OAuth1Keys, input: OAuth1SignInput): Record<string, string> {
	const oauth: Record<string, string> = {
		oauth_consumer_key: keys.consumerKey,
		oauth_nonce: input.nonce ?? randomBytes(16).toString('hex'),
		oauth_signature_method: 'HMAC-SHA1',
		oauth_timestamp: String(input.timestamp ?? Math.floor(Date.now() / 1000)),
		oauth_version: '1.0',
		...(input.extraOAuthParams ?? {}),
	};
	if (keys.accessToken) oauth.oauth_token = keys.accessToken;

	const parsed = new URL(input.url);
	const urlQuery: Array<[string, string]> = [];
	parsed.searchParams.forEach((v, k) => urlQuery.push([k, v]));

	const all: Array<[string, string]> = [
		...urlQuery,
		...pairsOf(input.query),
		...pairsOf(input.form),
		...Object.entries(oauth),
	];
	const base = signatureBaseString(input.method, input.url, all);
	const key = `${percentEncode(keys.consumerSecret)}&${percentEncode(keys.accessTokenSecret ?? '')}`;
	return { ...oauth, oauth_signature: hmacSha1(key, base) };
}

export function authorizationHeader(oauthParams: Record<string, string>): string {
	const parts = Object.keys(oauthParams)
		.sort()
		.map((k) => `${percentEncode(k)}="${percentEncode(oauthParams[k])}"`);
	return `OAuth ${parts.join(', ')}`;
}

/** Parses an x-www-form-urlencoded body (string or URLSearchParams) into repeated pairs. */
export function formParams(body: unknown): OAuth1Params | undefined {
	if (body === undefined || body === null) return undefined;
	if (typeof body === 'string' || body instanceof URLSearchParams) {
		const sp = typeof body === 'string' ? new URLSearchParams(body) : body;
		const out: Record<string, string[]> = {};
		sp.forEach((v, k) => (out[k] = [...(out[k] ?? []), v]));
		return out;
	}
	if (typeof body === 'object') return body as OAuth1Params;
	return undefined;
}
