/**
 * Drives every operation of a node the way a user's saved workflow would: n8n-workflow's own
 * parameter resolution applies defaults and display rules, the fields n8n reports as missing
 * (getNodeParametersIssues) are filled with sample values, and the node runs against the local
 * sandbox (its contract check off, so that the node's whole request sequence is seen). Every request
 * is captured and held against the contract's rule table by the checker the sandbox itself uses.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { createContext, type RecordedRequest } from '../helpers/context';

/* eslint-disable @typescript-eslint/no-require-imports -- the sandbox is plain CommonJS */
const { createSandbox } = require('../../sandbox/server') as {
	createSandbox(options: IDataObject): Sandbox;
};
const { createChecker } = require('../../sandbox/contract/check') as {
	createChecker(): Checker;
};
const { parseMultipart } = require('../../sandbox/lib/multipart') as {
	parseMultipart(raw: Buffer, contentType: string): IDataObject;
};
/* eslint-enable @typescript-eslint/no-require-imports */

export interface Sandbox {
	url: string;
	keys: Record<string, string>;
	bearers: Record<string, IDataObject>;
	tokens: Record<string, IDataObject>;
	db: { streamRules: Map<string, unknown> };
	/** What the sandbox answered, with what in each answer breaks the contract (sandbox/server.js). */
	records: Array<{
		seq: number;
		method: string;
		path: string;
		route?: string;
		status: number;
		response?: unknown;
		answerViolations?: Array<{ rule: string; message: string }>;
	}>;
	seq: number;
	listen(port?: number): Promise<Sandbox>;
	close(): Promise<void>;
	publishPost(input: IDataObject): IDataObject;
	sendDirectMessage(input: IDataObject): IDataObject;
	chatSample(): { mediaHashKey: string };
	seededListId: string;
}

export interface Violation {
	rule: string;
	status: number;
	message: string;
	parameter?: string;
}

export interface Checker {
	table: { operations: Record<string, IDataObject>; scopes: string[] };
	check(request: IDataObject): { operation?: string; violations: Violation[] };
}

/** The credential kinds, as the nodes' Authentication values name them, and the contract's. */
export const AUTH_KIND: Record<string, string> = {
	platformBearerApi: 'app',
	platformOAuth2Api: 'oauth2',
	platformOAuth1Api: 'oauth1',
	platformOAuth1ConnectApi: 'oauth1',
};

export interface CheckedAnswer {
	method: string;
	/** The sandbox's route pattern (e.g. GET /2/spaces/:id), else the path. */
	route: string;
	status: number;
	violations: Array<{ rule: string; message: string }>;
}

export interface CheckedRequest {
	method: string;
	path: string;
	operation?: string;
	violations: Violation[];
}

export interface CaseResult {
	label: string;
	authentication: string;
	requests: CheckedRequest[];
	/** Requests outside the contract's `/2/` scope (the token endpoints, the advertising interface). */
	outside: string[];
	/** The sandbox's JSON answers to `/2/` requests, each with what in it breaks the contract. */
	answers: CheckedAnswer[];
	/** The node refused before sending anything (e.g. a credential kind the operation does not take). */
	refusedBeforeRequest?: string;
	error?: string;
	/** What the node returned (execute's or poll's output), when it returned. */
	output?: unknown;
}

const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
	'base64',
);

/** A sample value n8n would accept for a field the user must fill. */
function sampleValue(property: INodeProperties, ids: SampleIds): unknown {
	const name = property.name;
	const idFor = (): string => {
		if (/user|participant|recipient|target|author|account/i.test(name)) return ids.userId;
		if (/webhook/i.test(name)) return ids.webhookId;
		if (/subscription/i.test(name)) return ids.subscriptionId;
		if (/media/i.test(name)) return ids.mediaId;
		if (/news/i.test(name)) return ids.newsId;
		if (/conversation/i.test(name)) return ids.conversationId;
		if (/space/i.test(name)) return ids.spaceId;
		if (/community/i.test(name)) return ids.communityId;
		if (/job/i.test(name)) return ids.complianceJobId;
		if (/^eventId$/.test(name)) return ids.dmEventId;
		if (/folder/i.test(name)) return ids.bookmarkFolderId;
		if (/list/i.test(name)) return ids.listId;
		return ids.postId;
	};
	switch (property.type) {
		case 'resourceLocator':
			// A user field named User keeps its default mode, the handle: n8n looks the user up by it.
			if (name === 'user' && (property.default as { mode?: string })?.mode === 'username')
				return { __rl: true, mode: 'username', value: ids.username };
			return { __rl: true, mode: 'id', value: idFor() };
		case 'number':
			return property.typeOptions?.minValue ?? 1;
		case 'boolean':
			return true;
		case 'options': {
			const first = (property.options as INodePropertyOptions[] | undefined)?.[0];
			return first?.value ?? '';
		}
		case 'multiOptions': {
			const first = (property.options as INodePropertyOptions[] | undefined)?.[0];
			return first ? [first.value] : [];
		}
		case 'dateTime':
			// A window in the past (replays, searches), any other time in the future (scheduling).
			if (/from|start|since/i.test(name)) return new Date(Date.now() - 7_200_000).toISOString();
			if (/to$|end|until/i.test(name)) return new Date(Date.now() - 3_600_000).toISOString();
			return new Date(Date.now() + 86_400_000).toISOString();
		case 'json':
			return '{}';
		case 'collection':
		case 'fixedCollection':
			return {};
		default:
			if (/username|handle/i.test(name)) return ids.username;
			if (/hashKey/i.test(name)) return ids.mediaHashKey;
			// A group conversation takes two users or more.
			if (/^participantIds$/.test(name)) return `${ids.userId},1000000002`;
			if (/mediaKey/i.test(name)) return ids.mediaKey;
			if (/^user$|users$/i.test(name)) return ids.userId;
			if (/url/i.test(name)) return ids.webhookUrl;
			if (/ids$/i.test(name)) return idFor();
			if (/id$/i.test(name)) return idFor();
			if (/query|keyword/i.test(name)) return 'n8n';
			// A list's name is 1-25 characters.
			if (/^name$/i.test(name)) return 'Conformance sample';
			// A note must cite a source; a post or message needs some text.
			if (/text|message/i.test(name)) return 'Sample text, source: https://example.com/source';
			return 'Sample text from the conformance test';
	}
}

export interface SampleIds {
	userId: string;
	username: string;
	postId: string;
	webhookId: string;
	subscriptionId: string;
	mediaId: string;
	/** A media key (media type number, underscore, media id). */
	mediaKey: string;
	newsId: string;
	conversationId: string;
	/** A live ticketed Space of the sandbox user's, a Community and a compliance job, seeded by the sandbox. */
	spaceId: string;
	communityId: string;
	complianceJobId: string;
	/** A direct message event of the sandbox user's. */
	dmEventId: string;
	/** A chat media file in the conversation `conversationId`, seeded by the sandbox. */
	mediaHashKey: string;
	/** A bookmark folder of the sandbox user's, seeded by the sandbox. */
	bookmarkFolderId: string;
	/** A list of the sandbox user's, seeded by the sandbox. */
	listId: string;
	/** A URL whose CRC checks are answered (set by the test). */
	webhookUrl: string;
}

/** A fixed collection with one entry of its first kind, each field its default or a sample. */
function oneEntry(list: INodeProperties, ids: SampleIds): INodeParameters[string] {
	const kind = (
		list.options as Array<{ name: string; values: INodeProperties[] }> | undefined
	)?.[0];
	if (!kind) return {};
	const entry: IDataObject = {};
	for (const field of kind.values)
		entry[field.name] =
			field.default === '' || field.default === undefined
				? (sampleValue(field, ids) as IDataObject[string])
				: (field.default as IDataObject[string]);
	return {
		[kind.name]: list.typeOptions?.multipleValues ? [entry] : entry,
	} as INodeParameters[string];
}

/** The property definitions n8n shows for these values (the first displayed one of each name). */
function displayed(
	properties: INodeProperties[],
	values: INodeParameters,
	node: INode,
	description: INodeTypeDescription,
): Map<string, INodeProperties> {
	const out = new Map<string, INodeProperties>();
	for (const p of properties)
		if (!out.has(p.name) && NodeHelpers.displayParameter(values, p, node, description))
			out.set(p.name, p);
	return out;
}

/**
 * The parameters a saved workflow holds for `chosen`: n8n's defaults and display rules applied,
 * and every field n8n reports as missing filled with a sample value.
 */
export function resolveParameters(
	description: INodeTypeDescription,
	version: number,
	chosen: INodeParameters,
	ids: SampleIds,
): INodeParameters {
	const node: INode = {
		id: 'conformance',
		name: 'Conformance',
		type: description.name,
		typeVersion: version,
		position: [0, 0],
		parameters: {},
	};
	let values: INodeParameters = { ...chosen };
	for (let round = 0; round < 8; round++) {
		const resolved = NodeHelpers.getNodeParameters(
			description.properties,
			values,
			true,
			false,
			node,
			description,
		) as INodeParameters;
		node.parameters = resolved;
		const issues = NodeHelpers.getNodeParametersIssues(description.properties, node, description);
		const shown = displayed(description.properties, resolved, node, description);
		const missing = Object.keys(issues?.parameters ?? {});
		// An empty list of entries (stream rules, poll choices, card components) gets one entry:
		// n8n does not report it missing, but the operation has nothing to send without it.
		const emptyTexts = [...shown.values()].filter(
			(p) => p.type === 'string' && /^text$/i.test(p.name) && resolved[p.name] === '',
		);
		const emptyLists = [...shown.values()].filter(
			(p) =>
				p.type === 'fixedCollection' &&
				!Object.keys((resolved[p.name] as IDataObject | undefined) ?? {}).length,
		);
		if (!missing.length && !emptyLists.length && !emptyTexts.length) return resolved;
		values = { ...resolved };
		for (const text of emptyTexts) values[text.name] = sampleValue(text, ids) as string;
		for (const list of emptyLists) values[list.name] = oneEntry(list, ids);
		for (const name of missing) {
			const property = shown.get(name);
			if (property) values[name] = sampleValue(property, ids) as INodeParameters[string];
		}
	}
	throw new Error(`the parameters of ${JSON.stringify(chosen)} never settle`);
}

/** Option values of a top-level parameter as displayed for `values`. */
export function optionValues(
	description: INodeTypeDescription,
	version: number,
	name: string,
	values: INodeParameters,
): string[] {
	const node = { typeVersion: version } as INode;
	const found = description.properties.find(
		(p) => p.name === name && NodeHelpers.displayParameter(values, p, node, description),
	);
	return ((found?.options as INodePropertyOptions[] | undefined) ?? []).map((o) => String(o.value));
}

/**
 * Variants of one operation's parameters: as resolved, with every multi-option field (top level and
 * inside collections, e.g. the `*.fields` lists) set to all its values, and one per value of every
 * other displayed single-choice field.
 */
export function variants(
	description: INodeTypeDescription,
	version: number,
	base: INodeParameters,
	ids: SampleIds,
	fixed: string[],
): Array<{ label: string; parameters: INodeParameters }> {
	const node = { typeVersion: version } as INode;
	const out: Array<{ label: string; parameters: INodeParameters }> = [
		{ label: 'defaults', parameters: base },
	];
	const shown = description.properties.filter((p) =>
		NodeHelpers.displayParameter(base, p, node, description),
	);
	const all = { ...base };
	let anyMulti = false;
	for (const p of shown) {
		if (p.type === 'multiOptions' && p.options) {
			all[p.name] = (p.options as INodePropertyOptions[]).map((o) => o.value) as string[];
			anyMulti = true;
		}
		if (p.type === 'collection' && p.options) {
			const inner: IDataObject = { ...((base[p.name] as IDataObject) ?? {}) };
			for (const o of p.options as INodeProperties[])
				if (o.type === 'multiOptions' && o.options) {
					inner[o.name] = (o.options as INodePropertyOptions[]).map((x) => x.value);
					anyMulti = true;
				}
			all[p.name] = inner as INodeParameters[string];
		}
	}
	if (anyMulti)
		out.push({
			label: 'every multi-option value',
			parameters: resolveParameters(description, version, all, ids),
		});
	// A locator filled in another mode (a User given by handle) also given by ID: the two reach
	// different endpoints (GET /2/users/by/username/:username, GET /2/users/:id).
	for (const p of shown) {
		if (p.type !== 'resourceLocator' || fixed.includes(p.name)) continue;
		const value = base[p.name] as { mode?: string } | undefined;
		if (!value || value.mode === 'id' || !p.modes?.some((m) => m.name === 'id')) continue;
		out.push({
			label: `${p.name} by ID`,
			parameters: resolveParameters(
				description,
				version,
				{ ...base, [p.name]: { __rl: true, mode: 'id', value: ids.userId } },
				ids,
			),
		});
	}
	// Each other choice alone, and with every multi-option value (e.g. All Events is accepted only
	// with a user credential chosen in another field).
	for (const p of shown) {
		if (p.type !== 'options' || fixed.includes(p.name) || !p.options) continue;
		for (const o of p.options as INodePropertyOptions[]) {
			if (o.value === base[p.name]) continue;
			const choice = { [p.name]: o.value as string };
			out.push({
				label: `${p.name}=${String(o.value)}`,
				parameters: resolveParameters(description, version, { ...base, ...choice }, ids),
			});
			if (anyMulti)
				out.push({
					label: `${p.name}=${String(o.value)}, every multi-option value`,
					parameters: resolveParameters(description, version, { ...all, ...choice }, ids),
				});
		}
	}
	return out;
}

/** Credentials for the sandbox, one of each kind. */
function sandboxCredentials(sb: Sandbox): Record<string, ICredentialDataDecryptedObject> {
	const k = sb.keys;
	return {
		platformOAuth1Api: {
			consumerKey: k.consumerKey,
			consumerSecret: k.consumerSecret,
			accessToken: k.accessToken,
			accessTokenSecret: k.accessTokenSecret,
			baseUrl: sb.url,
			adsBaseUrl: sb.url,
		},
		platformOAuth1ConnectApi: {
			consumerKey: k.consumerKey,
			consumerSecret: k.consumerSecret,
			oauthTokenData: { oauth_token: k.accessToken, oauth_token_secret: k.accessTokenSecret },
			baseUrl: sb.url,
			adsBaseUrl: sb.url,
		},
		platformOAuth2Api: {
			clientId: 'sandbox-client',
			clientSecret: 'sandbox-client-secret',
			oauthTokenData: { access_token: k.oauth2UserToken },
			baseUrl: sb.url,
			webUrl: sb.url,
		},
		platformBearerApi: {
			origin: 'pasted',
			bearerToken: k.bearerToken,
			consumerKey: k.consumerKey,
			consumerSecret: k.consumerSecret,
			mintedToken: '',
			baseUrl: sb.url,
			adsBaseUrl: sb.url,
		},
	};
}

/** The scopes the sandbox's OAuth 2.0 user token holds (set by the test). */
export const userTokenScopes: { scopes?: string[] } = {};

/**
 * Every case starts with the sandbox's credentials valid: the token operations revoke them, and a
 * case must not see what an earlier case did.
 */
function restoreCredentials(sb: Sandbox) {
	// Stream rules an earlier case added would make this case's identical rule a duplicate, and
	// activation would stop before linking the stream to the webhook.
	sb.db.streamRules.clear();
	const k = sb.keys;
	sb.tokens[k.accessToken] = { secret: k.accessTokenSecret, userId: k.userId };
	sb.bearers[k.bearerToken] = { kind: 'app' };
	sb.bearers[k.oauth2UserToken] = {
		kind: 'user',
		userId: k.userId,
		scopes: userTokenScopes.scopes,
	};
}

/** One captured request in the checker's terms. */
function asCheckable(sb: Sandbox, request: RecordedRequest & { raw?: Buffer }): IDataObject {
	const url = new URL(request.url);
	const header = request.headers.authorization ?? '';
	let auth: IDataObject = { kind: 'none' };
	if (/^Bearer /i.test(header)) {
		const token = header.slice(7).trim();
		const known = sb.bearers[token];
		auth =
			known?.kind === 'app'
				? { kind: 'app' }
				: { kind: 'oauth2', scopes: known?.scopes as string[] | undefined };
	} else if (/^OAuth /i.test(header)) auth = { kind: 'oauth1' };
	else if (/^Basic /i.test(header)) auth = { kind: 'basic' };
	const contentType = request.headers['content-type'] ?? '';
	let bodyKind = 'none';
	let body: IDataObject | undefined;
	const raw = request.raw ?? (request.body === undefined ? undefined : Buffer.from(request.body));
	if (raw && raw.length) {
		if (/^application\/json/i.test(contentType)) {
			bodyKind = 'json';
			body = JSON.parse(raw.toString('utf8')) as IDataObject;
		} else if (/^application\/x-www-form-urlencoded/i.test(contentType)) {
			bodyKind = 'form';
			body = Object.fromEntries(new URLSearchParams(raw.toString('utf8')).entries());
		} else if (/^multipart\/form-data/i.test(contentType)) {
			bodyKind = 'multipart';
			body = parseMultipart(raw, contentType);
		} else bodyKind = 'raw';
	}
	return {
		method: request.method,
		path: url.pathname,
		query: [...url.searchParams.entries()],
		contentType,
		bodyKind,
		body,
		auth,
	};
}

const SRT = Buffer.from('1\n00:00:00,000 --> 00:00:01,000\nHello\n');

/** The input items of a case: an image, or a subtitle file where subtitles are uploaded. */
export function itemsFor(parameters: INodeParameters): INodeExecutionData[] {
	if (parameters.purpose !== 'subtitles' && parameters.operation !== 'addSubtitles')
		return SAMPLE_ITEMS;
	return [
		{
			json: {},
			binary: {
				data: {
					data: SRT.toString('base64'),
					mimeType: 'application/x-subrip',
					fileName: 'sample.srt',
				},
			},
		},
	];
}

const SAMPLE_ITEMS: INodeExecutionData[] = [
	{
		json: { text: 'Sample', id: '1' },
		binary: {
			data: { data: PNG.toString('base64'), mimeType: 'image/png', fileName: 'sample.png' },
		},
	},
];

/** Runs one case: the node's execute (or `invoke`) with these parameters, every request checked. */
export async function runCase(
	sb: Sandbox,
	checker: Checker,
	label: string,
	parameters: INodeParameters,
	invoke: (context: never) => Promise<unknown>,
	options: { typeVersion: number; staticData?: IDataObject; extra?: IDataObject },
): Promise<CaseResult> {
	restoreCredentials(sb);
	const built = createContext({
		parameters: parameters as IDataObject,
		credentials: sandboxCredentials(sb),
		items: itemsFor(parameters),
		typeVersion: options.typeVersion,
		staticData: options.staticData,
		extra: options.extra,
	});
	const result: CaseResult = {
		label,
		authentication: String(parameters.authentication ?? ''),
		requests: [],
		outside: [],
		answers: [],
	};
	const since = sb.seq;
	try {
		result.output = await invoke(built.context);
	} catch (error) {
		const message = (error as Error).message;
		if (!built.requests.length) result.refusedBeforeRequest = message;
		else result.error = message;
	}
	for (const request of built.requests) {
		const url = new URL(request.url);
		if (!url.pathname.startsWith('/2/')) {
			result.outside.push(`${request.method} ${url.pathname}`);
			continue;
		}
		const { operation, violations } = checker.check(asCheckable(sb, request));
		result.requests.push({ method: request.method, path: url.pathname, operation, violations });
	}
	for (const record of sb.records)
		if (record.seq > since && record.path.startsWith('/2/') && record.response !== undefined)
			result.answers.push({
				method: record.method,
				route: record.route ?? `${record.method} ${record.path}`,
				status: record.status,
				violations: record.answerViolations ?? [],
			});
	return result;
}

export async function startSandbox(): Promise<{ sb: Sandbox; checker: Checker; ids: SampleIds }> {
	const sb = await createSandbox({ contract: false, quiet: true }).listen();
	const checker = createChecker();
	const post = sb.publishPost({ text: 'A post for the conformance test' });
	const ids: SampleIds = {
		userId: sb.keys.userId,
		username: sb.keys.username,
		postId: String(post.id),
		webhookId: '1790000000000000001',
		subscriptionId: '1790000000000000002',
		mediaId: '1790000000000000003',
		mediaKey: '3_1790000000000000003',
		newsId: '1790000000000000004',
		conversationId: `${sb.keys.userId}-1000000002`,
		spaceId: '1DXxyRYNejbKM',
		communityId: '1600000000000000001',
		complianceJobId: '1700000000000000001',
		dmEventId: String(
			sb.sendDirectMessage({ to: '1000000002', text: 'A message for the conformance test' }).id,
		),
		mediaHashKey: sb.chatSample().mediaHashKey,
		bookmarkFolderId: '1800000000000000001',
		listId: sb.seededListId,
		webhookUrl: 'https://example.com/hooks/platform',
	};
	return { sb, checker, ids };
}
