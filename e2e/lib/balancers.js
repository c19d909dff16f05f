'use strict';
/**
 * HAProxy and Caddy (Debian's packages, installed with apt-get when missing) in front of n8n, each with
 * the repository's own recipe: deploy/haproxy/platform-webhooks.cfg and deploy/caddy/Caddyfile. As with
 * nginx (e2e/lib/nginx.js, whose `render` this uses), every line marked `EDIT(name)` is replaced by the
 * lines given for its name and nothing else changes, so that the file tested is the file shipped. Each
 * runs in the foreground with its own files under the caller's folder, on the caller's port: never the
 * system service.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');

const H = require('./host');
const NGINX = require('./nginx');

// E2E_HAPROXY_RECIPE and E2E_CADDY_RECIPE run the tests against another copy of a recipe (an earlier
// version kept aside, to show what a test catches in it); the shipped files otherwise.
const HAPROXY_RECIPE =
	process.env.E2E_HAPROXY_RECIPE || path.join(H.ROOT, 'deploy', 'haproxy', 'platform-webhooks.cfg');
const CADDY_RECIPE =
	process.env.E2E_CADDY_RECIPE || path.join(H.ROOT, 'deploy', 'caddy', 'Caddyfile');

/** `file` with its `EDIT(name)` lines replaced by `values` (nginx.js's rules, this file's name in errors). */
function renderRecipe(file, values) {
	try {
		return NGINX.render(values, fs.readFileSync(file, 'utf8'));
	} catch (error) {
		throw new Error(
			`${path.relative(H.ROOT, file)}: ${String(error.message).replace(/^[^:]*: /, '')}`,
		);
	}
}

/**
 * Starts HAProxy on 127.0.0.1:`port` in front of `upstreams` (["127.0.0.1:5678", ...]). `secret`
 * (optional): the app's consumer secret, written base64-encoded to a file of mode 600 loaded before the
 * recipe, as its README asks; omitted, the recipe's fallback (no signature check). HAProxy logs every
 * call it passed on, with the process it chose and the routing key, to `accessLog`.
 * Returns {name, url, port, child, conf, accessLog, stop()}.
 */
async function startHaproxy({ dir, port, upstreams, secret }) {
	const bin = H.ensureDebianCommand('haproxy', 'haproxy');
	fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
	const accessLog = path.join(dir, 'logs', 'haproxy.log');
	// What the recipe leaves to the operator's own haproxy.cfg: logging and the process itself. The log
	// line names the process HAProxy chose and the routing key.
	const base = path.join(dir, 'haproxy.cfg');
	fs.writeFileSync(
		base,
		[
			'global',
			'    log stdout format raw local0 info',
			'    nbthread 1',
			'defaults',
			'    mode http',
			'    log global',
			'    option dontlognull',
			'    timeout connect 2s',
			'    timeout client 15s',
			'    timeout server 10s',
			'    log-format "%ci [%tr] %ST upstream=%si:%sp \\"%HM %HU\\" route=%[var(txn.platform_route)] %Tt ms"',
			'',
		].join('\n'),
	);
	const files = [base];
	if (secret) {
		const secretConf = path.join(dir, 'platform-webhooks-secret.cfg');
		const b64 = Buffer.from(secret, 'utf8').toString('base64');
		fs.writeFileSync(
			secretConf,
			`global\n    set-var proc.platform_webhooks_secret str(${b64})\n`,
			{ mode: 0o600 },
		);
		fs.chmodSync(secretConf, 0o600);
		files.push(secretConf);
	}
	const site = path.join(dir, 'platform-webhooks.cfg');
	fs.writeFileSync(
		site,
		renderRecipe(HAPROXY_RECIPE, {
			bind: [`bind 127.0.0.1:${port}`],
			servers: upstreams.map((u, i) => `server n8n${i + 1} ${u}`),
		}),
	);
	files.push(site);
	const args = files.flatMap((f) => ['-f', f]);
	const check = spawnSync(bin, ['-c', ...args], { encoding: 'utf8' });
	if (check.status !== 0)
		throw new Error(`haproxy -c refused ${site}:\n${check.stderr || check.stdout}`);
	// -db: stay in the foreground; the log goes to stdout, which startProcess writes to accessLog.
	const child = H.startProcess('haproxy', bin, ['-db', ...args], {
		env: process.env,
		logFile: accessLog,
	});
	await H.waitFor(`haproxy to listen on 127.0.0.1:${port}`, () => H.portOpen(port), {
		timeoutMs: 20000,
		intervalMs: 200,
		child,
	});
	return {
		name: 'haproxy',
		url: `http://127.0.0.1:${port}`,
		port,
		child,
		conf: site,
		/** `<address> [time] <status> upstream=<process> "<method> <uri>" route=<key> <ms> ms`, one line per call. */
		accessLog,
		/** The calls HAProxy passed on to n8n: [{upstream, route, status}]. */
		forwardedCalls: () =>
			fs
				.readFileSync(accessLog, 'utf8')
				.split('\n')
				.map((l) => /\s(\d{3}) upstream=(\S+) "[^"]*" route=(\S*)/.exec(l))
				.filter((m) => m && m[2] !== '-:-')
				.map((m) => ({ upstream: m[2], route: m[3], status: Number(m[1]) })),
		stop: () => H.stopProcess(child, { graceMs: 5000, signal: 'SIGUSR1' }),
	};
}

/**
 * Starts Caddy on 127.0.0.1:`port` (plain HTTP: the recipe's site line replaced by a local address,
 * automatic HTTPS and the admin endpoint off) in front of `upstreams`. Caddy's standard build checks no
 * signature, so there is no secret. Returns {name, url, port, child, conf, accessLog, stop()}.
 */
async function startCaddy({ dir, port, upstreams }) {
	const bin = H.ensureDebianCommand('caddy', 'caddy');
	fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
	const site = renderRecipe(CADDY_RECIPE, {
		site: [`http://127.0.0.1:${port}, http://localhost:${port} {`],
		upstream: [`to ${upstreams.join(' ')}`],
	});
	const conf = path.join(dir, 'Caddyfile');
	fs.writeFileSync(
		conf,
		['{', '\tdebug', '\tadmin off', '\tauto_https off', '}', '', site].join('\n'),
	);
	// `debug`: Caddy logs every round trip to n8n with the process it chose and the request's headers
	// (the routing key among them), which is what a test asserts about.
	// Caddy keeps its state (certificates, autosaved configuration) under XDG folders: this run's own.
	const env = Object.assign({}, process.env, {
		XDG_DATA_HOME: path.join(dir, 'data'),
		XDG_CONFIG_HOME: path.join(dir, 'config'),
	});
	const check = spawnSync(bin, ['validate', '--config', conf, '--adapter', 'caddyfile'], {
		encoding: 'utf8',
		env,
	});
	if (check.status !== 0)
		throw new Error(`caddy validate refused ${conf}:\n${check.stderr || check.stdout}`);
	const log = path.join(dir, 'logs', 'caddy.log');
	const child = H.startProcess('caddy', bin, ['run', '--config', conf, '--adapter', 'caddyfile'], {
		env,
		logFile: log,
	});
	await H.waitFor(`caddy to listen on 127.0.0.1:${port}`, () => H.portOpen(port), {
		timeoutMs: 20000,
		intervalMs: 200,
		child,
	});
	return {
		name: 'caddy',
		url: `http://127.0.0.1:${port}`,
		port,
		child,
		conf,
		accessLog: log,
		/** The calls Caddy passed on to n8n (its debug log of each round trip): [{upstream, route, status}]. */
		forwardedCalls: () =>
			fs
				.readFileSync(log, 'utf8')
				.split('\n')
				.filter((l) => l.includes('"upstream roundtrip"'))
				.map((l) => JSON.parse(l))
				.map((e) => ({
					upstream: e.upstream,
					route: ((e.request.headers || {})['X-Platform-Route'] || [''])[0],
					status: e.status,
				})),
		stop: () => H.stopProcess(child, { graceMs: 5000 }),
	};
}

const LOCK_SCRIPT = `
const [client, port, subKey] = process.argv.slice(1);
const { Client } = require(client);
const c = new Client({ host: '127.0.0.1', port: Number(port), user: 'n8n', password: 'n8n', database: 'n8n' });
(async () => {
	await c.connect();
	await c.query('begin');
	await c.query('select pg_advisory_xact_lock(1005, $1)', [Number(subKey)]);
	console.log('locked');
	process.stdin.on('end', () => c.query('commit').then(() => c.end()));
	process.stdin.resume();
})().catch((e) => { console.error(e.message); process.exit(1); });
`;

/**
 * Holds n8n's database migration lock on the instance's PostgreSQL (`pg`, H.startPostgres) until
 * `release()`, as a process running n8n's migrations holds it (during an upgrade, the first n8n process
 * to start). Every n8n process runs its migrations at start under this lock, and listens before: a
 * webhook process started meanwhile answers every call 200 "n8n is starting up" without running
 * anything, for as long as the lock is held. The lock is n8n 2.40's transaction-level advisory lock
 * 1005 with the first 4 bytes of sha256("<schema>:<table prefix>") as second key (schema `public`, no
 * prefix here). Resolves once the lock is held.
 */
async function holdMigrationLock(pg, { schema = 'public', tablePrefix = '' } = {}) {
	const subKey = crypto
		.createHash('sha256')
		.update(`${schema}:${tablePrefix}`)
		.digest()
		.readInt32BE(0);
	const child = spawn(
		process.execPath,
		['-e', LOCK_SCRIPT, H.ensurePostgres().client, String(pg.port), String(subKey)],
		{ stdio: ['pipe', 'pipe', 'pipe'] },
	);
	const exited = new Promise((resolve) => child.on('exit', resolve));
	let stderr = '';
	child.stderr.on('data', (d) => (stderr += d));
	await new Promise((resolve, reject) => {
		child.stdout.on('data', (d) => String(d).includes('locked') && resolve());
		child.on('exit', (code) =>
			reject(new Error(`the migration lock could not be held (exit ${code}): ${stderr.trim()}`)),
		);
	});
	return {
		/** Commits the lock's transaction (n8n's waiting migrations go on) and waits for the holder to end. */
		release: async () => {
			child.stdin.end();
			await exited;
		},
	};
}

/** Starts the named balancer ('haproxy' or 'caddy'; nginx lives in e2e/lib/nginx.js). */
function startBalancer(name, options) {
	if (name === 'haproxy') return startHaproxy(options);
	if (name === 'caddy') return startCaddy(options);
	throw new Error(`unknown balancer ${JSON.stringify(name)}: haproxy or caddy`);
}

module.exports = {
	HAPROXY_RECIPE,
	CADDY_RECIPE,
	startHaproxy,
	startCaddy,
	startBalancer,
	holdMigrationLock,
};
