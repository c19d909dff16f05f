'use strict';
// A throwaway log folder for the harness's log check test (file access is kept out of the TypeScript
// tests, which follow the rules of node code).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

function logFolder() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'log-check-'));
	return {
		dir,
		file: (name) => path.join(dir, name),
		write: (name, text) => fs.appendFileSync(path.join(dir, name), text),
		remove: () => fs.rmSync(dir, { recursive: true, force: true }),
	};
}

module.exports = { logFolder };
