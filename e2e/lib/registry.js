'use strict';
/**
 * A local npm registry for the installer test: verdaccio (from npm, no uplinks: it serves only what the
 * test publishes) and the way n8n's own npm reaches it.
 *
 * verdaccio is installed by the harness beside the cached n8n, not as a devDependency: one of its
 * dependencies (verdaccio-audit) asks for node-fetch by the dist-tag `cjs`, which the registry copy
 * here does not carry, so its install holds node-fetch at 2.7.0 with an `overrides` entry, and n8n's
 * lint forbids `overrides` in a community package's package.json.
 *
 * n8n 2.40.7 passes `--registry=https://registry.npmjs.org` on every npm command it runs for
 * community packages (a different registry is a licensed feature), and a command-line flag beats every
 * npm configuration. So the harness leaves n8n's commands alone and points n8n's npm, through its npm
 * configuration (a userconfig file given to the n8n processes), at a proxy for registry.npmjs.org: the
 * proxy terminates TLS with a certificate made here for that host (npm trusts it through `cafile`) and
 * passes every request to verdaccio. Any other host is refused.
 */
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const https = require('node:https');
const path = require('node:path');

const H = require('./host');

const REGISTRY_HOST = 'registry.npmjs.org';

/**
 * Environment of an npm command that must not see the settings of the npm that started the suite
 * (npm hands them to its scripts as npm_config_* variables); where packages come from stays.
 */
function cleanNpmEnv(extra = {}) {
	const keep = /^npm_config_(registry|cache|.*proxy|strict_ssl|cafile|ca|fetch_.*)$/i;
	const env = {};
	for (const [k, v] of Object.entries(process.env))
		if (!/^npm_/i.test(k) || keep.test(k)) env[k] = v;
	return Object.assign(env, extra);
}

const VERDACCIO = '6.10.4';

/** Installs verdaccio once into a cache folder beside the n8n host's; returns its bin script. */
function ensureVerdaccio(host) {
	const cache = path.join(path.dirname(host.cache), `verdaccio-${VERDACCIO}`);
	const bin = path.join(cache, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
	if (fs.existsSync(path.join(cache, '.ready'))) return bin;
	const staging = `${cache}.${process.pid}`;
	fs.rmSync(staging, { recursive: true, force: true });
	fs.mkdirSync(staging, { recursive: true });
	fs.writeFileSync(
		path.join(staging, 'package.json'),
		JSON.stringify({
			name: 'e2e-registry',
			private: true,
			dependencies: { verdaccio: VERDACCIO },
			overrides: { 'verdaccio-audit': { 'node-fetch': '2.7.0' } },
		}),
	);
	H.log(`installing verdaccio ${VERDACCIO} into ${cache} (once)`);
	H.run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
		cwd: staging,
		env: cleanNpmEnv({ PATH: `${path.dirname(host.nodeBin)}:${process.env.PATH}` }),
	});
	fs.writeFileSync(path.join(staging, '.ready'), VERDACCIO);
	fs.rmSync(cache, { recursive: true, force: true });
	fs.renameSync(staging, cache);
	return bin;
}

/** Starts verdaccio (Node 24 of the n8n host) on a free port; returns {url, port, publish, stop}. */
async function startRegistry(host, dir) {
	fs.mkdirSync(dir, { recursive: true });
	const port = await H.freePort();
	const config = path.join(dir, 'verdaccio.yaml');
	fs.writeFileSync(
		config,
		[
			`storage: ${path.join(dir, 'storage')}`,
			'auth:',
			'  htpasswd:',
			`    file: ${path.join(dir, 'htpasswd')}`,
			'    max_users: 1',
			'uplinks: {}',
			'packages:',
			"  '**':",
			'    access: $all',
			'    publish: $authenticated',
			'    unpublish: $authenticated',
			'log: { type: stdout, format: pretty, level: warn }',
			'',
		].join('\n'),
	);
	const bin = ensureVerdaccio(host);
	const child = H.startProcess(
		'verdaccio',
		host.nodeBin,
		[bin, '--config', config, '--listen', `127.0.0.1:${port}`],
		{ env: cleanNpmEnv(), logFile: path.join(dir, 'verdaccio.log') },
	);
	const url = `http://127.0.0.1:${port}/`;
	await H.waitFor(
		'verdaccio to answer /-/ping',
		async () => (await fetch(`${url}-/ping`).catch(() => ({ ok: false }))).ok,
		{ timeoutMs: 60000, child },
	);
	const res = await fetch(`${url}-/user/org.couchdb.user:e2e`, {
		method: 'PUT',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ name: 'e2e', password: 'e2e-registry-password' }),
	});
	const { token } = await res.json();
	if (!token) throw new Error(`verdaccio gave no token: ${res.status}`);
	const npmrc = path.join(dir, 'publisher.npmrc');
	fs.writeFileSync(npmrc, `//127.0.0.1:${port}/:_authToken=${token}\n`);
	return {
		url,
		port,
		/** `npm publish <tgz>` to this registry, as a publisher would. */
		publish(tgz) {
			H.run(
				'npm',
				['publish', tgz, `--registry=${url}`, `--userconfig=${npmrc}`, '--ignore-scripts'],
				{
					cwd: dir,
					env: cleanNpmEnv(),
				},
			);
		},
		stop: () => H.stopProcess(child, { graceMs: 5000 }),
	};
}

/** A copy of a packed tarball with another version in its package.json (a publisher's next release). */
function withVersion(tgz, version, dir) {
	const work = path.join(dir, `v${version}`);
	fs.rmSync(work, { recursive: true, force: true });
	fs.mkdirSync(work, { recursive: true });
	execFileSync('tar', ['-xzf', tgz, '-C', work]);
	const pkgFile = path.join(work, 'package', 'package.json');
	const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
	pkg.version = version;
	fs.writeFileSync(pkgFile, JSON.stringify(pkg, null, 2));
	const out = H.run('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', work], {
		cwd: path.join(work, 'package'),
		env: cleanNpmEnv(),
	});
	return path.join(work, out.trim().split('\n').pop().trim());
}

/**
 * The proxy for registry.npmjs.org in front of `registryPort`, and the npm configuration that sends
 * n8n's npm through it. Returns {port, env, requests, stop}: `env` goes into the n8n processes'
 * environment; `requests` lists what n8n's npm asked for.
 */
async function registryProxy(registryPort, dir) {
	fs.mkdirSync(dir, { recursive: true });
	const key = path.join(dir, 'proxy-key.pem');
	const cert = path.join(dir, 'proxy-cert.pem');
	const made = spawnSync(
		'openssl',
		[
			'req',
			'-x509',
			'-newkey',
			'rsa:2048',
			'-nodes',
			'-days',
			'2',
			'-keyout',
			key,
			'-out',
			cert,
			'-subj',
			`/CN=${REGISTRY_HOST}`,
			'-addext',
			`subjectAltName=DNS:${REGISTRY_HOST}`,
		],
		{ encoding: 'utf8' },
	);
	if (made.status !== 0)
		throw new Error(`openssl could not make the proxy certificate: ${made.stderr}`);
	const requests = [];
	const forward = (req, res, pathAndQuery) => {
		requests.push(`${req.method} ${pathAndQuery}`);
		const upstream = http.request(
			{
				host: '127.0.0.1',
				port: registryPort,
				method: req.method,
				path: pathAndQuery,
				// verdaccio writes tarball URLs from these: they stay on registry.npmjs.org (this proxy).
				headers: Object.assign({}, req.headers, {
					host: REGISTRY_HOST,
					'x-forwarded-proto': 'https',
				}),
			},
			(up) => {
				res.writeHead(up.statusCode, up.headers);
				up.pipe(res);
			},
		);
		upstream.on('error', (error) => {
			res.writeHead(502);
			res.end(String(error.message));
		});
		req.pipe(upstream);
	};
	const tls = https.createServer(
		{ key: fs.readFileSync(key), cert: fs.readFileSync(cert) },
		(req, res) => forward(req, res, req.url),
	);
	const proxy = http.createServer((req, res) => {
		// Plain-HTTP proxy requests carry an absolute URL.
		let target;
		try {
			target = new URL(req.url);
		} catch {
			target = undefined;
		}
		if (!target || target.hostname !== REGISTRY_HOST) {
			res.writeHead(403);
			res.end('only registry.npmjs.org');
			return;
		}
		forward(req, res, target.pathname + target.search);
	});
	proxy.on('connect', (req, socket) => {
		if (req.url !== `${REGISTRY_HOST}:443`) {
			socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
			return;
		}
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		tls.emit('connection', socket);
	});
	const port = await H.freePort();
	await new Promise((resolve) => proxy.listen(port, '127.0.0.1', resolve));
	const userconfig = path.join(dir, 'n8n.npmrc');
	fs.writeFileSync(
		userconfig,
		[
			`proxy=http://127.0.0.1:${port}/`,
			`https-proxy=http://127.0.0.1:${port}/`,
			`cafile=${cert}`,
			`cache=${path.join(dir, 'npm-cache')}`,
			'audit=false',
			'fund=false',
			'update-notifier=false',
			'',
		].join('\n'),
	);
	return {
		port,
		requests,
		userconfig,
		/** n8n's environment: no inherited npm settings, only this userconfig. */
		applyTo(env) {
			for (const k of Object.keys(env)) if (/^npm_config_/i.test(k)) delete env[k];
			env.npm_config_userconfig = userconfig;
			return env;
		},
		stop: () =>
			new Promise((resolve) => {
				proxy.closeAllConnections();
				proxy.close(() => resolve());
			}),
	};
}

module.exports = { ensureVerdaccio, startRegistry, withVersion, registryProxy, cleanNpmEnv };
