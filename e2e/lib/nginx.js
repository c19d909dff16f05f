'use strict';
/**
 * nginx (Debian's package, installed with apt-get when missing) in front of n8n, with the repository's
 * own recipe, deploy/nginx/platform-webhooks.conf. The recipe's placeholders are the lines marked
 * `EDIT(name)`; `render` replaces each such line with the lines given for its name (none: the line
 * goes), and refuses a placeholder it was not given a value for, so that the file tested is the file
 * shipped. nginx runs in the foreground with its own prefix, pid, logs and temp folders under the
 * caller's folder, on the caller's port: never the system service.
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync, execFile } = require('node:child_process');

const H = require('./host');

const RECIPE = path.join(H.ROOT, 'deploy', 'nginx', 'platform-webhooks.conf');
/** The recipe's njs module (signature check, CRC answers over the budget, routing key). */
const SCRIPT = path.join(H.ROOT, 'deploy', 'nginx', 'platform-webhooks.js');
/** Where Debian's libnginx-mod-http-js puts nginx's njs module. */
const NJS_MODULE = '/usr/lib/nginx/modules/ngx_http_js_module.so';
/** The operators' tool for a rolling restart that drains each webhook process first. */
const ROLLING_RESTART = path.join(H.ROOT, 'deploy', 'nginx', 'rolling-restart.sh');
const MARK = /#\s*EDIT\(([a-z-]+)\)/;

/** The recipe with every `EDIT(name)` line replaced by `values[name]` (an array of lines). */
function render(values, text = fs.readFileSync(RECIPE, 'utf8')) {
	const used = new Set();
	const out = [];
	for (const line of text.split('\n')) {
		const m = MARK.exec(line);
		if (!m) {
			out.push(line);
			continue;
		}
		const name = m[1];
		if (!Object.prototype.hasOwnProperty.call(values, name))
			throw new Error(`${path.basename(RECIPE)}: no value for the placeholder EDIT(${name})`);
		// Several lines may carry one name (a certificate and its key): the values replace the first.
		if (!used.has(name)) {
			const indent = /^\s*/.exec(line)[0];
			for (const v of values[name]) out.push(`${indent}${v}`);
		}
		used.add(name);
	}
	const unused = Object.keys(values).filter((k) => !used.has(k));
	if (unused.length)
		throw new Error(`${path.basename(RECIPE)} has no placeholder ${unused.join(', ')}`);
	return out.join('\n');
}

/**
 * nginx's njs module, from Debian's package libnginx-mod-http-js, installed with apt-get (as root, or
 * with `sudo -n`) when missing: the recipe needs it, and a fresh CI machine has only what the harness
 * installs.
 */
function ensureNjsModule() {
	if (fs.existsSync(NJS_MODULE)) return NJS_MODULE;
	const root = process.getuid && process.getuid() === 0;
	const env = Object.assign({}, process.env, { DEBIAN_FRONTEND: 'noninteractive' });
	const apt = (args) =>
		spawnSync(root ? 'apt-get' : 'sudo', root ? args : ['-n', 'apt-get', ...args], {
			stdio: 'inherit',
			env,
			timeout: 600000,
		}).status === 0;
	H.log("installing libnginx-mod-http-js with apt-get (Debian package: nginx's njs module)");
	if (!apt(['install', '-y', '--no-install-recommends', 'libnginx-mod-http-js'])) {
		// The package lists may be older than the machine (a fresh image): refresh them once.
		if (
			!apt(['update']) ||
			!apt(['install', '-y', '--no-install-recommends', 'libnginx-mod-http-js'])
		)
			throw new Error('apt-get install libnginx-mod-http-js failed');
	}
	if (!fs.existsSync(NJS_MODULE))
		throw new Error(`libnginx-mod-http-js is installed but ${NJS_MODULE} is missing`);
	return NJS_MODULE;
}

/** The recipe's secret file: one map line; "" is the fallback (no signature check at the proxy). */
function secretFile(secret) {
	if (/["$\\\s]/.test(secret))
		throw new Error('the consumer secret must not contain quotes, $, backslashes or spaces');
	return `map "" $platform_webhooks_secret { default "${secret}"; }\n`;
}

/**
 * Starts nginx on 127.0.0.1:`port` in front of n8n at `upstreams` (["127.0.0.1:5678", ...]: several
 * webhook processes share the calls by the recipe's consistent hash). `secret` (optional) is the app's
 * consumer secret: given, nginx checks every delivery's signature and answers CRC checks over the
 * budget itself; omitted, the recipe's fallback (format checks and limits only). The secret goes to a
 * file of mode 600 in `dir`, as the recipe asks. Returns {url, port, child, conf, site, errorLog,
 * accessLog, stop()}.
 */
async function startNginx({ dir, port, upstreams, secret }) {
	const bin = H.ensureDebianCommand('nginx', 'nginx');
	const njs = ensureNjsModule();
	fs.mkdirSync(path.join(dir, 'temp'), { recursive: true });
	fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
	const secretConf = path.join(dir, 'platform-webhooks-secret.conf');
	fs.writeFileSync(secretConf, secretFile(secret || ''), { mode: 0o600 });
	fs.chmodSync(secretConf, 0o600);
	const site = path.join(dir, 'platform-webhooks.conf');
	fs.writeFileSync(
		site,
		render({
			njs: [`js_import platform from ${SCRIPT};`],
			secret: [`include ${secretConf};`],
			upstream: upstreams.map((u) => `server ${u} max_fails=0;`),
			listen: [`listen 127.0.0.1:${port};`],
			'server-name': ['server_name localhost 127.0.0.1;'],
			tls: [],
		}),
	);
	const temp = (name) => path.join(dir, 'temp', name);
	const conf = path.join(dir, 'nginx.conf');
	fs.writeFileSync(
		conf,
		[
			`load_module ${njs};`,
			'daemon off;',
			'worker_processes 1;',
			`pid ${path.join(dir, 'nginx.pid')};`,
			`error_log ${path.join(dir, 'logs', 'error.log')} warn;`,
			'events { worker_connections 4096; }',
			'http {',
			// The log holds the calls nginx passed on to n8n, each with the process it chose and its routing
			// key: what a test asserts about (no forged delivery reached n8n; the copies of one delivery went
			// to one process). What nginx answered itself (thousands a second under a flood) is counted by
			// the callers.
			'    map $upstream_addr $platform_logged { "" 0; default 1; }',
			'    log_format platform_forwarded \'$remote_addr [$time_local] "$request" $status upstream=$upstream_addr route="$platform_route" ${request_time}s\';',
			`    access_log ${path.join(dir, 'logs', 'access.log')} platform_forwarded buffer=64k flush=1s if=$platform_logged;`,
			`    client_body_temp_path ${temp('body')};`,
			`    proxy_temp_path ${temp('proxy')};`,
			`    fastcgi_temp_path ${temp('fastcgi')};`,
			`    uwsgi_temp_path ${temp('uwsgi')};`,
			`    scgi_temp_path ${temp('scgi')};`,
			`    include ${site};`,
			'}',
			'',
		].join('\n'),
	);
	const { args, child, stop } = await runNginx({ bin, dir, conf, port, label: 'nginx' });
	return {
		url: `http://127.0.0.1:${port}`,
		port,
		child,
		conf,
		site,
		errorLog: path.join(dir, 'logs', 'error.log'),
		/** The calls passed on to n8n, one line each: `<address> [time] "<request>" <status> upstream=<process> route="<key>" <seconds>s`. */
		accessLog: path.join(dir, 'logs', 'access.log'),
		/**
		 * Runs deploy/nginx/rolling-restart.sh against this nginx as an operator would (`down <addr>`:
		 * out of the upstream, reloaded, resolves once nothing is in flight there; `up <addr>`: resolves
		 * once the process is ready and back in the upstream). Asynchronous: the caller's traffic goes on.
		 */
		rollingRestart: (action, addr, { timeoutS = 60 } = {}) =>
			new Promise((resolve, reject) => {
				const nginx = [bin, ...args].join(' ');
				const argv = [ROLLING_RESTART, '--conf', site, '--nginx', nginx];
				argv.push('--pid', path.join(dir, 'nginx.pid'), '--timeout', String(timeoutS));
				execFile(
					'sh',
					[...argv, action, addr],
					{ timeout: (timeoutS * 2 + 10) * 1000 },
					(e, o, err) =>
						e
							? reject(
									new Error(`rolling-restart.sh ${action} ${addr} failed: ${err || e.message}`),
								)
							: resolve(err),
				);
			}),
		stop,
	};
}

/**
 * Runs Debian's nginx in the foreground on the configuration file `conf` (prefix `dir`, its logs in
 * `dir`/logs) once `nginx -t` accepts it, and waits until 127.0.0.1:`port` takes connections.
 * Returns {args, child, errorLog, stop()}.
 */
async function runNginx({ bin = H.ensureDebianCommand('nginx', 'nginx'), dir, conf, port, label }) {
	fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
	const errorLog = path.join(dir, 'logs', 'error.log');
	const args = ['-p', dir, '-c', conf, '-e', errorLog];
	const check = spawnSync(bin, [...args, '-t'], { encoding: 'utf8' });
	if (check.status !== 0)
		throw new Error(`nginx -t refused ${conf}:\n${check.stderr || check.stdout}`);
	const child = H.startProcess(label, bin, args, {
		env: process.env,
		logFile: path.join(dir, 'logs', 'nginx.log'),
	});
	await H.waitFor(`nginx to listen on 127.0.0.1:${port}`, () => H.portOpen(port), {
		timeoutMs: 20000,
		intervalMs: 200,
		child,
	});
	return {
		args,
		child,
		errorLog,
		stop: () => H.stopProcess(child, { graceMs: 5000, signal: 'SIGQUIT' }),
	};
}

module.exports = { RECIPE, SCRIPT, ROLLING_RESTART, render, startNginx, runNginx, ensureNjsModule };
