'use strict';
// Test-only helpers of the conformance test that need what TypeScript tests may not use under the
// node lint rules (a local HTTP server, files, the console, the environment).
const fs = require('node:fs');
const http = require('node:http');
const crypto = require('node:crypto');

const contract = require('../../scripts/contract');

/**
 * A local URL that answers the sandbox's CRC checks, as n8n's webhook does, so that webhook
 * registration succeeds and what follows it (subscriptions, rules) is driven too.
 */
async function startCrcResponder(secret) {
	const server = http.createServer((req, res) => {
		const token = new URL(req.url || '/', 'http://x').searchParams.get('crc_token') || '';
		const digest = crypto.createHmac('sha256', secret()).update(token).digest('base64');
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ response_token: `sha256=${digest}` }));
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}/webhook/conformance`,
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

/** Prints the run's figures; CONFORMANCE_REPORT=FILE also writes every case as JSON. */
function report(summary, results) {
	console.log(summary);
	if (process.env.CONFORMANCE_REPORT)
		fs.writeFileSync(process.env.CONFORMANCE_REPORT, JSON.stringify(results, null, 1));
}

/** The committed rule table's text. */
function committedRules() {
	return fs.readFileSync(contract.RULES, 'utf8');
}

/** The service's document where the team keeps it, or undefined where it is not (outside our machines). */
function localDocument() {
	const location = contract.documentLocation([]);
	return fs.existsSync(location) ? fs.readFileSync(location, 'utf8') : undefined;
}

/** Answers generated per operation by the answers property test: ANSWERS_RUNS, 50 unless set. */
function answersRuns() {
	const runs = Number(process.env.ANSWERS_RUNS);
	return Number.isInteger(runs) && runs > 0 ? runs : 50;
}

/**
 * The answers property's seed: ANSWERS_SEED when set (a number replays a run fast-check printed;
 * `random` draws a new one, for a sweep), otherwise a fixed seed, so that a run of the suite is
 * repeatable and a failure in CI is the same failure on a maintainer's machine.
 */
function answersSeed() {
	const raw = process.env.ANSWERS_SEED;
	if (raw === 'random') return Math.floor(Math.random() * 2 ** 31);
	const seed = Number(raw);
	return raw !== undefined && raw !== '' && Number.isInteger(seed) ? seed : 20261129;
}

module.exports = {
	startCrcResponder,
	report,
	committedRules,
	localDocument,
	answersRuns,
	answersSeed,
};
