#!/usr/bin/env node
// Lists what `npm run test:mutation` left alive, from Stryker's JSON report
// (bench/results/mutation-report.json, or the path given): the score per file and overall, then each
// surviving or uncovered mutant as file:line, its mutator and the code it put in, for
// bench/results/mutation.md.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const file =
	process.argv[2] ?? path.join(__dirname, '..', 'bench', 'results', 'mutation-report.json');
const report = JSON.parse(fs.readFileSync(file, 'utf8'));
const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

const rows = [];
const total = { detected: 0, undetected: 0, ignored: 0, errors: 0 };
console.log('| file | mutants | killed | timed out | survived | no coverage | ignored | score |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const [name, { source, mutants }] of Object.entries(report.files)) {
	const count = (status) => mutants.filter((m) => m.status === status).length;
	const detected = mutants.filter((m) => DETECTED.has(m.status)).length;
	const undetected = mutants.filter((m) => UNDETECTED.has(m.status)).length;
	total.detected += detected;
	total.undetected += undetected;
	total.ignored += count('Ignored');
	total.errors += count('RuntimeError') + count('CompileError');
	const score =
		detected + undetected ? ((100 * detected) / (detected + undetected)).toFixed(1) : '-';
	console.log(
		`| ${name} | ${mutants.length} | ${count('Killed')} | ${count('Timeout')} | ${count('Survived')} | ${count('NoCoverage')} | ${count('Ignored')} | ${score}% |`,
	);
	const lines = source.split('\n');
	for (const m of mutants.filter((x) => UNDETECTED.has(x.status))) {
		const { start, end } = m.location;
		const original =
			start.line === end.line
				? lines[start.line - 1].slice(start.column - 1, end.column - 1)
				: `${lines[start.line - 1].slice(start.column - 1)} …`;
		rows.push({ name, line: start.line, m, original });
	}
}
const all = total.detected + total.undetected;
console.log(
	`\noverall: ${total.detected} detected of ${all} (${all ? ((100 * total.detected) / all).toFixed(1) : '-'}%), ${total.ignored} ignored, ${total.errors} errors\n`,
);
const clip = (s) => s.replace(/\s+/g, ' ').replace(/\|/g, '\\|').slice(0, 90);
for (const { name, line, m, original } of rows.sort((a, b) =>
	a.name === b.name ? a.line - b.line : a.name.localeCompare(b.name),
)) {
	console.log(
		`- ${name}:${line} ${m.status} ${m.mutatorName}: \`${clip(original)}\` → \`${clip(m.replacement ?? '')}\``,
	);
}
