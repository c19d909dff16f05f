'use strict';
// The public surface of the built package: what a saved workflow depends on. For every node type and
// every typeVersion it has: each parameter's name, type and default (with the values of options and
// the fields of collections); for every credential: its name and fields. surface.json beside this file
// is the committed record; surface.test.ts compares the build with it.
//
//   npm run surface:update   builds, then writes surface.json from the build (after adding a node
//                            version or a parameter; the test refuses changes to recorded versions).
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const SNAPSHOT = path.join(__dirname, 'surface.json');

function load(rel) {
	const className = path.basename(rel).split('.')[0];
	return new (require(path.join(ROOT, rel))[className])();
}

/** Whether a displayOptions @version condition admits the version. */
function versionMatches(condition, version) {
	if (typeof condition === 'number') return condition === version;
	const c = condition && condition._cnd;
	if (!c) return true;
	if ('eq' in c) return version === c.eq;
	if ('not' in c) return version !== c.not;
	if ('gte' in c) return version >= c.gte;
	if ('lte' in c) return version <= c.lte;
	if ('gt' in c) return version > c.gt;
	if ('lt' in c) return version < c.lt;
	if ('between' in c) return version >= c.between.from && version <= c.between.to;
	return true;
}

function shownIn(param, version) {
	const show =
		param.displayOptions && param.displayOptions.show && param.displayOptions.show['@version'];
	const hide =
		param.displayOptions && param.displayOptions.hide && param.displayOptions.hide['@version'];
	if (show && !show.some((c) => versionMatches(c, version))) return false;
	if (hide && hide.some((c) => versionMatches(c, version))) return false;
	return true;
}

/** displayOptions without @version (each version is recorded on its own). */
function shownWhen(param) {
	const out = {};
	for (const kind of ['show', 'hide']) {
		const rules = param.displayOptions && param.displayOptions[kind];
		if (!rules) continue;
		const kept = Object.fromEntries(Object.entries(rules).filter(([k]) => k !== '@version'));
		if (Object.keys(kept).length) out[kind] = kept;
	}
	return Object.keys(out).length ? out : undefined;
}

function describeParam(param, version) {
	const out = { name: param.name, type: param.type, default: param.default };
	const when = shownWhen(param);
	if (when) out.when = when;
	if ((param.type === 'options' || param.type === 'multiOptions') && Array.isArray(param.options))
		out.values = param.options.map((o) => o.value);
	if (param.type === 'collection' && Array.isArray(param.options))
		out.fields = describeParams(param.options, version);
	if (param.type === 'fixedCollection' && Array.isArray(param.options))
		out.groups = param.options.map((g) => ({
			name: g.name,
			fields: describeParams(g.values || [], version),
		}));
	return out;
}

function describeParams(params, version) {
	return params.filter((p) => shownIn(p, version)).map((p) => describeParam(p, version));
}

/** The surface of the build in dist/ (run `npm run build` first). */
function currentSurface() {
	const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	const nodes = {};
	for (const rel of pkg.n8n.nodes) {
		const node = load(rel);
		const versions = {};
		if (node.nodeVersions) {
			for (const [v, typed] of Object.entries(node.nodeVersions))
				versions[v] = describeParams(typed.description.properties, Number(v));
		} else {
			const list = [].concat(node.description.version);
			for (const v of list) versions[String(v)] = describeParams(node.description.properties, v);
		}
		nodes[`${pkg.name}.${node.description.name}`] = { versions };
	}
	const credentials = {};
	for (const rel of pkg.n8n.credentials) {
		const credential = load(rel);
		credentials[credential.name] = {
			extends: credential.extends,
			fields: describeParams(credential.properties, 1),
		};
	}
	return { nodes, credentials };
}

const keyOf = (p) => JSON.stringify([p.name, p.when || null]);

/**
 * What a saved workflow would notice: recorded node types, versions, parameters (by name and when
 * shown), their types and defaults, option values and collection fields that are gone or changed.
 * Additions (a new node, a new version, a new parameter, a new option value) are not breaks.
 */
function breaks(recorded, current) {
	const found = [];
	const compareParams = (where, before, after) => {
		const now = new Map(after.map((p) => [keyOf(p), p]));
		for (const old of before) {
			const cur = now.get(keyOf(old));
			const at = `${where} › ${old.name}${old.when ? ` (when ${JSON.stringify(old.when)})` : ''}`;
			if (!cur) {
				found.push(`${at}: removed or shown under other conditions`);
				continue;
			}
			if (cur.type !== old.type) found.push(`${at}: type ${old.type} → ${cur.type}`);
			if (JSON.stringify(cur.default) !== JSON.stringify(old.default))
				found.push(
					`${at}: default ${JSON.stringify(old.default)} → ${JSON.stringify(cur.default)}`,
				);
			for (const value of old.values || [])
				if (!(cur.values || []).includes(value))
					found.push(`${at}: option ${JSON.stringify(value)} removed`);
			if (old.fields) compareParams(at, old.fields, cur.fields || []);
			for (const group of old.groups || []) {
				const g = (cur.groups || []).find((x) => x.name === group.name);
				if (!g) found.push(`${at}: group ${group.name} removed`);
				else compareParams(`${at} › ${group.name}`, group.fields, g.fields);
			}
		}
	};
	for (const [type, node] of Object.entries(recorded.nodes)) {
		const cur = current.nodes[type];
		if (!cur) {
			found.push(`${type}: node type removed`);
			continue;
		}
		for (const [version, params] of Object.entries(node.versions)) {
			if (!cur.versions[version]) found.push(`${type} v${version}: version removed`);
			else compareParams(`${type} v${version}`, params, cur.versions[version]);
		}
	}
	for (const [name, credential] of Object.entries(recorded.credentials)) {
		const cur = current.credentials[name];
		if (!cur) found.push(`credential ${name}: removed`);
		else {
			if (cur.extends && JSON.stringify(cur.extends) !== JSON.stringify(credential.extends))
				found.push(
					`credential ${name}: extends ${JSON.stringify(credential.extends)} → ${JSON.stringify(cur.extends)}`,
				);
			compareParams(`credential ${name}`, credential.fields, cur.fields);
		}
	}
	return found;
}

function readSnapshot() {
	return JSON.parse(fs.readFileSync(SNAPSHOT, 'utf8'));
}

if (require.main === module) {
	if (process.argv[2] !== '--update') {
		console.error('usage: node test/package/surface.js --update   (or: npm run surface:update)');
		process.exit(2);
	}
	const current = currentSurface();
	if (fs.existsSync(SNAPSHOT)) {
		const found = breaks(readSnapshot(), current);
		if (found.length && process.argv[3] !== '--accept-breaking') {
			console.error(
				`surface.json NOT updated: the build changes what saved workflows rely on:\n- ${found.join('\n- ')}\n` +
					'Keep the recorded version as it is and add a new node version instead ' +
					'(or, for a change that is not yet released, run: node test/package/surface.js --update --accept-breaking).',
			);
			process.exit(1);
		}
	}
	fs.writeFileSync(SNAPSHOT, JSON.stringify(current, null, '\t') + '\n');
	const versions = Object.entries(current.nodes).map(
		([t, n]) => `${t} v${Object.keys(n.versions).join(',')}`,
	);
	console.log(
		`surface.json written: ${versions.join('; ')}; ${Object.keys(current.credentials).length} credentials`,
	);
}

module.exports = { currentSurface, describeParams, breaks, readSnapshot, versionMatches };
