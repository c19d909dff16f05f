'use strict';
/**
 * Holds one request to the platform API against the rule table (`rules.json`, generated from the
 * service's published contract by scripts/contract.js) plus what the prose adds (`prose.js`). The
 * sandbox refuses with the first violation, the way the service does; the conformance test lists them
 * all. Node only, no dependencies.
 *
 * A request: { method, path, query: [[name, value], ...], contentType, bodyKind ('none' | 'json' |
 * 'form' | 'multipart' | 'raw'), body (the parsed JSON value, the form's object, or the multipart
 * fields as { name: { value } | { filename, data } }), auth: { kind: 'app' | 'oauth2' | 'oauth1' |
 * 'basic' | 'none', scopes?: string[] } }.
 *
 * A violation: { rule, status, message, parameter?, value? }. Rules: 'path' (404), 'method' (405),
 * 'security' (403), 'scope' (403), 'query-unknown', 'query-required', 'query-value', 'path-param',
 * 'content-type', 'body-required', 'body-schema' (all 400).
 *
 * An answer: { method, path, status, contentType, body (the parsed JSON value) }. Its violations:
 * { rule, message } with the rules 'answer-status' (a success status the operation does not declare),
 * 'answer-content-type' (a content type the status does not declare) and 'answer-schema' (the body
 * against the declared schema; an error status is held to the operation's `default` answer).
 */

const baseRules = require('./rules.json');
const prose = require('./prose');

const TEXT_INTEGER = /^-?[0-9]+$/;
const TEXT_NUMBER = /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;
const KIND_LABEL = {
	app: 'OAuth 2.0 Application-Only',
	oauth2: 'OAuth 2.0 User Context',
	oauth1: 'OAuth 1.0a User Context',
};

/** The table with the prose's additions applied (a copy: the generated table stays as generated). */
function withProse(rules) {
	const table = JSON.parse(JSON.stringify(rules));
	for (const [id, op] of Object.entries(prose.operations)) {
		if (table.operations[id]) throw new Error(`prose operation ${id} is in the contract already`);
		const { reason, ...rule } = op;
		table.operations[id] = Object.assign(rule, { prose: reason });
	}
	for (const extra of prose.enumValues) {
		const targets = extra.locateAll ? extra.locateAll(table) : [extra.locate(table)];
		if (!targets.length || targets.some((t) => !t || !Array.isArray(t.enum)))
			throw new Error(`prose enum addition "${extra.reason}" finds no enum in the contract`);
		for (const target of targets)
			for (const value of extra.values) {
				if (target.enum.includes(value) && !extra.locateAll)
					throw new Error(`prose enum value ${value} is in the contract already`);
				if (!target.enum.includes(value)) target.enum.push(value);
			}
	}
	for (const extra of prose.properties) {
		const target = extra.locate(table);
		if (!target || !target.properties)
			throw new Error(`prose property addition "${extra.reason}" finds no object in the contract`);
		Object.assign(target.properties, extra.properties);
	}
	for (const extra of prose.queryParameters) {
		const op = table.operations[extra.operation];
		if (!op) throw new Error(`prose query parameter for unknown operation ${extra.operation}`);
		op.query = Object.assign({}, op.query, extra.parameters);
	}
	return table;
}

function compileMatchers(table) {
	const list = Object.entries(table.operations).map(([id, op]) => {
		const names = [];
		const source = op.path
			.split('/')
			.map((segment) =>
				segment.replace(/[.*+?^${}()|[\]\\]/g, (c) => (c === '{' || c === '}' ? c : '\\' + c)),
			)
			.join('/')
			.replace(/\{([^}]+)\}/g, (_, name) => {
				names.push(name);
				return '([^/]+)';
			});
		return { id, op, names, re: new RegExp(`^${source}$`), params: names.length };
	});
	// A literal segment wins over a parameter: /2/users/me before /2/users/{id}.
	list.sort((a, b) => a.params - b.params);
	return list;
}

function createChecker(rules = baseRules) {
	const table = withProse(rules);
	const matchers = compileMatchers(table);

	function resolve(schema) {
		let s = schema;
		for (let depth = 0; s && s.$ref; depth++) {
			if (depth > 20) throw new Error('$ref loop');
			s = table.schemas[s.$ref];
		}
		return s || {};
	}

	/**
	 * Errors of `value` against `schema`, as messages naming `where`. `text`: the value arrived as
	 * text (a query or multipart field), so a number or boolean is read from its spelling.
	 */
	function validate(value, schema, where, text, errors) {
		const s = resolve(schema);
		if (s.allOf) for (const part of s.allOf) validate(value, part, where, text, errors);
		if (s.discriminator) discriminate(value, s.discriminator, where, text, errors);
		for (const key of ['oneOf', 'anyOf']) {
			if (!s[key]) continue;
			// oneOf is held as anyOf: a text value such as "0" fits both the number and the string
			// alternative of the contract's segment index, which the service accepts.
			const fits = s[key].some((alt) => {
				const sub = [];
				validate(value, alt, where, text, sub);
				return sub.length === 0;
			});
			if (!fits) errors.push(`${where}: fits none of the allowed shapes`);
		}
		if (value === null) {
			if (!s.nullable && s.type) errors.push(`${where}: must not be null`);
			return;
		}
		const type = s.type || (s.properties || s.required ? 'object' : undefined);
		if (type === 'object') {
			if (typeof value !== 'object' || Array.isArray(value)) {
				errors.push(`${where}: must be an object`);
				return;
			}
			for (const name of s.required || [])
				if (value[name] === undefined) errors.push(`${where}.${name}: is required`);
			const props = s.properties || {};
			for (const [name, v] of Object.entries(value)) {
				if (v === undefined) continue;
				if (props[name]) validate(v, props[name], `${where}.${name}`, text, errors);
				else if (s.additionalProperties === false)
					errors.push(`${where}.${name}: is not a known field`);
				else if (s.additionalProperties && typeof s.additionalProperties === 'object')
					validate(v, s.additionalProperties, `${where}.${name}`, text, errors);
			}
			const count = Object.values(value).filter((v) => v !== undefined).length;
			if (s.minProperties !== undefined && count < s.minProperties)
				errors.push(`${where}: needs at least ${s.minProperties} fields`);
			return;
		}
		if (type === 'array') {
			if (!Array.isArray(value)) {
				errors.push(`${where}: must be an array`);
				return;
			}
			if (s.minItems !== undefined && value.length < s.minItems)
				errors.push(`${where}: needs at least ${s.minItems} item(s), got ${value.length}`);
			if (s.maxItems !== undefined && value.length > s.maxItems)
				errors.push(`${where}: takes at most ${s.maxItems} item(s), got ${value.length}`);
			if (s.uniqueItems && new Set(value.map((v) => JSON.stringify(v))).size !== value.length)
				errors.push(`${where}: items must be unique`);
			if (s.items) value.forEach((v, i) => validate(v, s.items, `${where}[${i}]`, text, errors));
			return;
		}
		let v = value;
		if (type === 'integer' || type === 'number') {
			if (text && typeof v === 'string') {
				if (!(type === 'integer' ? TEXT_INTEGER : TEXT_NUMBER).test(v)) {
					errors.push(`${where}: must be ${type === 'integer' ? 'an integer' : 'a number'}`);
					return;
				}
				v = Number(v);
			}
			if (typeof v !== 'number' || (type === 'integer' && !Number.isInteger(v))) {
				errors.push(`${where}: must be ${type === 'integer' ? 'an integer' : 'a number'}`);
				return;
			}
			if (s.minimum !== undefined && v < s.minimum)
				errors.push(`${where}: must be at least ${s.minimum}`);
			if (s.maximum !== undefined && v > s.maximum)
				errors.push(`${where}: must be at most ${s.maximum}`);
		} else if (type === 'boolean') {
			if (text && (v === 'true' || v === 'false')) v = v === 'true';
			if (typeof v !== 'boolean') {
				errors.push(`${where}: must be true or false`);
				return;
			}
		} else if (type === 'string') {
			if (typeof v !== 'string') {
				errors.push(`${where}: must be a string`);
				return;
			}
			if (s.minLength !== undefined && [...v].length < s.minLength)
				errors.push(`${where}: must be at least ${s.minLength} characters`);
			if (s.maxLength !== undefined && [...v].length > s.maxLength)
				errors.push(`${where}: must be at most ${s.maxLength} characters`);
			if (s.pattern && !pattern(s.pattern).test(v))
				errors.push(`${where}: ${JSON.stringify(v)} does not match ${s.pattern}`);
			if (s.format === 'date-time' && !DATE_TIME.test(v))
				errors.push(`${where}: ${JSON.stringify(v)} is not an RFC 3339 date-time`);
		}
		if (s.enum && !s.enum.some((e) => e === v || (text && String(e) === String(value))))
			errors.push(`${where}: ${JSON.stringify(value)} is not one of [${s.enum.join(', ')}]`);
	}

	/** Values being held to the schema their discriminator selects (that schema includes the base). */
	const selecting = new Set();
	/**
	 * A discriminator (the Problem's `type`): the value names one of the contract's schemas, and is held
	 * to it; a value the contract does not list is refused.
	 */
	function discriminate(value, discriminator, where, text, errors) {
		if (!value || typeof value !== 'object' || Array.isArray(value) || selecting.has(value)) return;
		const tag = value[discriminator.propertyName];
		if (typeof tag !== 'string') return;
		const target = discriminator.mapping[tag];
		if (!target) {
			errors.push(
				`${where}.${discriminator.propertyName}: ${JSON.stringify(tag)} is not one of the contract's ${Object.keys(discriminator.mapping).length} values`,
			);
			return;
		}
		selecting.add(value);
		try {
			validate(value, { $ref: target }, where, text, errors);
		} finally {
			selecting.delete(value);
		}
	}

	const patterns = new Map();
	function pattern(source) {
		if (!patterns.has(source)) {
			let re;
			try {
				re = new RegExp(source, 'u');
			} catch {
				re = new RegExp(source);
			}
			patterns.set(source, re);
		}
		return patterns.get(source);
	}

	/** The operation a method and path name: { id, op, params } or { pathKnown } when none. */
	function match(method, path) {
		let pathKnown = false;
		for (const m of matchers) {
			const found = m.re.exec(path);
			if (!found) continue;
			pathKnown = true;
			if (m.op.method !== method) continue;
			const params = {};
			m.names.forEach((n, i) => (params[n] = decodeURIComponent(found[i + 1])));
			return { id: m.id, op: m.op, params };
		}
		return { pathKnown };
	}

	/** Every violation of one request (an empty list: it conforms). */
	function check(request) {
		const violations = [];
		const add = (rule, status, message, parameter, value) =>
			violations.push(
				parameter ? { rule, status, message, parameter, value } : { rule, status, message },
			);
		const found = match(request.method, request.path);
		if (!found.op) {
			if (found.pathKnown)
				add('method', 405, `${request.method} is not allowed on ${request.path}`);
			else add('path', 404, `the contract has no ${request.path}`);
			return { operation: undefined, violations };
		}
		const { op, params } = found;

		const auth = request.auth || { kind: 'none' };
		const accepted = Object.keys(op.auth);
		if (accepted.length && !op.auth[auth.kind]) {
			add(
				'security',
				403,
				`Authenticating with ${KIND_LABEL[auth.kind] || auth.kind} is forbidden for this endpoint.  Supported authentication types are [${accepted.map((k) => KIND_LABEL[k]).join(', ')}].`,
			);
		} else if (auth.kind === 'oauth2' && Array.isArray(op.auth.oauth2) && auth.scopes) {
			const missing = op.auth.oauth2.filter((s) => !auth.scopes.includes(s));
			if (missing.length)
				add(
					'scope',
					403,
					`The token lacks the scope(s) this endpoint needs: ${missing.join(', ')}`,
				);
		}

		for (const [name, rule] of Object.entries(op.pathParams || {})) {
			const errors = [];
			validate(params[name], rule.schema, name, true, errors);
			for (const e of errors) add('path-param', 400, e, name, params[name]);
		}

		const values = new Map();
		for (const [name, value] of request.query || []) {
			if (!values.has(name)) values.set(name, []);
			values.get(name).push(value);
		}
		const known = op.query || {};
		for (const [name, list] of values) {
			const rule = known[name];
			if (!rule) {
				add(
					'query-unknown',
					400,
					`The query parameter [${name}] is not one of [${Object.keys(known).join(',')}]`,
					name,
					list.join(','),
				);
				continue;
			}
			const schema = resolve(rule.schema);
			let value;
			if (schema.type === 'array')
				value = rule.commaSeparated ? list.flatMap((v) => v.split(',')) : list;
			else if (list.length > 1) {
				add('query-value', 400, `${name}: given ${list.length} times`, name, list.join(','));
				continue;
			} else value = list[0];
			const errors = [];
			validate(value, rule.schema, name, true, errors);
			for (const e of errors) add('query-value', 400, e, name, list.join(','));
		}
		for (const [name, rule] of Object.entries(known))
			if (rule.required && !values.has(name))
				add('query-required', 400, `The \`${name}\` query parameter can not be empty`, name);

		const kind = request.bodyKind || 'none';
		if (op.body) {
			if (kind === 'none') {
				if (op.body.required) add('body-required', 400, 'the request needs a body');
			} else {
				const type = String(request.contentType || '')
					.split(';')[0]
					.trim()
					.toLowerCase();
				const schema = op.body.content[type];
				if (!schema) {
					add(
						'content-type',
						400,
						`a ${type || 'body without a content type'} is not accepted: send ${Object.keys(op.body.content).join(' or ')}`,
					);
				} else {
					const errors = [];
					const text = kind === 'multipart' || kind === 'form';
					validate(bodyValue(request), schema, 'body', text, errors);
					for (const e of errors) add('body-schema', 400, e);
				}
			}
		} else if (kind !== 'none') {
			add('content-type', 400, 'this endpoint takes no request body');
		}
		return { operation: found.id, violations };
	}

	/** Every violation of one JSON answer to a `/2/` request (an empty list: it conforms). */
	function checkAnswer(answer) {
		const violations = [];
		const found = match(answer.method, answer.path);
		if (!found.op) return { operation: undefined, violations };
		const responses = found.op.responses || {};
		const status = String(answer.status);
		let declared = responses[status];
		if (!declared && answer.status >= 400) declared = responses.default;
		if (!declared) {
			// An operation whose contract declares no JSON answer (a file, a stream) is not held.
			if (Object.keys(responses).length)
				violations.push({
					rule: 'answer-status',
					message: `status ${status} is not one the contract declares (${Object.keys(responses).join(', ')})`,
				});
			return { operation: found.id, violations };
		}
		const type = String(answer.contentType || 'application/json')
			.split(';')[0]
			.trim()
			.toLowerCase();
		const schema = declared[type];
		if (!schema) {
			violations.push({
				rule: 'answer-content-type',
				message: `a ${type} answer is not declared for status ${status}: ${Object.keys(declared).join(' or ')}`,
			});
			return { operation: found.id, violations };
		}
		const errors = [];
		validate(answer.body, schema, 'body', false, errors);
		for (const e of errors) violations.push({ rule: 'answer-schema', message: e });
		return { operation: found.id, violations };
	}

	return { table, match, check, checkAnswer };
}

/** The body as the schema sees it: multipart fields become their text (or the bytes' stand-in). */
function bodyValue(request) {
	if (request.bodyKind !== 'multipart') return request.body;
	const out = {};
	for (const [name, field] of Object.entries(request.body || {}))
		out[name] =
			field.filename !== undefined || field.value === undefined ? '<binary>' : field.value;
	return out;
}

module.exports = { createChecker, withProse };
