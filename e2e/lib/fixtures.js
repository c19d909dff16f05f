'use strict';
/**
 * Credentials (pointing at the sandbox) and workflow builders shared by `npm start`, the e2e suite and
 * the benchmark. Credential ids are fixed so that examples/*.json can refer to them.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const PKG = 'n8n-nodes-platform';
const T = {
	trigger: `${PKG}.platformTriggerPosts`,
	posts: `${PKG}.platformPosts`,
	catalog: `${PKG}.adsCatalog`,
	creatives: `${PKG}.adsCreatives`,
};

const CRED = {
	oauth1: {
		id: 'PlatSbxOAuth1K01',
		name: 'Platform Sandbox OAuth1 Keys',
		type: 'platformOAuth1Api',
	},
	bearer: {
		id: 'PlatSbxBearer001',
		name: 'Platform Sandbox App Bearer',
		type: 'platformBearerApi',
	},
	/**
	 * A pasted app token of its own (REVOCABLE_BEARER_TOKEN), for the test that revokes the token of the
	 * bearer credential: the app's own bearer token stays valid for every other test.
	 */
	bearerRevocable: {
		id: 'PlatSbxBearerR01',
		name: 'Platform Sandbox App Bearer (to revoke)',
		type: 'platformBearerApi',
	},
	/**
	 * A pasted app token of its own (SECOND_APP_BEARER_TOKEN): the sandbox labels what it opens, so a test
	 * tells this workflow's stream connections from those of the other active workflows.
	 */
	bearerSecond: {
		id: 'PlatSbxBearer2nd',
		name: 'Platform Sandbox App Bearer (second token)',
		type: 'platformBearerApi',
	},
	bearerMinted: {
		id: 'PlatSbxBearerM01',
		name: 'Platform Sandbox App Bearer (minted)',
		type: 'platformBearerApi',
	},
	oauth2: {
		id: 'PlatSbxOAuth2001',
		name: 'Platform Sandbox OAuth2 (user)',
		type: 'platformOAuth2Api',
	},
	connect: {
		id: 'PlatSbxConnect01',
		name: 'Platform Sandbox OAuth1 Connect',
		type: 'platformOAuth1ConnectApi',
	},
	/** n8n's own Crypto credential holding the consumer secret: the do-it-yourself benchmark workflow signs with it. */
	crypto: {
		id: 'PlatSbxCryptoH01',
		name: 'Platform Sandbox consumer secret (Crypto HMAC)',
		type: 'crypto',
	},
	/**
	 * n8n's own OpenAI credential whose Base URL is the local OpenAI-compatible stub (e2e/lib/openaiStub.js):
	 * the model of the AI agent example and tests (openAiStubCredential).
	 */
	openAiStub: {
		id: 'PlatSbxOpenAiStb',
		name: 'Local OpenAI-compatible stub',
		type: 'openAiApi',
	},
	/** n8n's own OAuth1 credential, connected: what the HTTP Request node signs with when this package is not installed. */
	n8nOAuth1: {
		id: 'PlatSbxN8nOAuth1',
		name: 'Platform Sandbox (n8n OAuth1 API)',
		type: 'oAuth1Api',
	},
};

/** The token of CRED.bearerRevocable (the test that revokes it makes it an app token of the sandbox first). */
const REVOCABLE_BEARER_TOKEN = 'e2e-revocable app+token=/4';

/** The token of CRED.bearerSecond (a test that uses it registers it as an app token of the sandbox). */
const SECOND_APP_BEARER_TOKEN = 'e2e-second app+token=/2';

function credentials(sandboxUrl, keys) {
	const urls = { baseUrl: sandboxUrl, adsBaseUrl: sandboxUrl };
	return [
		Object.assign({}, CRED.oauth1, {
			data: Object.assign(
				{
					consumerKey: keys.consumerKey,
					consumerSecret: keys.consumerSecret,
					accessToken: keys.accessToken,
					accessTokenSecret: keys.accessTokenSecret,
				},
				urls,
			),
		}),
		Object.assign({}, CRED.bearer, {
			data: Object.assign(
				{ origin: 'pasted', bearerToken: keys.bearerToken, consumerSecret: keys.consumerSecret },
				urls,
			),
		}),
		Object.assign({}, CRED.bearerRevocable, {
			data: Object.assign(
				{
					origin: 'pasted',
					bearerToken: REVOCABLE_BEARER_TOKEN,
					consumerSecret: keys.consumerSecret,
				},
				urls,
			),
		}),
		Object.assign({}, CRED.bearerSecond, {
			data: Object.assign(
				{
					origin: 'pasted',
					bearerToken: SECOND_APP_BEARER_TOKEN,
					consumerSecret: keys.consumerSecret,
				},
				urls,
			),
		}),
		Object.assign({}, CRED.bearerMinted, {
			data: Object.assign(
				{ origin: 'minted', consumerKey: keys.consumerKey, consumerSecret: keys.consumerSecret },
				urls,
			),
		}),
		Object.assign({}, CRED.oauth2, {
			data: Object.assign(
				{
					clientId: 'sandbox-client-id',
					clientSecret: 'sandbox-client-secret',
					webUrl: sandboxUrl,
					grantType: 'pkce',
					scope: 'tweet.read tweet.write users.read media.write offline.access',
					authentication: 'header',
					oauthTokenData: {
						token_type: 'bearer',
						access_token: keys.oauth2UserToken,
						scope: 'tweet.read tweet.write users.read media.write offline.access',
					},
				},
				urls,
			),
		}),
		Object.assign({}, CRED.connect, {
			data: Object.assign(
				{
					consumerKey: keys.consumerKey,
					consumerSecret: keys.consumerSecret,
					signatureMethod: 'HMAC-SHA1',
					oauthTokenData: {
						oauth_token: keys.accessToken,
						oauth_token_secret: keys.accessTokenSecret,
						user_id: keys.userId,
						screen_name: keys.username,
					},
				},
				urls,
			),
		}),
	];
}

/** n8n's own credentials the benchmark's comparison workflows use (imported by the benchmarks only). */
function benchCredentials(sandboxUrl, keys) {
	return [
		Object.assign({}, CRED.crypto, { data: { hmacSecret: keys.consumerSecret } }),
		Object.assign({}, CRED.n8nOAuth1, {
			data: {
				consumerKey: keys.consumerKey,
				consumerSecret: keys.consumerSecret,
				signatureMethod: 'HMAC-SHA1',
				authUrl: `${sandboxUrl}/oauth/authorize`,
				accessTokenUrl: `${sandboxUrl}/oauth/access_token`,
				requestTokenUrl: `${sandboxUrl}/oauth/request_token`,
				oauthTokenData: {
					oauth_token: keys.accessToken,
					oauth_token_secret: keys.accessTokenSecret,
				},
			},
		}),
	];
}

/** CRED.openAiStub pointing at a running OpenAI-compatible stub (its origin, `stubUrl`). */
function openAiStubCredential(stubUrl) {
	return Object.assign({}, CRED.openAiStub, {
		data: { apiKey: 'stub-key', url: `${stubUrl}/v1`, header: false },
	});
}

const credRef = (c) => ({ [c.type]: { id: c.id, name: c.name } });

/** Deterministic UUID from a string (webhook ids must stay the same across imports). */
function uuidFrom(text) {
	const h = crypto.createHash('sha1').update(text).digest('hex');
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function node(name, type, typeVersion, parameters, position, extra = {}) {
	return Object.assign(
		{
			id: uuidFrom(`${name}:${type}:${JSON.stringify(position)}`),
			name,
			type,
			typeVersion,
			position,
			parameters,
		},
		extra,
	);
}

/** Connects nodes in a chain: chain(['A','B','C']). */
function chain(names) {
	const connections = {};
	for (let i = 0; i < names.length - 1; i++)
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	return connections;
}

function workflow(id, name, nodes, connections, extra = {}) {
	return Object.assign(
		{
			id,
			name,
			active: false,
			nodes,
			connections,
			settings: {
				executionOrder: 'v1',
				saveDataSuccessExecution: 'all',
				saveManualExecutions: true,
			},
			pinData: {},
			tags: [],
		},
		extra,
	);
}

/** A Webhook node that answers with the last node's items (e2e drives workflows through it). */
function webhookStart(path, method = 'POST') {
	return node(
		'Start',
		'n8n-nodes-base.webhook',
		2,
		{ httpMethod: method, path, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
		[0, 0],
		{ webhookId: uuidFrom(`webhook:${path}`) },
	);
}

/**
 * The workflow the trigger tests and benches share: Platform Trigger (subscribed to `userId`'s posts,
 * at `webhookId`) → an HTTP Request node recording each run in the sandbox sink `sink`.
 */
function triggerToSink(
	id,
	name,
	{ userId, webhookId, description, sandboxUrl, sink, typeVersion },
) {
	return workflow(
		id,
		name,
		[
			triggerNode('Platform Trigger', [0, 0], { userId, webhookId, description, typeVersion }),
			sinkNode('Record Run', sandboxUrl, sink, [300, 0]),
		],
		chain(['Platform Trigger', 'Record Run']),
	);
}

/** An HTTP Request node that POSTs the incoming item to a sandbox sink (one call per item = per run). */
function sinkNode(name, sandboxUrl, sink, position) {
	return node(
		name,
		'n8n-nodes-base.httpRequest',
		4.2,
		{
			method: 'POST',
			url: `${sandboxUrl}/_sandbox/sink/${sink}`,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: '={{ JSON.stringify($json) }}',
			options: {},
		},
		position,
	);
}

/**
 * The Platform Trigger node, subscribed to post.create of one user, with the app bearer credential.
 * (Parameter names follow nodes/triggers/webhook; see its description.)
 */
function triggerNode(
	name,
	position,
	{ userId, events = ['post.create'], extra = {}, webhookId, description, typeVersion = 1 } = {},
) {
	const parameters = description
		? triggerParameters(description, { userId, events })
		: { events, userId, options: {} };
	return node(name, T.trigger, typeVersion, Object.assign(parameters, extra), position, {
		webhookId: webhookId || uuidFrom(`trigger:${name}:${JSON.stringify(position)}`),
		credentials: credRef(CRED.bearer),
	});
}

/**
 * Trigger parameters read from the node's own description: the multi-select that offers post.create,
 * the user filter (string or resource locator), the app-only bearer authentication when there is a
 * choice. Keeps the e2e suite independent of the exact parameter names.
 */
function triggerParameters(description, { userId, events }) {
	const props = description.properties || [];
	const params = {};
	const auth = props.find((p) => p.name === 'authentication');
	if (auth && (auth.options || []).some((o) => o.value === 'platformBearerApi'))
		params.authentication = 'platformBearerApi';
	const eventProp = props.find(
		(p) =>
			(p.type === 'multiOptions' || p.type === 'options') &&
			(p.options || []).some((o) => o.value === 'post.create'),
	);
	if (eventProp) params[eventProp.name] = eventProp.type === 'multiOptions' ? events : events[0];
	const userProp = props.find(
		(p) => /user/i.test(p.name) && ['string', 'resourceLocator'].includes(p.type),
	);
	if (userProp) {
		if (userProp.type === 'resourceLocator') {
			const modes = (userProp.modes || []).map((m) => m.name);
			const mode = modes.includes('id') ? 'id' : modes[0];
			params[userProp.name] = { __rl: true, mode, value: userId };
		} else params[userProp.name] = userId;
	}
	return params;
}

/** The event id of a trigger output item (or of a raw envelope). */
function eventIdOf(item) {
	if (!item || typeof item !== 'object') return undefined;
	return item.event_id ?? item.event_uuid ?? (item.data && item.data.event_uuid);
}

const BENCH_PLAIN_PATH = 'bench-plain-webhook';
/**
 * The two benchmark workflows: the same tail on both sides (an HTTP Request to a sandbox sink), so that
 * the benchmark can count finished runs, not only accepted deliveries.
 */
/**
 * The Platform Trigger version the benchmarks save: BENCH_TRIGGER_VERSION, else the node's default
 * version, what a new workflow (and the shipped example) gets. n8n 2.40 evaluates an expression (the
 * old Webhook node's binaryData option) for every webhook call whose start node is at version 1,
 * whatever its type: with lazy acquire that is an expression isolate per call, about 30 ms of CPU.
 * BENCH_TRIGGER_VERSION=1 measures a workflow saved with the first version.
 */
function benchTriggerVersion(description) {
	const chosen = Number(process.env.BENCH_TRIGGER_VERSION);
	if (chosen) return chosen;
	return (description && description.defaultVersion) || 1;
}

function benchTriggerWorkflow(description, sandboxUrl) {
	return workflow(
		'benchTriggerFlow',
		'bench platform trigger',
		[
			triggerNode('Platform Trigger', [0, 0], {
				userId: '1000000001',
				description,
				typeVersion: benchTriggerVersion(description),
			}),
			sinkNode('Done', sandboxUrl, 'bench-trigger', [300, 0]),
		],
		chain(['Platform Trigger', 'Done']),
	);
}
function benchPlainWorkflow(sandboxUrl) {
	return workflow(
		'benchPlainFlow01',
		'bench plain webhook',
		[
			node(
				'Webhook',
				'n8n-nodes-base.webhook',
				2,
				{ httpMethod: 'POST', path: BENCH_PLAIN_PATH, responseMode: 'onReceived', options: {} },
				[0, 0],
				{ webhookId: uuidFrom('bench-plain') },
			),
			sinkNode('Done', sandboxUrl, 'bench-plain', [300, 0]),
		],
		chain(['Webhook', 'Done']),
	);
}

const BENCH_ISOLATE_PATH = 'bench-isolate-webhook';
/**
 * n8n's own Webhook node on n8n's isolate path: typeVersion 1 makes n8n acquire an expression isolate
 * for every call, as it does for any community webhook node. The floor for the Platform Trigger.
 */
function benchIsolateWorkflow(sandboxUrl) {
	return workflow(
		'benchIsolateFlow',
		'bench webhook on the isolate path',
		[
			node(
				'Webhook',
				'n8n-nodes-base.webhook',
				1,
				{ httpMethod: 'POST', path: BENCH_ISOLATE_PATH, responseMode: 'onReceived', options: {} },
				[0, 0],
				{ webhookId: uuidFrom('bench-isolate') },
			),
			sinkNode('Done', sandboxUrl, 'bench-isolate', [300, 0]),
			// A GET on the same path, answered on receipt: no CRC answer, but n8n's own latency floor for a
			// GET on the isolate path, beside the CRC rows.
			node(
				'GET Webhook',
				'n8n-nodes-base.webhook',
				1,
				{ httpMethod: 'GET', path: BENCH_ISOLATE_PATH, responseMode: 'onReceived', options: {} },
				[0, 300],
				{ webhookId: uuidFrom('bench-isolate-get') },
			),
		],
		chain(['Webhook', 'Done']),
	);
}

const BENCH_DIY_PATH = 'bench-diy-webhook';
/**
 * What a user builds without the Platform Trigger. POST: Webhook (raw body kept as binary) -> Crypto
 * HMAC-SHA256 of the raw bytes with the consumer secret, base64 -> IF "sha256=<hmac>" equals the
 * signature header -> the same sink as the other sides (a forged delivery still runs the workflow and
 * stops at the IF: its false output is not connected). GET on the same path: Webhook -> Crypto HMAC of
 * crc_token -> Respond to Webhook with {"response_token": "sha256=<hmac>"}.
 */
function benchDiyWorkflow(sandboxUrl) {
	const hmac = (name, position, extra) =>
		node(
			name,
			'n8n-nodes-base.crypto',
			2,
			Object.assign({ action: 'hmac', type: 'SHA256', encoding: 'base64' }, extra),
			position,
			{ credentials: credRef(CRED.crypto) },
		);
	const nodes = [
		node(
			'Webhook',
			'n8n-nodes-base.webhook',
			2,
			{
				httpMethod: 'POST',
				path: BENCH_DIY_PATH,
				responseMode: 'onReceived',
				options: { rawBody: true },
			},
			[0, 0],
			{ webhookId: uuidFrom('bench-diy-post') },
		),
		hmac('HMAC of Raw Body', [250, 0], {
			binaryData: true,
			binaryPropertyName: 'data',
			dataPropertyName: 'expected_signature',
		}),
		node(
			'Signature Matches',
			'n8n-nodes-base.if',
			2.2,
			{
				conditions: {
					combinator: 'and',
					options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
					conditions: [
						{
							id: uuidFrom('bench-diy-if'),
							leftValue: "={{ 'sha256=' + $json.expected_signature }}",
							rightValue: "={{ $json.headers['x-platform-webhooks-signature'] }}",
							operator: { type: 'string', operation: 'equals' },
						},
					],
				},
				options: {},
			},
			[500, 0],
		),
		sinkNode('Done', sandboxUrl, 'bench-diy', [750, 0]),
		node(
			'CRC Webhook',
			'n8n-nodes-base.webhook',
			2,
			{ httpMethod: 'GET', path: BENCH_DIY_PATH, responseMode: 'responseNode', options: {} },
			[0, 300],
			{ webhookId: uuidFrom('bench-diy-get') },
		),
		hmac('HMAC of CRC Token', [250, 300], {
			binaryData: false,
			value: '={{ $json.query.crc_token }}',
			dataPropertyName: 'token_hmac',
		}),
		node(
			'Answer CRC',
			'n8n-nodes-base.respondToWebhook',
			1.1,
			{
				respondWith: 'json',
				responseBody: "={{ JSON.stringify({ response_token: 'sha256=' + $json.token_hmac }) }}",
				options: {},
			},
			[500, 300],
		),
	];
	return workflow(
		'benchDiyFlow0001',
		'bench do-it-yourself webhook (Crypto + IF)',
		nodes,
		Object.assign(
			chain(['Webhook', 'HMAC of Raw Body', 'Signature Matches', 'Done']),
			chain(['CRC Webhook', 'HMAC of CRC Token', 'Answer CRC']),
		),
	);
}

/**
 * Catalog benchmark workflows, started by a Webhook that answers when the last node is done (so the
 * call's duration is the run's wall time). The body says how many products and which catalog:
 * {count, catalogId}. A Code node generates the products (the same ones on every side); `tail` is the
 * node under test: Ads Catalog push, an HTTP Request per product, or No Operation.
 */
const BENCH_CATALOG_CODE = [
	"const { count } = $('Start').first().json.body;",
	'const out = new Array(count);',
	"for (let i = 0; i < count; i++) out[i] = { json: { id: 'sku-' + i, title: 'Benchmark product ' + i, description: 'Product number ' + i + ', plain text.', availability: 'in stock', condition: 'new', price: (10 + (i % 90)) + '.50 USD', link: 'https://shop.example/p/' + i, image_link: 'https://shop.example/p/' + i + '.png', brand: 'Acme', inventory: 5 } };",
	'return out;',
].join('\n');
function benchCatalogWorkflow(kind, sandboxUrl) {
	const catalogId = "={{ $('Start').first().json.body.catalogId }}";
	// push: the node's current version (2: the pace follows the service's rate-limit headers);
	// push1: version 1 as saved workflows have it (4 batches at once).
	const pushNode = (typeVersion) =>
		node(
			'Push Products',
			T.catalog,
			typeVersion,
			{
				authentication: 'platformOAuth1Api',
				resource: 'product',
				operation: 'push',
				catalogId: { __rl: true, mode: 'id', value: catalogId },
				mapping: 'auto',
				options: { onError: 'continue' },
			},
			[500, 0],
			{ credentials: credRef(CRED.oauth1) },
		);
	const tails = {
		push: () => pushNode(2),
		push1: () => pushNode(1),
		// One PUT per product, signed by n8n's own OAuth1 credential (a user without this package has no
		// other), with the node's default batching (none: every item's request at once).
		http: () =>
			node(
				'PUT One Product',
				'n8n-nodes-base.httpRequest',
				4.2,
				{
					method: 'PUT',
					url: `=${sandboxUrl}/12/product_catalogs/{{ $('Start').first().json.body.catalogId }}/products`,
					authentication: 'genericCredentialType',
					genericAuthType: 'oAuth1Api',
					sendBody: true,
					specifyBody: 'json',
					jsonBody: '={{ JSON.stringify({ products: [$json] }) }}',
					options: {},
				},
				[500, 0],
				{ credentials: credRef(CRED.n8nOAuth1) },
			),
		noop: () => node('No Operation', 'n8n-nodes-base.noOp', 1, {}, [500, 0]),
	};
	const ids = {
		push: 'benchCatPush0001',
		push1: 'benchCatPush0v01',
		http: 'benchCatHttp0001',
		noop: 'benchCatNoop0001',
	};
	return workflow(
		ids[kind],
		`bench catalog ${kind}`,
		[
			node(
				'Start',
				'n8n-nodes-base.webhook',
				2,
				{
					httpMethod: 'POST',
					path: `bench-catalog-${kind}`,
					responseMode: 'lastNode',
					responseData: 'noData',
					options: {},
				},
				[0, 0],
				{ webhookId: uuidFrom(`bench-catalog-${kind}`) },
			),
			node('Generate Products', 'n8n-nodes-base.code', 2, { jsCode: BENCH_CATALOG_CODE }, [250, 0]),
			tails[kind](),
		],
		chain(['Start', 'Generate Products', tails[kind]().name]),
		{
			settings: {
				executionOrder: 'v1',
				saveDataSuccessExecution: 'none',
				saveDataErrorExecution: 'all',
				saveManualExecutions: false,
			},
		},
	);
}

/** The description of a node of the installed package (null when the node is not in it). */
/** Folder of a node whose folder name differs from its class (the webhook trigger's name pairs it with Platform Posts). */
function describeInstalled(pkgDir, nodeName) {
	const cls = nodeName.charAt(0).toUpperCase() + nodeName.slice(1);
	try {
		const mod = require(path.join(pkgDir, 'dist', 'nodes', cls, `${cls}.node.js`));
		return new mod[cls]().description;
	} catch {
		return null;
	}
}

function loadExamples(dir) {
	if (!fs.existsSync(dir)) return [];
	return fs
		.readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((f) => Object.assign({ file: f }, JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))));
}

/**
 * What `npm start` and the e2e suite set in the examples to run them against the sandbox at
 * `sandboxUrl`, and nothing else: examples/*.json ship what a builder imports (no sandbox address, no
 * made-up id; the first sticky note names what to set). Per file, per node name, per parameter (a
 * dotted path): the sandbox's value. test/examples/examples.test.ts holds that every one names a
 * parameter its example has, and that nothing outside them points at a sandbox or a made-up id.
 */
function exampleOverrides(sandboxUrl) {
	const { DEFAULT_KEYS } = require('../../sandbox/server');
	const user = DEFAULT_KEYS.userId;
	const adAccount = { __rl: true, mode: 'id', value: DEFAULT_KEYS.adsAccountId };
	return {
		'activity-stream-to-team-chat.json': {
			'New Post (Activity Stream)': { user },
			'Post to Team Chat': { url: `${sandboxUrl}/_sandbox/sink/team-chat` },
		},
		'new-post-to-scheduled-ad-post.json': {
			'Platform Trigger': { user },
			'Create Website Card': { accountId: adAccount },
			'Schedule Ad Post With Card': { accountId: adAccount },
			'Schedule Text Ad Post': { accountId: adAccount },
		},
		'post-with-image.json': {
			'Download Image': { url: `${sandboxUrl}/_sandbox/sample.png` },
		},
		'search-to-data-table.json': {
			'New Search Match': { query: 'autumn sale' },
		},
	};
}

/** Sets `value` at the dotted `dotted` path of `obj`; throws when the path's parent is missing. */
function setPath(obj, dotted, value) {
	const keys = dotted.split('.');
	let at = obj;
	for (const k of keys.slice(0, -1)) {
		if (!at || typeof at[k] !== 'object') throw new Error(`no parameter ${dotted}`);
		at = at[k];
	}
	at[keys[keys.length - 1]] = value;
}

/**
 * The example workflows (examples/*.json) as `npm start` imports them: exampleOverrides applied. Each
 * copy's file name stays readable as `file`, but not enumerable, so the copy is a workflow n8n
 * imports as is (JSON.stringify leaves `file` out).
 */
function sandboxExamples(sandboxUrl) {
	const overrides = exampleOverrides(sandboxUrl);
	return loadExamples(path.join(__dirname, '..', '..', 'examples')).map((wf) => {
		const copy = JSON.parse(JSON.stringify(wf));
		delete copy.file;
		for (const [nodeName, params] of Object.entries(overrides[wf.file] || {})) {
			const n = copy.nodes.find((x) => x.name === nodeName);
			if (!n) throw new Error(`${wf.file}: no node "${nodeName}" to point at the sandbox`);
			for (const [param, value] of Object.entries(params)) setPath(n.parameters, param, value);
		}
		return Object.defineProperty(copy, 'file', { value: wf.file, enumerable: false });
	});
}

/** One example of sandboxExamples by workflow id (undefined when examples/ has none). */
function sandboxExample(sandboxUrl, id) {
	return sandboxExamples(sandboxUrl).find((wf) => wf.id === id);
}

/**
 * Poll Times of every 10 seconds (six custom cron times, at seconds 5, 15, ... 55 of each minute): the
 * Poll Trigger tests see several polls a minute instead of one.
 */
/** n8n's durable poll scheduler with durable cursors: the four settings, all on (docs/production.md). */
const SCHEDULER_ENV = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
};

const EVERY_10_S = {
	item: [5, 15, 25, 35, 45, 55].map((s) => ({ mode: 'custom', cronExpression: `${s} * * * * *` })),
};

/**
 * The Platform Poll Trigger with the app bearer credential, polling every 10 s unless `parameters`
 * set Poll Times; `typeVersion` 1.2 (the default a new workflow gets) unless told.
 */
/** An Activity Stream Trigger node (version 1) on the sandbox's app-only bearer credential. */
function streamTriggerNode(
	parameters,
	{ name = 'Activity Stream Trigger', position = [0, 0], credential = CRED.bearer } = {},
) {
	return node(name, `${PKG}.platformPostTriggers`, 1, parameters, position, {
		credentials: credRef(credential),
	});
}

function pollTriggerNode(parameters, { typeVersion = 1.2, position = [0, 0] } = {}) {
	return node(
		'Platform Poll Trigger',
		`${PKG}.platformPostsTrigger`,
		typeVersion,
		{
			authentication: 'platformBearerApi',
			maxItems: 100,
			options: {},
			pollTimes: EVERY_10_S,
			...parameters,
		},
		position,
		{ credentials: credRef(CRED.bearer) },
	);
}

module.exports = {
	PKG,
	EVERY_10_S,
	SCHEDULER_ENV,
	pollTriggerNode,
	streamTriggerNode,
	T,
	CRED,
	REVOCABLE_BEARER_TOKEN,
	SECOND_APP_BEARER_TOKEN,
	credentials,
	benchCredentials,
	openAiStubCredential,
	credRef,
	uuidFrom,
	node,
	chain,
	workflow,
	webhookStart,
	sinkNode,
	triggerToSink,
	triggerNode,
	triggerParameters,
	eventIdOf,
	BENCH_PLAIN_PATH,
	benchTriggerVersion,
	benchTriggerWorkflow,
	benchPlainWorkflow,
	BENCH_ISOLATE_PATH,
	benchIsolateWorkflow,
	BENCH_DIY_PATH,
	benchDiyWorkflow,
	benchCatalogWorkflow,
	describeInstalled,
	loadExamples,
	sandboxExamples,
	exampleOverrides,
	sandboxExample,
};
