'use strict';
// Test-only helpers that read the repository's files and evaluate a subtitle expression (kept out of
// the TypeScript tests, which follow the rules of node code).
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

function readText(rel) {
	return fs.readFileSync(path.join(ROOT, rel), 'utf8');
}

/** Files below a folder of the repository, relative to it, sorted; [] when it does not exist. */
function listFiles(rel) {
	const base = path.join(ROOT, rel);
	if (!fs.existsSync(base)) return [];
	const out = [];
	const walk = (d) => {
		for (const e of fs.readdirSync(d, { withFileTypes: true })) {
			if (e.isDirectory()) walk(path.join(d, e.name));
			else out.push(path.relative(base, path.join(d, e.name)));
		}
	};
	walk(base);
	return out.sort();
}

/** Evaluates a `={{ … }}` subtitle the way the canvas does, with the node's parameters. */
function evalSubtitle(subtitle, parameters) {
	const expression = String(subtitle)
		.replace(/^=\{\{/, '')
		.replace(/\}\}$/, '');
	return String(new Function('$parameter', `return (${expression});`)(parameters));
}

/** Evaluates a `={{ … }}` expression of a workflow node with `$json` set to the item's JSON. */
function evalItemExpression(expression, json) {
	const body = String(expression)
		.replace(/^=\{\{/, '')
		.replace(/\}\}$/, '');
	return new Function('$json', `return (${body});`)(json);
}

module.exports = { readText, listFiles, evalSubtitle, evalItemExpression };
