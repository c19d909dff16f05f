/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code, not shipped */
/**
 * A test stand-in for n8n's execution contexts. Requests go over real HTTP (global fetch, which
 * nock intercepts), and `httpRequestWithAuthentication` does what n8n does: runs the credential's
 * preAuthentication when its expirable field is empty, applies its `authenticate` (function or
 * generic), and honours returnFullResponse / ignoreHttpStatusErrors / json.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
} from 'n8n-workflow';

// eslint-disable-next-line @n8n/community-nodes/no-restricted-imports -- the test double of n8n's encoding: 'stream' answers a Node stream, as n8n does; test code, not shipped
import { Readable } from 'node:stream';

import { PlatformBearerApi } from '../../credentials/PlatformBearerApi.credentials';
import { PlatformOAuth1Api } from '../../credentials/PlatformOAuth1Api.credentials';
import {
	authorizationHeader,
	signOAuth1,
	type OAuth1Params,
} from '../../credentials/PlatformOAuth1Signer';
import { PlatformOAuth1ConnectApi } from '../../credentials/PlatformOAuth1ConnectApi.credentials';
import { PlatformOAuth2Api } from '../../credentials/PlatformOAuth2Api.credentials';

export const CREDENTIAL_CLASSES: Record<string, ICredentialType> = {
	platformOAuth1Api: new PlatformOAuth1Api(),
	platformOAuth1ConnectApi: new PlatformOAuth1ConnectApi(),
	platformOAuth2Api: new PlatformOAuth2Api(),
	platformBearerApi: new PlatformBearerApi(),
};

export const BASE = 'https://api.test.local';
export const ADS_BASE = 'https://ads-api.test.local';

export const TEST_SECRETS = {
	consumerSecret: 'CONSUMER-SECRET-do-not-leak',
	accessTokenSecret: 'ACCESS-TOKEN-SECRET-do-not-leak',
	accessToken: 'ACCESS-TOKEN-do-not-leak',
	bearerToken: 'BEARER-TOKEN-do-not-leak',
	oauth2AccessToken: 'OAUTH2-ACCESS-TOKEN-do-not-leak',
};

export function defaultCredentials(): Record<string, ICredentialDataDecryptedObject> {
	return {
		platformOAuth1Api: {
			consumerKey: 'ck',
			consumerSecret: TEST_SECRETS.consumerSecret,
			accessToken: TEST_SECRETS.accessToken,
			accessTokenSecret: TEST_SECRETS.accessTokenSecret,
			baseUrl: BASE,
			adsBaseUrl: ADS_BASE,
		},
		platformOAuth1ConnectApi: {
			consumerKey: 'ck',
			consumerSecret: TEST_SECRETS.consumerSecret,
			oauthTokenData: {
				oauth_token: TEST_SECRETS.accessToken,
				oauth_token_secret: TEST_SECRETS.accessTokenSecret,
			},
			baseUrl: BASE,
			adsBaseUrl: ADS_BASE,
		},
		platformOAuth2Api: {
			clientId: 'cid',
			clientSecret: 'csecret',
			oauthTokenData: { access_token: TEST_SECRETS.oauth2AccessToken },
			baseUrl: BASE,
			webUrl: 'https://web.test.local',
		},
		platformBearerApi: {
			origin: 'pasted',
			bearerToken: TEST_SECRETS.bearerToken,
			consumerSecret: TEST_SECRETS.consumerSecret,
			mintedToken: '',
			baseUrl: BASE,
			adsBaseUrl: ADS_BASE,
		},
	};
}

/**
 * Resolves the `{{ ... }}` parts of a generic authenticate template. Supports what our credentials
 * use: `$credentials.name` and `a === "b" ? x : y`.
 */
function resolveTemplate(template: string, credentials: ICredentialDataDecryptedObject): string {
	const body = template.startsWith('=') ? template.slice(1) : template;
	const value = (term: string): unknown => {
		const t = term.trim();
		const quoted = t.match(/^["'](.*)["']$/);
		if (quoted) return quoted[1];
		const ref = t.match(/^\$credentials\.(\w+)$/);
		if (ref) return credentials[ref[1]];
		throw new Error(`Unsupported template term: ${t}`);
	};
	return body.replace(/\{\{([\s\S]+?)\}\}/g, (_m, expr: string) => {
		const ternary = expr.match(/^(.+?)===(.+?)\?(.+?):(.+)$/);
		if (ternary) {
			return String(
				value(ternary[1]) === value(ternary[2]) ? value(ternary[3]) : value(ternary[4]),
			);
		}
		return String(value(expr) ?? '');
	});
}

export interface RecordedRequest {
	method: string;
	url: string;
	headers: Record<string, string>;
	body?: string;
}

/** Performs a request the way n8n's httpRequest does, over fetch. */
export async function performHttp(
	options: IHttpRequestOptions,
	log?: RecordedRequest[],
): Promise<unknown> {
	const url = new URL(
		/^https?:/i.test(options.url) ? options.url : `${options.baseURL ?? ''}${options.url}`,
	);
	for (const [k, v] of Object.entries((options.qs ?? {}) as IDataObject)) {
		if (v === undefined || v === null) continue;
		if (Array.isArray(v)) v.forEach((x) => url.searchParams.append(k, String(x)));
		else url.searchParams.append(k, String(v));
	}
	const headers: Record<string, string> = {};
	for (const [k, v] of Object.entries((options.headers ?? {}) as IDataObject))
		headers[k.toLowerCase()] = String(v);
	if (options.auth) {
		headers.authorization = `Basic ${Buffer.from(`${options.auth.username}:${options.auth.password}`).toString('base64')}`;
	}
	let body: string | Buffer | undefined;
	const method = (options.method ?? 'GET').toUpperCase();
	if (options.body !== undefined && method !== 'GET') {
		const contentType = headers['content-type'] ?? '';
		if (Buffer.isBuffer(options.body)) body = options.body;
		else if (typeof options.body === 'string') body = options.body;
		else if (options.body instanceof URLSearchParams) {
			// Like n8n: a URLSearchParams body is sent form-encoded, with that content type unless one is set.
			body = options.body.toString();
			headers['content-type'] = headers['content-type'] ?? 'application/x-www-form-urlencoded';
		} else if (contentType.startsWith('application/x-www-form-urlencoded')) {
			const sp = new URLSearchParams();
			for (const [k, v] of Object.entries(options.body as IDataObject)) {
				if (Array.isArray(v)) v.forEach((x) => sp.append(k, String(x)));
				else if (v !== undefined && v !== null) sp.append(k, String(v));
			}
			body = sp.toString();
		} else {
			body = JSON.stringify(options.body);
			headers['content-type'] = headers['content-type'] ?? 'application/json';
		}
	}
	log?.push({
		method,
		url: url.toString(),
		headers,
		body: body === undefined ? undefined : body.toString(),
	});
	if (options.encoding === 'stream') return await openStream(url, method, headers, options);
	const response = await fetch(url, {
		method,
		headers,
		body: body as unknown as BodyInit | undefined,
		signal: AbortSignal.timeout(options.timeout ?? 30000),
	});
	const bytes = Buffer.from(await response.arrayBuffer());
	const text = bytes.toString('utf8');
	// Like n8n: `encoding: 'arraybuffer'` answers the bytes as they came.
	let parsed: unknown = options.encoding === 'arraybuffer' ? bytes : text;
	if (options.json !== false && text) {
		try {
			parsed = JSON.parse(text);
		} catch {
			parsed = text;
		}
	}
	const responseHeaders: Record<string, string> = {};
	response.headers.forEach((v, k) => (responseHeaders[k] = v));
	if (!response.ok && !options.ignoreHttpStatusErrors) {
		const error = new Error(`Request failed with status code ${response.status}`) as Error & {
			response: { status: number; data: unknown; headers: Record<string, string> };
		};
		error.response = { status: response.status, data: parsed, headers: responseHeaders };
		throw error;
	}
	if (options.returnFullResponse) {
		return { statusCode: response.status, headers: responseHeaders, body: parsed };
	}
	return parsed;
}

/** Like n8n's `encoding: 'stream'`: the body as a Node stream, read by the caller (no overall timeout). */
async function openStream(
	url: URL,
	method: string,
	headers: Record<string, string>,
	options: IHttpRequestOptions,
): Promise<unknown> {
	const response = await fetch(url, { method, headers });
	const responseHeaders: Record<string, string> = {};
	response.headers.forEach((v, k) => (responseHeaders[k] = v));
	const body = response.body
		? Readable.fromWeb(response.body as import('node:stream/web').ReadableStream)
		: Readable.from([]);
	if (!response.ok && !options.ignoreHttpStatusErrors) {
		body.destroy();
		const error = new Error(`Request failed with status code ${response.status}`) as Error & {
			response: { status: number; data: unknown; headers: Record<string, string> };
		};
		error.response = { status: response.status, data: undefined, headers: responseHeaders };
		throw error;
	}
	return options.returnFullResponse
		? { statusCode: response.status, headers: responseHeaders, body }
		: body;
}

export interface ContextOptions {
	parameters?: IDataObject | ((itemIndex: number) => IDataObject);
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	items?: INodeExecutionData[];
	continueOnFail?: boolean;
	staticData?: IDataObject;
	nodeName?: string;
	/** The node's typeVersion (default 1). */
	typeVersion?: number;
	/** The workflow id (default: a new one per context, so that no two contexts share a trigger's memory). */
	workflowId?: string;
	/** Extra members merged into the context (webhook / hook functions). */
	extra?: IDataObject;
}

function getPath(obj: unknown, path: string): unknown {
	let current: unknown = obj;
	for (const part of path.split('.')) {
		if (current === undefined || current === null || typeof current !== 'object') return undefined;
		current = (current as IDataObject)[part];
	}
	return current;
}

let contextCount = 0;

export function createContext(options: ContextOptions = {}) {
	const workflowId = options.workflowId ?? `wf-${++contextCount}`;
	const credentials = options.credentials ?? defaultCredentials();
	const items: INodeExecutionData[] = options.items ?? [{ json: {} }];
	const staticData = options.staticData ?? {};
	const requests: RecordedRequest[] = [];
	const preAuthCalls: string[] = [];
	const logs: Array<{ level: string; message: string; meta?: unknown }> = [];
	const node: INode = {
		id: 'node-1',
		name: options.nodeName ?? 'Test Node',
		type: 'n8n-nodes-platform.test',
		typeVersion: options.typeVersion ?? 1,
		position: [0, 0],
		parameters: {},
	};
	const paramsFor = (itemIndex: number): IDataObject =>
		typeof options.parameters === 'function'
			? options.parameters(itemIndex)
			: (options.parameters ?? {});

	const helpers = {
		httpRequest: async (opts: IHttpRequestOptions) => await performHttp(opts, requests),
		/** Like n8n: a thrown 401 makes a credential with preAuthentication refresh its token and retry once. */
		async httpRequestWithAuthentication(type: string, opts: IHttpRequestOptions): Promise<unknown> {
			try {
				return await helpers.authenticatedRequest(type, opts, false);
			} catch (error) {
				const status = (error as { response?: { status?: number } }).response?.status;
				// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- a test double of n8n's helper, which rethrows the same way
				if (status !== 401 || !CREDENTIAL_CLASSES[type]?.preAuthentication) throw error;
				return await helpers.authenticatedRequest(type, opts, true);
			}
		},
		async authenticatedRequest(type: string, opts: IHttpRequestOptions, expired: boolean) {
			const data = credentials[type];
			if (!data) throw new Error(`No credentials of type ${type} in the test context`);
			const credentialType = CREDENTIAL_CLASSES[type];
			const expirable = credentialType.properties.find(
				(p) => p.type === 'hidden' && p.typeOptions?.expirable,
			);
			if (
				credentialType.preAuthentication &&
				expirable &&
				(expired || data[expirable.name] === '')
			) {
				preAuthCalls.push(type);
				const output = await credentialType.preAuthentication.call(
					{ helpers: { httpRequest: helpers.httpRequest } } as never,
					data,
				);
				if (output[expirable.name] !== undefined) Object.assign(data, output);
			}
			let finalOptions: IHttpRequestOptions = { ...opts, headers: { ...(opts.headers ?? {}) } };
			if (type === 'platformOAuth2Api') {
				const token = (data.oauthTokenData as IDataObject).access_token;
				finalOptions.headers = {
					...finalOptions.headers,
					Authorization: `Bearer ${String(token)}`,
				};
			} else if (type === 'platformOAuth1ConnectApi') {
				// As n8n's own OAuth 1.0a signer does: it signs the query and the `form` property (never
				// `body`) and replaces every header with the Authorization header.
				const tokenData = data.oauthTokenData as IDataObject;
				const form = (finalOptions as IHttpRequestOptions & { form?: Record<string, string> }).form;
				const oauth = signOAuth1(
					{
						consumerKey: String(data.consumerKey),
						consumerSecret: String(data.consumerSecret),
						accessToken: String(tokenData.oauth_token),
						accessTokenSecret: String(tokenData.oauth_token_secret),
					},
					{
						method: finalOptions.method ?? 'GET',
						url: finalOptions.url,
						query: finalOptions.qs as OAuth1Params | undefined,
						form,
					},
				);
				finalOptions = { ...finalOptions, headers: { Authorization: authorizationHeader(oauth) } };
			} else if (typeof credentialType.authenticate === 'function') {
				finalOptions = await credentialType.authenticate(data, finalOptions);
			} else if (credentialType.authenticate) {
				const generic = credentialType.authenticate.properties;
				for (const [k, v] of Object.entries((generic.headers ?? {}) as IDataObject)) {
					finalOptions.headers = { ...finalOptions.headers, [k]: resolveTemplate(String(v), data) };
				}
			}
			return await performHttp(finalOptions, requests);
		},
		async getBinaryDataBuffer(itemIndex: number, propertyName: string) {
			const binary = items[itemIndex]?.binary?.[propertyName];
			if (!binary) throw new Error(`No binary property "${propertyName}" on item ${itemIndex}`);
			return Buffer.from(binary.data, 'base64');
		},
		assertBinaryData(itemIndex: number, propertyName: string) {
			const binary = items[itemIndex]?.binary?.[propertyName];
			if (!binary)
				throw new Error(
					`This operation expects the node's input data to contain a binary file '${propertyName}'`,
				);
			return binary;
		},
		async prepareBinaryData(buffer: Buffer, fileName?: string, mimeType?: string) {
			return {
				data: buffer.toString('base64'),
				fileName,
				mimeType: mimeType ?? 'application/octet-stream',
			};
		},
		returnJsonArray(data: IDataObject | IDataObject[]) {
			return (Array.isArray(data) ? data : [data]).map((json) => ({ json }));
		},
		constructExecutionMetaData(data: INodeExecutionData[], meta: { itemData: { item: number } }) {
			return data.map((d) => ({ ...d, pairedItem: meta.itemData }));
		},
	};

	const context = {
		getNode: () => node,
		getInputData: () => items,
		continueOnFail: () => options.continueOnFail ?? false,
		getWorkflowStaticData: () => staticData,
		getWorkflow: () => ({ id: workflowId, name: 'Test Workflow', active: true }),
		getCredentials: async (type: string) => {
			const data = credentials[type];
			if (!data) throw new Error(`Node does not have credentials of type ${type}`);
			return data;
		},
		getNodeParameter(
			name: string,
			itemIndexOrFallback?: unknown,
			fallback?: unknown,
			opts?: { extractValue?: boolean },
		) {
			const itemIndex = typeof itemIndexOrFallback === 'number' ? itemIndexOrFallback : 0;
			const fb = typeof itemIndexOrFallback === 'number' ? fallback : itemIndexOrFallback;
			const value = getPath(paramsFor(itemIndex), name);
			if (value === undefined) {
				if (fb === undefined && arguments.length < 3 && typeof itemIndexOrFallback === 'number') {
					throw new Error(`Could not get parameter "${name}"`);
				}
				return fb;
			}
			if (
				opts?.extractValue &&
				value &&
				typeof value === 'object' &&
				'__rl' in (value as IDataObject)
			) {
				return (value as IDataObject).value;
			}
			return value;
		},
		getMode: () => 'trigger',
		getExecutionId: () => 'exec-1',
		logger: {
			debug: (message: string, meta?: unknown) => logs.push({ level: 'debug', message, meta }),
			info: (message: string, meta?: unknown) => logs.push({ level: 'info', message, meta }),
			warn: (message: string, meta?: unknown) => logs.push({ level: 'warn', message, meta }),
			error: (message: string, meta?: unknown) => logs.push({ level: 'error', message, meta }),
		},
		helpers,
		...(options.extra ?? {}),
	};
	return { context: context as never, requests, preAuthCalls, logs, staticData, node, credentials };
}
