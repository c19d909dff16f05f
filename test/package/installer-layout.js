'use strict';
// Lays the packed package out the way n8n's Community Nodes installer does and loads every node and
// credential from there, refusing any module n8n does not provide to community packages.
//
// n8n 2.40's installer (CommunityPackagesService.downloadPackage) runs `npm pack <name>@<version>`,
// unpacks the tarball into <user folder>/nodes/node_modules/<name>, drops devDependencies,
// peerDependencies and optionalDependencies from its package.json and runs `npm install` there. At
// start n8n puts its own module paths on NODE_PATH, so a bare require from the package resolves, when
// the package does not carry the module itself, to n8n's own copy. Of those, n8n's rules for
// community packages allow only the modules below; Node's built-in modules are always there.
//
// Usage: node installer-layout.js <unpacked package dir> <n8n's node_modules> <work dir>
// Prints one JSON line: { loaded, external, refused }; exits 1 when anything was refused or failed.
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

/** What an n8n instance provides to community packages (n8n's scanner allow-list). */
const N8N_PROVIDED = ['n8n-workflow', 'zod', 'lodash', 'moment', 'p-limit', 'luxon', 'crypto'];

function bareName(request) {
	const parts = request.split('/');
	return request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The installer's steps, without the registry: unpacked tarball → nodes/node_modules/<name>. */
function layOut(unpackedDir, workDir) {
	const pkg = JSON.parse(fs.readFileSync(path.join(unpackedDir, 'package.json'), 'utf8'));
	const userNodes = path.join(workDir, 'nodes');
	const target = path.join(userNodes, 'node_modules', pkg.name);
	fs.mkdirSync(path.dirname(target), { recursive: true });
	fs.cpSync(unpackedDir, target, { recursive: true });
	const { devDependencies, peerDependencies, optionalDependencies, ...kept } = pkg;
	(void devDependencies, peerDependencies, optionalDependencies);
	fs.writeFileSync(path.join(target, 'package.json'), JSON.stringify(kept, null, 2));
	fs.writeFileSync(
		path.join(userNodes, 'package.json'),
		JSON.stringify({
			name: 'installed-nodes',
			private: true,
			dependencies: { [pkg.name]: pkg.version },
		}),
	);
	return { pkg: kept, target };
}

function main() {
	const [unpackedDir, n8nModules, workDir] = process.argv.slice(2).map((p) => path.resolve(p));
	const { pkg, target } = layOut(unpackedDir, workDir);
	const inside = (file) => file === target || file.startsWith(target + path.sep);
	const refused = [];
	const external = new Set();

	const original = Module._resolveFilename;
	Module._resolveFilename = function (request, parent, ...rest) {
		if (!parent || !parent.filename || !inside(parent.filename))
			return original.call(this, request, parent, ...rest);
		const from = path.relative(target, parent.filename);
		if (Module.isBuiltin(request)) return original.call(this, request, parent, ...rest);
		if (request.startsWith('.') || path.isAbsolute(request)) {
			const resolved = original.call(this, request, parent, ...rest);
			if (!inside(resolved)) {
				refused.push({ from, request, why: 'outside the package' });
				throw new Error(`${from}: require("${request}") leaves the package`);
			}
			return resolved;
		}
		const name = bareName(request);
		if (!N8N_PROVIDED.includes(name)) {
			refused.push({ from, request, why: 'not provided by n8n to community packages' });
			throw new Error(`${from}: require("${request}"): ${name} is not provided by n8n`);
		}
		external.add(name);
		// Only from the instance (NODE_PATH in n8n), never from anything installed beside the package.
		return original.call(this, request, { ...parent, paths: [n8nModules] }, ...rest);
	};

	const loaded = [];
	const failed = [];
	for (const rel of [...pkg.n8n.credentials, ...pkg.n8n.nodes]) {
		try {
			// n8n instantiates the export named after the file (PlatformPosts.node.js → PlatformPosts).
			const className = path.basename(rel).split('.')[0];
			const Loaded = require(path.join(target, rel))[className];
			if (typeof Loaded !== 'function') throw new Error(`exports no class ${className}`);
			const instance = new Loaded();
			if (!instance.description && !instance.name)
				throw new Error(`${className} has no description`);
			loaded.push(rel);
		} catch (error) {
			failed.push({ file: rel, error: String(error && error.message) });
		}
	}
	Module._resolveFilename = original;
	const result = { loaded, external: [...external].sort(), refused, failed };
	process.stdout.write(JSON.stringify(result) + '\n');
	process.exit(refused.length || failed.length ? 1 : 0);
}

if (require.main === module) main();
module.exports = { N8N_PROVIDED, layOut };
