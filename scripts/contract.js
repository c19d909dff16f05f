#!/usr/bin/env node
'use strict';
/**
 * Extracts the rules the sandbox enforces for the platform API (`/2/...`) from the service's published
 * OpenAPI document into a compact table, `sandbox/contract/rules.json`: for every operation its method
 * and path, the credential kinds its `security` accepts and the OAuth 2.0 scopes it needs, its path and
 * query parameters (with their schemas: enums, patterns, bounds, comma-separated lists), its request
 * body schemas by content type, and its answers' schemas by status and JSON content type (what the
 * sandbox holds its own answers to). Schemas are kept only where a request or an answer reaches them,
 * without prose (descriptions, examples), and `$ref`s stay references into the table's own `schemas`.
 *
 *   node scripts/contract.js [--from FILE_OR_URL] [--out FILE]   writes the table
 *   node scripts/contract.js --check [--from FILE_OR_URL]         exit 1 when the committed table differs
 *
 * FILE_OR_URL: a copy of the document, or a sandbox/service base URL whose `GET /2/openapi.json`
 * serves it. Without --from, CONTRACT_DOCUMENT is read, then the team's spec folder beside the clone.
 */
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');

const ROOT = path.join(__dirname, '..');
const RULES = path.join(ROOT, 'sandbox', 'contract', 'rules.json');
/** Where the team's machines keep the spec, beside the clone. */
const DEFAULT_DOCUMENT = path.join(ROOT, '..', 'shared', 'spec', 'openapi.json');

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];
/** Schema keywords that constrain a request; everything else (descriptions, examples) is dropped. */
const KEEP = new Set([
	'type',
	'discriminator',
	'enum',
	'const',
	'format',
	'required',
	'properties',
	'additionalProperties',
	'items',
	'minItems',
	'maxItems',
	'uniqueItems',
	'minLength',
	'maxLength',
	'pattern',
	'minimum',
	'maximum',
	'exclusiveMinimum',
	'exclusiveMaximum',
	'minProperties',
	'maxProperties',
	'oneOf',
	'anyOf',
	'allOf',
	'nullable',
]);
/** The answers' content types the table keeps: the JSON ones (a stream or a file is not checked). */
const JSON_TYPE = /^application\/([a-z.+-]+\+)?json$/;
/** The document's security schemes, in the credential kinds the package speaks of. */
const KIND = { BearerToken: 'app', OAuth2UserToken: 'oauth2', UserToken: 'oauth1' };

function refName(ref) {
	const m = /^#\/components\/(schemas|parameters)\/(.+)$/.exec(ref);
	if (!m) throw new Error(`unsupported $ref ${ref}`);
	return { kind: m[1], name: m[2] };
}

/** Compacts a schema; records every schema name it references in `reached`. */
function compact(schema, reached) {
	if (Array.isArray(schema)) return schema.map((s) => compact(s, reached));
	if (!schema || typeof schema !== 'object') return schema;
	if (schema.$ref) {
		const { name } = refName(schema.$ref);
		reached.add(name);
		return { $ref: name };
	}
	const out = {};
	for (const [key, value] of Object.entries(schema)) {
		if (!KEEP.has(key)) continue;
		if (key === 'properties')
			out.properties = Object.fromEntries(
				Object.entries(value).map(([k, v]) => [k, compact(v, reached)]),
			);
		else if (key === 'additionalProperties')
			out.additionalProperties = typeof value === 'object' ? compact(value, reached) : value;
		else if (key === 'items' || key === 'oneOf' || key === 'anyOf' || key === 'allOf')
			out[key] = compact(value, reached);
		else if (key === 'discriminator')
			// Which schema a value of the property selects (the Problem's `type` URLs): by schema name.
			out.discriminator = {
				propertyName: value.propertyName,
				mapping: Object.fromEntries(
					Object.entries(value.mapping || {}).map(([tag, ref]) => {
						const { name } = refName(ref);
						reached.add(name);
						return [tag, name];
					}),
				),
			};
		else out[key] = value;
	}
	return out;
}

function security(op, doc) {
	const list = op.security ?? doc.security ?? [];
	const auth = {};
	for (const entry of list) {
		const names = Object.keys(entry);
		if (names.length !== 1)
			throw new Error(`combined security schemes are not supported: ${names}`);
		const kind = KIND[names[0]];
		if (!kind) throw new Error(`unknown security scheme ${names[0]}`);
		auth[kind] = kind === 'oauth2' ? [...entry[names[0]]].sort() : true;
	}
	return auth;
}

/** The rule table of a document. */
function extract(doc, sourceText) {
	const reached = new Set();
	const operations = {};
	for (const [template, item] of Object.entries(doc.paths)) {
		for (const method of METHODS) {
			const op = item[method];
			if (!op) continue;
			const params = { path: {}, query: {} };
			for (let p of [...(item.parameters || []), ...(op.parameters || [])]) {
				if (p.$ref) p = doc.components.parameters[refName(p.$ref).name];
				if (p.in !== 'path' && p.in !== 'query') continue; // headers and cookies: none constrain
				const rule = { schema: compact(p.schema, reached) };
				if (p.required) rule.required = true;
				// form style without explode: an array travels as one comma-separated value.
				if (p.in === 'query' && p.explode === false) rule.commaSeparated = true;
				params[p.in][p.name] = rule;
			}
			const entry = { method: method.toUpperCase(), path: template, auth: security(op, doc) };
			if (Object.keys(params.path).length) entry.pathParams = params.path;
			if (Object.keys(params.query).length) entry.query = params.query;
			if (op.requestBody) {
				const body = { content: {} };
				if (op.requestBody.required) body.required = true;
				for (const [type, media] of Object.entries(op.requestBody.content || {}))
					body.content[type] = media.schema ? compact(media.schema, reached) : {};
				entry.body = body;
			}
			const responses = {};
			for (const [status, answer] of Object.entries(op.responses || {})) {
				const content = {};
				for (const [type, media] of Object.entries(answer.content || {}))
					if (JSON_TYPE.test(type) && media.schema) content[type] = compact(media.schema, reached);
				if (Object.keys(content).length) responses[status] = content;
			}
			if (Object.keys(responses).length) entry.responses = responses;
			const id = op.operationId || `${entry.method} ${template}`;
			if (operations[id]) throw new Error(`duplicate operationId ${id}`);
			operations[id] = entry;
		}
	}
	// Close over the schemas the requests and answers reach (a referenced schema may reference others).
	const schemas = {};
	const queue = [...reached];
	while (queue.length) {
		const name = queue.pop();
		if (schemas[name]) continue;
		const found = doc.components.schemas[name];
		if (!found) throw new Error(`schema ${name} is referenced but not defined`);
		const more = new Set();
		schemas[name] = compact(found, more);
		for (const m of more) if (!schemas[m]) queue.push(m);
	}
	const sorted = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
	return {
		source: {
			title: doc.info && doc.info.title,
			version: doc.info && doc.info.version,
			sha256: crypto.createHash('sha256').update(sourceText).digest('hex'),
		},
		scopes: Object.keys(
			(doc.components.securitySchemes.OAuth2UserToken || { flows: {} }).flows.authorizationCode
				?.scopes || {},
		).sort(),
		operations: sorted(operations),
		schemas: sorted(schemas),
	};
}

async function readDocument(from) {
	if (/^https?:\/\//.test(from)) {
		const url = from.endsWith('.json') ? from : from.replace(/\/$/, '') + '/2/openapi.json';
		const res = await fetch(url);
		if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
		return await res.text();
	}
	return fs.readFileSync(from, 'utf8');
}

/** The document's location: --from, CONTRACT_DOCUMENT, or the spec folder beside the clone. */
function documentLocation(argv = process.argv.slice(2)) {
	const i = argv.indexOf('--from');
	if (i !== -1) return argv[i + 1];
	return process.env.CONTRACT_DOCUMENT || DEFAULT_DOCUMENT;
}

function render(table) {
	return JSON.stringify(table, null, '\t') + '\n';
}

async function main() {
	const argv = process.argv.slice(2);
	const from = documentLocation(argv);
	const text = await readDocument(from);
	const table = extract(JSON.parse(text), text);
	const outIndex = argv.indexOf('--out');
	const out = outIndex === -1 ? RULES : path.resolve(argv[outIndex + 1]);
	const count = Object.keys(table.operations).length;
	if (argv.includes('--check')) {
		const committed = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
		if (committed !== render(table)) {
			console.error(
				`${path.relative(ROOT, out)} does not match ${from} (version ${table.source.version}): run node scripts/contract.js --from ${from}`,
			);
			process.exit(1);
		}
		console.log(`${path.relative(ROOT, out)} matches ${from}: ${count} operations`);
		return;
	}
	fs.mkdirSync(path.dirname(out), { recursive: true });
	fs.writeFileSync(out, render(table));
	console.log(
		`wrote ${path.relative(ROOT, out)}: ${count} operations, ${Object.keys(table.schemas).length} schemas, from ${table.source.title} ${table.source.version}`,
	);
}

module.exports = { extract, render, readDocument, documentLocation, RULES, DEFAULT_DOCUMENT };

if (require.main === module)
	main().catch((error) => {
		console.error(`contract: ${error.message}`);
		process.exit(1);
	});
