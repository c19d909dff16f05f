'use strict';
/**
 * One results file per benchmark run: every comparison is a Markdown table, printed and appended to
 * bench/results/<date>.md (git-ignored). bench/run.js names the file once (BENCH_RESULTS_FILE) so that
 * the pieces it starts write to the same one.
 */
const fs = require('node:fs');
const path = require('node:path');

function resultsFile() {
	if (!process.env.BENCH_RESULTS_FILE)
		process.env.BENCH_RESULTS_FILE = path.join(
			__dirname,
			'results',
			`${new Date().toISOString().slice(0, 10)}.md`,
		);
	return process.env.BENCH_RESULTS_FILE;
}

function append(text) {
	const file = resultsFile();
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.appendFileSync(file, text);
	return file;
}

/** Prints a table and appends it (title, header row, rows of cells, notes below) to the results file. */
function table(title, header, rows, notes = []) {
	const line = (cells) => `| ${cells.map((c) => String(c)).join(' | ')} |`;
	const text = [
		`### ${title}`,
		'',
		line(header),
		line(header.map(() => '---')),
		...rows.map(line),
		'',
		...notes.map((n) => `- ${n}`),
		notes.length ? '' : null,
		'',
	]
		.filter((l) => l !== null)
		.join('\n');
	console.log(`\n${text}`);
	const file = append(`${text}\n`);
	console.log(`(appended to ${path.relative(path.join(__dirname, '..'), file)})`);
}

const fmt = (n, digits = 1) =>
	n === undefined || n === null || Number.isNaN(n) ? 'n/a' : Number(n).toFixed(digits);

module.exports = { resultsFile, append, table, fmt };
