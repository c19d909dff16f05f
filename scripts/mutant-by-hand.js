#!/usr/bin/env node
// Puts one mutant of the incremental file (bench/results/stryker-incremental.json) into its source file,
// runs jest with the arguments given, prints whether the tests failed (KILLED) or passed (SURVIVES), and
// puts the file back: the check by hand that bench/results/mutation.md reports for a new test.
//
//   node scripts/mutant-by-hand.js <source file> <mutant id> [jest arguments...]
//   node scripts/mutant-by-hand.js nodes/triggers/stream/activityStream.ts 357 \
//     test/trigger/activityStreamShell.test.ts -t 'goes silent'
//
// The source file must be the one the incremental file holds (the mutants' locations are its). Do not
// run two at once in one clone: each rewrites the file while its tests run.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.join(__dirname, '..');
const [name, id, ...jestArgs] = process.argv.slice(2);
if (!name || !id) {
	console.error(
		'usage: node scripts/mutant-by-hand.js <source file> <mutant id> [jest arguments...]',
	);
	process.exit(2);
}
const incremental = JSON.parse(
	fs.readFileSync(path.join(root, 'bench', 'results', 'stryker-incremental.json'), 'utf8'),
);
const entry = incremental.files[name];
const mutant = entry?.mutants.find((m) => m.id === id);
if (!mutant) {
	console.error(`no mutant ${id} of ${name} in the incremental file`);
	process.exit(2);
}
const file = path.join(root, name);
const source = fs.readFileSync(file, 'utf8');
if (source !== entry.source) {
	console.error(
		`${name} is not the version the incremental file holds; its locations do not apply`,
	);
	process.exit(2);
}
// Stryker's locations: lines and columns from 1.
const lines = source.split('\n');
const offset = ({ line, column }) =>
	lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + column - 1;
const start = offset(mutant.location.start);
const end = offset(mutant.location.end);
const clip = (s) => s.replace(/\s+/g, ' ').slice(0, 80);
console.log(
	`mutant ${id} ${name}:${mutant.location.start.line} ${mutant.mutatorName}: ${clip(source.slice(start, end))} → ${clip(mutant.replacement)}`,
);
const restore = () => fs.writeFileSync(file, source);
process.on('SIGINT', () => {
	restore();
	process.exit(130);
});
// The mutant may not typecheck (ts-jest reports no diagnostics here: jest.config.js).
fs.writeFileSync(file, source.slice(0, start) + mutant.replacement + source.slice(end));
try {
	const run = spawnSync('npx', ['jest', '--maxWorkers=1', ...jestArgs], {
		cwd: root,
		encoding: 'utf8',
	});
	const out = `${run.stdout}${run.stderr}`;
	console.log(run.status === 0 ? 'SURVIVES' : 'KILLED');
	for (const line of out.split('\n')) if (/^Tests:|✕/.test(line)) console.log(line);
} finally {
	restore();
}
