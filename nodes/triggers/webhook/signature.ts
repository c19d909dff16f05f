import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * CRC answers and delivery signatures share one construction: base64(HMAC-SHA256(consumer secret,
 * message)). Only well-formed CRC tokens are signed, so the endpoint is no signing oracle.
 */
export const CRC_TOKEN_PATTERN = /^[A-Za-z0-9+/=_-]{16,128}$/;

export const DEFAULT_SIGNATURE_HEADER = 'x-platform-webhooks-signature';

export function hmacSha256Base64(secret: string, message: string | Buffer): string {
	return createHmac('sha256', secret).update(message).digest('base64');
}

export function crcResponseToken(secret: string, token: string): string {
	return `sha256=${hmacSha256Base64(secret, token)}`;
}

export function isValidCrcToken(token: unknown): token is string {
	return typeof token === 'string' && CRC_TOKEN_PATTERN.test(token);
}

/** Verifies `sha256=<base64>` against the raw body bytes in constant time. */
export function verifySignature(secret: string, rawBody: Buffer, header: unknown): boolean {
	if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
	const given = header.slice('sha256='.length);
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(given)) return false;
	const expected = Buffer.from(hmacSha256Base64(secret, rawBody), 'base64');
	const actual = Buffer.from(given, 'base64');
	if (actual.length !== expected.length) return false;
	return timingSafeEqual(actual, expected);
}
