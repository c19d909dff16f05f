'use strict';
/**
 * A stand-in webhook process for the proxy recipes' tests: an HTTP server on a free loopback port that
 * answers every call 200 `{"ok":true,"by":<name>}` (after `state.delayMs`, a delivery waiting for
 * n8n) and records each call's method, URL, body, size and SHA-256.
 */
const crypto = require('node:crypto');
const http = require('node:http');

const H = require('./host');

async function standIn(name = '') {
	const port = await H.freePort();
	const calls = [];
	const state = { delayMs: 0 };
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', async () => {
			const body = Buffer.concat(chunks);
			calls.push({
				method: req.method,
				url: req.url,
				body: body.toString('utf8'),
				bytes: body.length,
				sha: crypto.createHash('sha256').update(body).digest('hex'),
			});
			if (state.delayMs) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
			res.setHeader('content-type', 'application/json');
			res.end(JSON.stringify({ ok: true, by: name }));
		});
	});
	await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
	return {
		name,
		address: `127.0.0.1:${port}`,
		calls,
		state,
		// nginx keeps idle connections to its upstreams: drop them, or close() would wait for them.
		close: () =>
			new Promise((resolve) => {
				server.close(resolve);
				server.closeAllConnections();
			}),
	};
}

module.exports = { standIn };
