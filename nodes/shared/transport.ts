import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
	ITriggerFunctions,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import type { RateWindow } from './errors';
import { apiError, asNodeError, rateLimitOf, rateWindowOf, withErrorInfo } from './errors';

/**
 * The one transport every node uses: credential choice, base URLs, JSON and form bodies through
 * httpRequestWithAuthentication, error translation, rate limits, retries and pagination.
 */

export type PlatformContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions
	| IPollFunctions
	| ITriggerFunctions;

/**
 * The credential types, by the kind of sign-in: pkce = OAuth 2.0 user context, hmac = OAuth 1.0a
 * with pasted keys (our own signer), connect = OAuth 1.0a through n8n's three-legged flow,
 * appOnly = app-only bearer token.
 */
export const CREDENTIAL_TYPES = {
	pkce: 'platformOAuth2Api',
	hmac: 'platformOAuth1Api',
	connect: 'platformOAuth1ConnectApi',
	appOnly: 'platformBearerApi',
} as const;

export type CredentialKind = keyof typeof CREDENTIAL_TYPES;

export type PlatformCredentialType = (typeof CREDENTIAL_TYPES)[keyof typeof CREDENTIAL_TYPES];

export type Api = 'platform' | 'ads';

export const DEFAULT_MAX_RATE_LIMIT_WAIT_S = 60;
export const MAX_RATE_LIMIT_WAIT_S = 15 * 60;
const MAX_RATE_LIMIT_RETRIES = 5;
const MAX_TRANSIENT_RETRIES = 3;
const BACKOFF_BASE_MS = 250;

/** Said when a request that is not safe to repeat got no answer. */
export const UNSAFE_FAILURE_HINT =
	'The request may or may not have been carried out. Check on the service (for example with a Get or Get Many operation) before running the node again, and do not turn on Retry on Fail for it.';

export interface PlatformRequest {
	method: IHttpRequestMethods;
	/** Path with version, e.g. /2/tweets or /12/product_catalogs. */
	path: string;
	api?: Api;
	qs?: IDataObject;
	/** JSON body, or form body when `form` is true. */
	body?: IDataObject | IDataObject[];
	form?: boolean;
	headers?: IDataObject;
	/** Overrides the credential chosen in the node (the trigger uses the bearer credential). */
	credentialType?: PlatformCredentialType;
	itemIndex?: number;
	/**
	 * Seconds the node may wait for a rate-limit reset before it fails; default 60, at most 900. 0 fails
	 * at once (a poll never waits: it skips and tries again at the next interval).
	 */
	maxRateLimitWait?: number;
	/**
	 * Whether 5xx and network errors may be retried. Defaults to true for GET, PUT and DELETE and
	 * false for POST, which is never retried (a create could run twice).
	 */
	retryTransient?: boolean;
	/** Message added to a timeout / network failure of a request that is not retried. */
	unsafeFailureHint?: string;
	/**
	 * What the request does, in the user's words ("create the post"): a request that is not retried
	 * and gets no answer is reported in these words instead of its method and path.
	 */
	action?: string;
	timeoutMs?: number;
	/**
	 * When (epoch ms) the caller stops waiting: each attempt's timeout ends by then, and no retry or
	 * rate-limit wait that would end after it is made. A poll passes the end of n8n's poll budget
	 * (IPollFunctions.getPollBudgetMs), so that a slow service cannot keep it past the tick.
	 */
	deadline?: number;
	/**
	 * Told the rate-limit window of every answer (a 429 included, before the wait for its reset), so that
	 * a caller sending many requests can pace the ones it has not sent yet. Retries stay here.
	 */
	onRateWindow?: (window: RateWindow) => void;
	/**
	 * The answer is a file: its body comes back as bytes (a Buffer). An error answer is still read as
	 * the service's JSON error.
	 */
	binaryResponse?: boolean;
	/**
	 * An app-only bearer credential already read (readBearerCredential): the request sends its token
	 * itself through n8n's plain httpRequest instead of n8n's authenticated request.
	 */
	credential?: ReadCredential;
}

export interface PlatformResponse<T = unknown> {
	statusCode: number;
	headers: Record<string, string>;
	body: T;
}

type BaseUrls = { baseUrl: string; adsBaseUrl: string; mintedBearer: boolean };

function trimSlash(url: unknown): string {
	return String(url ?? '').replace(/\/+$/, '');
}

/** Reads the credential type chosen in the node's Authentication field. */
export function chosenCredentialType(ctx: PlatformContext, itemIndex = 0): PlatformCredentialType {
	let chosen: unknown;
	try {
		chosen = (ctx as IExecuteFunctions).getNodeParameter(
			'authentication',
			itemIndex,
			CREDENTIAL_TYPES.pkce,
		);
	} catch {
		// Nodes without an Authentication field fall back to the default below.
		chosen = undefined;
	}
	const values = Object.values(CREDENTIAL_TYPES) as string[];
	return (
		values.includes(String(chosen)) ? chosen : CREDENTIAL_TYPES.pkce
	) as PlatformCredentialType;
}

async function baseUrls(ctx: PlatformContext, credentialType: string): Promise<BaseUrls> {
	const credentials = await ctx.getCredentials(credentialType);
	return {
		baseUrl: trimSlash(credentials.baseUrl),
		adsBaseUrl: trimSlash(credentials.adsBaseUrl),
		mintedBearer: credentialType === CREDENTIAL_TYPES.appOnly && credentials.origin === 'minted',
	};
}

/**
 * The App-Only Bearer credential read once, for work a trigger does after trigger() returned (its
 * reconnections, a delayed clean-up): there n8n's authenticated request needs the workflow's
 * expression isolate, which the public node API does not give, while getCredentials and the plain
 * httpRequest work. The token is not enumerable, so that printing the object never shows it.
 */
export interface ReadCredential {
	readonly baseUrl: string;
	readonly adsBaseUrl: string;
	readonly token: string;
}

export async function readBearerCredential(ctx: PlatformContext): Promise<ReadCredential> {
	return bearerCredentialOf(await ctx.getCredentials(CREDENTIAL_TYPES.appOnly));
}

/** The App-Only Bearer credential's values as read already (see readBearerCredential). */
export function bearerCredentialOf(credentials: IDataObject): ReadCredential {
	const token = credentials.origin === 'minted' ? credentials.mintedToken : credentials.bearerToken;
	const read = {
		baseUrl: trimSlash(credentials.baseUrl),
		adsBaseUrl: trimSlash(credentials.adsBaseUrl),
	} as ReadCredential;
	Object.defineProperty(read, 'token', {
		value: typeof token === 'string' ? token.trim() : '',
		enumerable: false,
	});
	return read;
}

/** Sends one request: with the read credential's token when there is one, else n8n's authentication. */
async function send(
	ctx: PlatformContext,
	credentialType: string,
	options: IHttpRequestOptions,
	credential: ReadCredential | undefined,
): Promise<unknown> {
	if (!credential)
		return await ctx.helpers.httpRequestWithAuthentication.call(ctx, credentialType, options);
	return await ctx.helpers.httpRequest({
		...options,
		headers: { ...(options.headers ?? {}), Authorization: `Bearer ${credential.token}` },
	});
}

/**
 * The app's bearer token as the App-Only Bearer credential holds it: the pasted token, or the token
 * it minted and cached ('' when it has minted none yet). Read for the operation that revokes it; it
 * is never logged or put in an output.
 */
export async function appBearerToken(ctx: PlatformContext): Promise<string> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPES.appOnly);
	const token = credentials.origin === 'minted' ? credentials.mintedToken : credentials.bearerToken;
	return typeof token === 'string' ? token.trim() : '';
}

function lowerHeaders(headers: unknown): Record<string, string> {
	const out: Record<string, string> = {};
	if (headers && typeof headers === 'object') {
		for (const [k, v] of Object.entries(headers as Record<string, unknown>)) {
			out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
		}
	}
	return out;
}

/**
 * The network failure inside an n8n NodeApiError (its `cause`): an error with a network code and no
 * HTTP response, meaning the request got no answer. Undefined for every other error.
 */
function unansweredCause(error: unknown): object | undefined {
	if (!(error instanceof NodeApiError)) return undefined;
	const cause = (error as { cause?: unknown }).cause;
	if (!cause || typeof cause !== 'object') return undefined;
	const { response, code } = cause as { response?: unknown; code?: unknown };
	return !response && typeof code === 'string' && code ? cause : undefined;
}

/** Form body fields as encoded pairs; arrays repeat the key, empty values are left out. */
function formPairs(body: IDataObject | IDataObject[]): Array<[string, string]> {
	const pairs: Array<[string, string]> = [];
	if (Array.isArray(body)) return pairs;
	for (const [key, value] of Object.entries(body)) {
		if (value === undefined || value === null) continue;
		const values = Array.isArray(value) ? value : [value];
		for (const v of values)
			pairs.push([key, typeof v === 'object' ? JSON.stringify(v) : String(v)]);
	}
	return pairs;
}

/** The form fields for n8n's OAuth 1.0a signer, which takes an object (a repeated key keeps its last value there). */
function signableForm(pairs: Array<[string, string]>): Record<string, string> {
	const form: Record<string, string> = {};
	for (const [key, value] of pairs) form[key] = value;
	return form;
}

function clampWait(seconds: number | undefined): number {
	const value =
		seconds === undefined || !Number.isFinite(seconds) ? DEFAULT_MAX_RATE_LIMIT_WAIT_S : seconds;
	return Math.min(Math.max(value, 0), MAX_RATE_LIMIT_WAIT_S);
}

function isSafeToRetry(method: string): boolean {
	return ['GET', 'PUT', 'DELETE', 'HEAD'].includes(method.toUpperCase());
}

function sanitizeNetworkError(error: unknown): JsonObject {
	const e = (error ?? {}) as { message?: unknown; code?: unknown; name?: unknown };
	// Only the message and code: never the request options, which carry credentials.
	return {
		message: String(e.message ?? 'Network error'),
		code: String(e.code ?? e.name ?? 'ERROR'),
	};
}

type RawResponse = { statusCode: number; headers: unknown; body: unknown };

/** The request again with HTTP errors thrown, so that n8n refreshes a pre-authenticated token on 401. */
async function remint(
	ctx: PlatformContext,
	credentialType: string,
	options: IHttpRequestOptions,
): Promise<RawResponse | undefined> {
	try {
		return (await ctx.helpers.httpRequestWithAuthentication.call(ctx, credentialType, {
			...options,
			headers: options.headers ? { ...options.headers } : undefined,
			ignoreHttpStatusErrors: false,
		})) as RawResponse;
	} catch (error) {
		ctx.logger.warn(
			`Platform transport: the request failed again after a new app token was asked for (${String((error as { httpCode?: string }).httpCode ?? 'no status')})`,
		);
		return undefined;
	}
}

export async function platformRequestFull<T = unknown>(
	this: PlatformContext,
	request: PlatformRequest,
): Promise<PlatformResponse<T>> {
	const itemIndex = request.itemIndex ?? 0;
	const credentialType = request.credential
		? CREDENTIAL_TYPES.appOnly
		: (request.credentialType ?? chosenCredentialType(this, itemIndex));
	const urls = request.credential
		? { ...request.credential, mintedBearer: false }
		: await baseUrls(this, credentialType);
	const base = request.api === 'ads' ? urls.adsBaseUrl : urls.baseUrl;
	if (!base) {
		throw new NodeOperationError(
			this.getNode(),
			`The credential has no ${request.api === 'ads' ? 'Advertising' : 'Platform'} API Base URL`,
			{ itemIndex, description: 'Open the credential and fill in the base URL field.' },
		);
	}
	const method = request.method.toUpperCase() as IHttpRequestMethods;
	const options: IHttpRequestOptions = {
		method,
		url: `${base}${request.path}`,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: request.timeoutMs ?? 60_000,
	};
	if (request.qs && Object.keys(request.qs).length) {
		options.qs = request.qs;
		// An array is a parameter the service takes once per value (tweet_ids=1&tweet_ids=2); n8n
		// would otherwise send it as tweet_ids[]=1.
		if (Object.values(request.qs).some(Array.isArray)) options.arrayFormat = 'repeat';
	}
	const headers: IDataObject = { ...(request.headers ?? {}) };
	if (request.body !== undefined) {
		if (request.form) {
			const pairs = formPairs(request.body);
			headers['Content-Type'] = 'application/x-www-form-urlencoded';
			// A URLSearchParams body keeps its form encoding even when the headers are replaced: n8n's
			// own OAuth 1.0a signer (the connect credential) swaps all headers for the Authorization
			// header, and n8n then sets the form content type from the body's type.
			options.body = new URLSearchParams(pairs);
			if (credentialType === CREDENTIAL_TYPES.connect) {
				// n8n's OAuth 1.0a signer signs the query and the `form` property, never `body`: without
				// this the form parameters would be missing from the signature base string and the
				// service would refuse the request (code 89).
				(options as IHttpRequestOptions & { form?: Record<string, string> }).form =
					signableForm(pairs);
			}
		} else {
			options.body = request.body;
		}
	}
	if (Object.keys(headers).length) options.headers = headers;
	if (request.binaryResponse) {
		options.json = false;
		options.encoding = 'arraybuffer';
	}

	const retryTransient = request.retryTransient ?? isSafeToRetry(method);
	const maxWait = clampWait(request.maxRateLimitWait);
	let rateLimitRetries = 0;
	let transientRetries = 0;
	let reminted = false;
	/** The attempt's timeout: the request's own, ended by the deadline. */
	const attemptTimeout = () =>
		request.deadline === undefined
			? options.timeout
			: Math.max(1, Math.min(options.timeout ?? 60_000, request.deadline - Date.now()));
	/** A retry after waiting `ms` still ends before the deadline. */
	const inTime = (ms: number) =>
		request.deadline === undefined || Date.now() + ms < request.deadline;

	for (;;) {
		let raw: { statusCode: number; headers: unknown; body: unknown };
		try {
			raw = (await send(
				this,
				credentialType,
				{
					...options,
					timeout: attemptTimeout(),
					headers: options.headers ? { ...options.headers } : undefined,
				},
				request.credential,
			)) as typeof raw;
		} catch (caught) {
			// n8n wraps a failure without an answer in its own NodeApiError (the test double and older
			// versions throw it as it is). Either way it is a failure without an answer: retried when the
			// request is safe to repeat, reported as not answered when it is not. Any other n8n error
			// passes through as it is.
			const unanswered = unansweredCause(caught);
			if (!unanswered && (caught instanceof NodeApiError || caught instanceof NodeOperationError))
				throw asNodeError(this, caught, itemIndex);
			const error = unanswered ?? caught;
			const status = Number((error as { response?: { status?: number } })?.response?.status);
			if (Number.isFinite(status) && status > 0) {
				const response = (
					error as { response: { status: number; data?: unknown; headers?: unknown } }
				).response;
				raw = { statusCode: response.status, headers: response.headers, body: response.data };
			} else {
				if (
					retryTransient &&
					transientRetries < MAX_TRANSIENT_RETRIES &&
					inTime(BACKOFF_BASE_MS * 2 ** transientRetries)
				) {
					await sleep(BACKOFF_BASE_MS * 2 ** transientRetries);
					transientRetries++;
					continue;
				}
				// A request that is not safe to repeat may have been carried out although no answer came:
				// say so, instead of n8n's usual advice to turn on Retry on Fail.
				const hint = retryTransient
					? 'Check that the base URL in the credential is reachable from n8n.'
					: (request.unsafeFailureHint ?? UNSAFE_FAILURE_HINT);
				const network = sanitizeNetworkError(error);
				const message = request.action
					? `The request to ${request.action} got no answer from the service (${String(network.code)}: ${String(network.message)}); it was not retried`
					: `The request to ${method} ${request.path} got no answer (${String((error as Error)?.message ?? error)})${retryTransient ? '' : '; it was not repeated, because sending it twice could carry it out twice'}`;
				const failure = new NodeApiError(this.getNode(), network, {
					message,
					description: hint,
					itemIndex,
				});
				// NodeApiError replaces the message of known network codes with advice to use Retry on Fail.
				failure.message = message;
				failure.description = hint;
				withErrorInfo(failure, { noAnswer: true, networkCode: String(network.code) });
				throw failure;
			}
		}

		let statusCode = Number(raw.statusCode);
		if (statusCode === 401 && urls.mintedBearer && !reminted) {
			// A minted app token that the service no longer accepts (revoked or expired): ask once more
			// letting n8n see the 401, so that it mints a new token through the credential's
			// preAuthentication, stores it and repeats the request (a 401 was not carried out).
			reminted = true;
			const retried = await remint(this, credentialType, options);
			if (retried) raw = retried;
			statusCode = Number(raw.statusCode);
		}
		const responseHeaders = lowerHeaders(raw.headers);
		if (request.binaryResponse && (statusCode < 200 || statusCode >= 300))
			raw = { ...raw, body: jsonOf(raw.body) };
		request.onRateWindow?.(rateWindowOf(responseHeaders, statusCode));
		if (statusCode >= 200 && statusCode < 300) {
			return { statusCode, headers: responseHeaders, body: raw.body as T };
		}

		if (statusCode === 429) {
			// A 429 means the request was refused, not carried out: retrying it is safe for every method.
			const rateLimit = rateLimitOf(responseHeaders, raw.body);
			const resetAt = rateLimit.resetAt;
			let waitMs: number | undefined = resetAt
				? Math.max(resetAt.getTime() - Date.now(), 0) + 250
				: undefined;
			// Only the 15-minute window is retried without a reset time (short backoff); a daily cap or a
			// usage cap lasts hours, so it is waited for only when its reset is within Max Rate Limit Wait.
			if (waitMs === undefined && rateLimit.kind === 'window')
				waitMs = BACKOFF_BASE_MS * 2 ** rateLimitRetries;
			if (
				waitMs !== undefined &&
				rateLimitRetries < MAX_RATE_LIMIT_RETRIES &&
				waitMs <= maxWait * 1000 &&
				inTime(waitMs)
			) {
				rateLimitRetries++;
				await sleep(waitMs);
				continue;
			}
			throw apiError(this.getNode(), statusCode, raw.body, { itemIndex, rateLimit });
		}

		if (
			statusCode >= 500 &&
			retryTransient &&
			transientRetries < MAX_TRANSIENT_RETRIES &&
			inTime(BACKOFF_BASE_MS * 2 ** transientRetries)
		) {
			await sleep(BACKOFF_BASE_MS * 2 ** transientRetries);
			transientRetries++;
			continue;
		}
		const error = apiError(this.getNode(), statusCode, raw.body, { itemIndex });
		if (statusCode >= 500 && !retryTransient && request.unsafeFailureHint) {
			error.description = `${error.description ?? ''} ${request.unsafeFailureHint}`.trim();
		}
		throw error;
	}
}

export async function platformRequest<T = IDataObject>(
	this: PlatformContext,
	request: PlatformRequest,
): Promise<T> {
	const response = await platformRequestFull.call<
		PlatformContext,
		[PlatformRequest],
		Promise<PlatformResponse<T>>
	>(this, request);
	return response.body;
}

export interface PaginateOptions {
	returnAll: boolean;
	/** Used when returnAll is false. */
	limit?: number;
	/** Query parameter that carries the page size (max_results, count). */
	pageSizeParam?: string;
	maxPageSize?: number;
	minPageSize?: number;
	/**
	 * platform: `meta.next_token`, sent back as `tokenParam` (next_token for search,
	 * pagination_token for timelines). ads: `next_cursor`, sent back as `cursor`.
	 */
	style?: Api;
	tokenParam?: string;
	/** Stops after this many pages whatever happens (a guard against a server that loops). */
	maxPages?: number;
	/** Called with each page's body, e.g. to collect `includes`. */
	onPage?: (body: IDataObject) => void;
	/** Query parameters sent with the first request only (those the service refuses together with a cursor). */
	firstPageQs?: IDataObject;
}

/** Return All / Limit over `data` arrays. */
export async function paginate(
	this: PlatformContext,
	request: PlatformRequest,
	options: PaginateOptions,
): Promise<IDataObject[]> {
	const style = options.style ?? request.api ?? 'platform';
	const tokenParam = options.tokenParam ?? (style === 'ads' ? 'cursor' : 'pagination_token');
	const limit = options.returnAll ? Infinity : Math.max(1, Math.floor(options.limit ?? 50));
	const results: IDataObject[] = [];
	const maxPages = options.maxPages ?? 10_000;
	let token: string | undefined;
	for (let page = 0; page < maxPages; page++) {
		const qs: IDataObject = {
			...(request.qs ?? {}),
			...(page === 0 ? (options.firstPageQs ?? {}) : {}),
		};
		if (options.pageSizeParam && options.maxPageSize) {
			const wanted = Math.min(options.maxPageSize, limit - results.length);
			qs[options.pageSizeParam] = Math.max(options.minPageSize ?? 1, wanted);
		}
		if (token) qs[tokenParam] = token;
		const body = await platformRequest.call<
			PlatformContext,
			[PlatformRequest],
			Promise<IDataObject>
		>(this, {
			...request,
			qs,
		});
		options.onPage?.(body);
		const data = body?.data;
		const items = Array.isArray(data) ? (data as IDataObject[]) : data ? [data as IDataObject] : [];
		for (const item of items) {
			if (results.length >= limit) break;
			results.push(item);
		}
		const next =
			style === 'ads'
				? body?.next_cursor
				: ((body?.meta as IDataObject | undefined)?.next_token as unknown);
		if (results.length >= limit || !next || items.length === 0) break;
		token = String(next);
	}
	return results;
}

/** The service's JSON in bytes (an error answer to a file request); the text when it is not JSON. */
function jsonOf(body: unknown): unknown {
	if (!Buffer.isBuffer(body) && !(body instanceof ArrayBuffer)) return body;
	const text = Buffer.from(body as Buffer).toString('utf8');
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

/** Unwraps `{data: X}` envelopes; older servers send the bare object. */
export function unwrapData<T = IDataObject>(body: unknown): T {
	if (body && typeof body === 'object' && 'data' in (body as object))
		return (body as { data: T }).data;
	return body as T;
}

/**
 * The entries of a list answer: `data`, or a bare array. The service leaves `data` out when there is
 * none (`{"meta": {"result_count": 0}}`): that is an empty list, not one entry. A lone object under
 * `data` is one entry.
 */
export function listOf(body: unknown): IDataObject[] {
	if (Array.isArray(body)) return body as IDataObject[];
	if (!body || typeof body !== 'object' || !('data' in body)) return [];
	const data = (body as IDataObject).data;
	if (Array.isArray(data)) return data as IDataObject[];
	return data && typeof data === 'object' ? [data as IDataObject] : [];
}

/** An open streaming answer: its bytes as they arrive, and `destroy` to close the connection. */
export interface PlatformStream {
	statusCode: number;
	headers: Record<string, string>;
	body: AsyncIterable<Buffer | string> & { destroy?: (error?: Error) => void };
}

/** Reads a refused stream's answer (a byte stream) as the service's JSON error, or its text. */
async function streamErrorBody(body: unknown): Promise<unknown> {
	if (!body || typeof body !== 'object' || !(Symbol.asyncIterator in body)) return body;
	const chunks: Buffer[] = [];
	for await (const chunk of body as AsyncIterable<Buffer | string>) {
		chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
		if (chunks.reduce((n, c) => n + c.length, 0) > 64 * 1024) break;
	}
	const text = Buffer.concat(chunks).toString('utf8');
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

/**
 * Opens a persistent streaming GET (the activity stream) with the credential's authentication and
 * base URL. The answer's body is handed over unread; a refusal is read and thrown as the service's
 * error (NodeApiError, with its rate limit for a 429), and a connection that got no answer as a
 * NodeApiError marked noAnswer. Never retried here: the caller reconnects with its own back-off.
 * `idleTimeoutMs` is the connection's idle timeout (no byte for that long ends it).
 */
export async function openPlatformStream(
	this: PlatformContext,
	request: {
		path: string;
		qs?: IDataObject;
		credentialType: PlatformCredentialType;
		idleTimeoutMs: number;
		/** The app-only bearer credential already read: its token is sent through httpRequest. */
		credential?: ReadCredential;
	},
): Promise<PlatformStream> {
	const urls = request.credential ?? (await baseUrls(this, request.credentialType));
	if (!urls.baseUrl) {
		throw new NodeOperationError(this.getNode(), 'The credential has no Platform API Base URL', {
			description: 'Open the credential and fill in the base URL field.',
		});
	}
	const options: IHttpRequestOptions = {
		method: 'GET',
		url: `${urls.baseUrl}${request.path}`,
		json: false,
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: request.idleTimeoutMs,
	};
	if (request.qs && Object.keys(request.qs).length) options.qs = request.qs;
	let raw: RawResponse;
	try {
		raw = (await send(this, request.credentialType, options, request.credential)) as RawResponse;
	} catch (caught) {
		const unanswered = unansweredCause(caught);
		if (!unanswered && (caught instanceof NodeApiError || caught instanceof NodeOperationError))
			throw asNodeError(this, caught);
		const network = sanitizeNetworkError(unanswered ?? caught);
		const message = `The stream ${request.path} could not be opened (${String(network.code)}: ${String(network.message)})`;
		const failure = new NodeApiError(this.getNode(), network, {
			message,
			description: 'Check that the base URL in the credential is reachable from n8n.',
		});
		failure.message = message;
		withErrorInfo(failure, { noAnswer: true, networkCode: String(network.code) });
		throw failure;
	}
	const statusCode = Number(raw.statusCode);
	const headers = lowerHeaders(raw.headers);
	if (statusCode >= 200 && statusCode < 300) {
		const body = raw.body as PlatformStream['body'] & {
			on?: (event: string, listener: () => void) => void;
		};
		// Whoever reads the stream sees its failure in the read; a failure after the reader let go (the
		// connection breaking as it is closed) must not become an unhandled 'error' event.
		body.on?.('error', () => undefined);
		return { statusCode, headers, body };
	}
	const body = await streamErrorBody(raw.body);
	throw apiError(this.getNode(), statusCode, body, {
		rateLimit: statusCode === 429 ? rateLimitOf(headers, body) : undefined,
	});
}
