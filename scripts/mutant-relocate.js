#!/usr/bin/env node
// Moves the incremental file's mutants of one source file onto that file as it is now, for
// scripts/mutant-by-hand.js, which needs the source the incremental file holds: each mutant is found by
// its own text with the text around it (30 to 250 characters on either side, or one side alone), and
// kept only where that is unique. Writes the incremental file of another clone (a copy of this one),
// never this clone's: the committed file keeps Stryker's own results.
//
//   node scripts/mutant-relocate.js <copy of the clone> <source file>
//   node scripts/mutant-relocate.js /tmp/copy nodes/triggers/stream/activityStream.ts
//
// A mutant on a line changed since Stryker's run is not found; the report says how many.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const [copy, name] = process.argv.slice(2);
if (!copy || !name || path.resolve(copy) === path.resolve(root)) {
	console.error('usage: node scripts/mutant-relocate.js <copy of the clone> <source file>');
	process.exit(2);
}
const results = 'bench/results/stryker-incremental.json';
const incremental = JSON.parse(fs.readFileSync(path.join(root, results), 'utf8'));
const entry = incremental.files[name];
if (!entry) {
	console.error(`no ${name} in the incremental file`);
	process.exit(2);
}
const old = entry.source;
const now = fs.readFileSync(path.join(root, name), 'utf8');
// Stryker's locations: lines and columns from 1.
const oldLines = old.split('\n');
const offset = ({ line, column }) =>
	oldLines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + column - 1;
const position = (i) => {
	const before = now.slice(0, i).split('\n');
	return { line: before.length, column: before[before.length - 1].length + 1 };
};
const unique = (needle) => {
	const i = now.indexOf(needle);
	return i !== -1 && now.indexOf(needle, i + 1) === -1 ? i : -1;
};
const mutants = [];
let lost = 0;
for (const mutant of entry.mutants) {
	const start = offset(mutant.location.start);
	const end = offset(mutant.location.end);
	const span = old.slice(start, end);
	let at = -1;
	for (const n of [30, 60, 120, 250]) {
		const before = old.slice(Math.max(0, start - n), start);
		const after = old.slice(end, end + n);
		for (const [b, a] of [
			[before, after],
			[before, ''],
			['', after],
		]) {
			const i = unique(b + span + a);
			if (i !== -1) {
				at = i + b.length;
				break;
			}
		}
		if (at !== -1) break;
	}
	if (at === -1) {
		lost++;
		continue;
	}
	mutants.push({
		...mutant,
		location: { start: position(at), end: position(at + span.length) },
	});
}
const target = path.join(copy, results);
const out = JSON.parse(fs.readFileSync(target, 'utf8'));
out.files[name] = { ...entry, source: now, mutants };
fs.writeFileSync(target, JSON.stringify(out));
console.log(
	`${mutants.length} mutants moved onto ${name} as it is now; ${lost} not found (changed lines)`,
);
