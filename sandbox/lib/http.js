'use strict';
/**
 * Small HTTP helpers for the sandbox: body reading, JSON answers, the platform's Problem objects and
 * the advertising interface's CAPS error bodies (the service's published error shapes). Node's http module only.
 */

const RULES = require('../contract/rules.json');

/**
 * The base of the service's Problem `type` URLs, as the contract lists them (its Problem
 * discriminator): the sandbox's error answers name the same types, so a client that compares them
 * sees what the service sends.
 */
const PROBLEM_BASE = (() => {
	const marker = '/2/problems/';
	const listed = Object.keys(RULES.schemas.Problem.discriminator.mapping).find((t) =>
		t.includes(marker),
	);
	return listed.slice(0, listed.indexOf(marker) + marker.length);
})();

class HttpError extends Error {
	constructor(status, body, headers) {
		super(typeof body === 'object' ? JSON.stringify(body) : String(body));
		this.status = status;
		this.body = body;
		this.headers = headers || {};
	}
}

function problem(status, suffix, title, detail, extra) {
	const type = suffix === 'about:blank' ? 'about:blank' : PROBLEM_BASE + suffix;
	const body = { type, title, status };
	if (detail) body.detail = detail;
	Object.assign(body, extra || {});
	return new HttpError(status, body, { 'content-type': 'application/problem+json' });
}

/** `invalid-request` with the `errors[]` list the service sends (message + parameters). */
function invalidRequest(message, parameters, status = 400) {
	return problem(
		status,
		'invalid-request',
		'Invalid Request',
		'One or more parameters to your request was invalid.',
		{
			errors: [{ message, parameters: parameters || {} }],
		},
	);
}

/** The resource types the contract's resource-not-found Problem names. */
const NOT_FOUND_TYPES = RULES.schemas.ResourceNotFoundProblem.allOf
	.map((part) => part.properties && part.properties.resource_type)
	.find(Boolean).enum;

/**
 * A resource that is not there. The contract's resource-not-found Problem names five resource types;
 * for another (a subscription, a direct message, a note ...) the answer is the generic Problem with the
 * same title and detail, which the contract allows for any status.
 */
function notFound(resourceType, parameter, value) {
	const detail = `Could not find ${resourceType} with ${parameter}: [${value}].`;
	if (!NOT_FOUND_TYPES.includes(resourceType))
		return problem(404, 'about:blank', 'Not Found Error', detail);
	return problem(404, 'resource-not-found', 'Not Found Error', detail, {
		resource_type: resourceType,
		parameter,
		value: String(value),
		resource_id: String(value),
	});
}

function legacyError(status, code, message) {
	return new HttpError(status, { errors: [{ code, message }] });
}

/** Advertising interface error: `{errors:[{code, message, parameter?}], request:{params}}`. */
function adsError(status, code, message, parameter, value) {
	const error = { code, message };
	if (parameter) error.parameter = parameter;
	if (value !== undefined) error.value = value;
	return new HttpError(status, { errors: [error], request: { params: {} } });
}

function readBody(req, limit = 64 * 1024 * 1024) {
	return new Promise((resolve, reject) => {
		const chunks = [];
		let size = 0;
		req.on('data', (chunk) => {
			size += chunk.length;
			if (size > limit) {
				reject(
					new HttpError(413, { title: 'Payload Too Large', type: 'about:blank', status: 413 }),
				);
				req.destroy();
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

function send(res, status, body, headers) {
	if (res.headersSent) return;
	const h = Object.assign({}, headers || {});
	let payload = '';
	if (body !== undefined && body !== null) {
		payload = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
		if (!Object.keys(h).some((k) => k.toLowerCase() === 'content-type'))
			h['content-type'] = 'application/json; charset=utf-8';
	}
	h['content-length'] = Buffer.byteLength(payload);
	res.writeHead(status, h);
	res.end(payload);
}

/** Parses the body by content type; `raw` always keeps the bytes. */
function parseBody(raw, contentType) {
	const type = String(contentType || '').toLowerCase();
	if (!raw.length) return { kind: 'none', value: undefined };
	if (type.startsWith('application/json') || type.includes('+json')) {
		try {
			return { kind: 'json', value: JSON.parse(raw.toString('utf8')) };
		} catch {
			throw problem(
				400,
				'invalid-request',
				'Invalid Request',
				'The request body is not valid JSON.',
				{
					errors: [{ message: 'Malformed JSON body', parameters: {} }],
				},
			);
		}
	}
	if (type.startsWith('application/x-www-form-urlencoded')) {
		const params = new URLSearchParams(raw.toString('utf8'));
		const value = {};
		const pairs = [];
		params.forEach((v, k) => {
			pairs.push([k, v]);
			value[k] = k in value ? [].concat(value[k], v) : v;
		});
		return { kind: 'form', value, pairs };
	}
	if (type.startsWith('multipart/form-data')) {
		return { kind: 'multipart', value: require('./multipart').parseMultipart(raw, type) };
	}
	return { kind: 'raw', value: raw };
}

module.exports = {
	HttpError,
	problem,
	invalidRequest,
	notFound,
	legacyError,
	adsError,
	readBody,
	send,
	parseBody,
	PROBLEM_BASE,
};
