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
const { spawnSync } = require('node:child_process');

const H = require('./host');

const RECIPE = path.join(H.ROOT, 'deploy', 'nginx', 'platform-webhooks.conf');
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
 * Starts nginx on 127.0.0.1:`port` in front of n8n at `upstreams` (["127.0.0.1:5678", ...]), with
 * `serviceRanges` (["127.0.0.1/32"]) as the service's allow-list. Returns {url, port, child, conf,
 * stop()}.
 */
async function startNginx({ dir, port, upstreams, serviceRanges }) {
	const bin = H.ensureDebianCommand('nginx', 'nginx');
	fs.mkdirSync(path.join(dir, 'temp'), { recursive: true });
	fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
	const site = path.join(dir, 'platform-webhooks.conf');
	fs.writeFileSync(
		site,
		render({
			'service-ranges': serviceRanges.map((r) => `${r} 0;`),
			upstream: upstreams.map((u) => `server ${u};`),
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
			'daemon off;',
			'worker_processes 1;',
			`pid ${path.join(dir, 'nginx.pid')};`,
			`error_log ${path.join(dir, 'logs', 'error.log')} warn;`,
			'events { worker_connections 4096; }',
			'http {',
			// The flood's refusals (thousands a second) are counted by its clients; the log keeps the rest.
			'    map $status $platform_logged { 429 0; default 1; }',
			`    access_log ${path.join(dir, 'logs', 'access.log')} combined buffer=64k flush=1s if=$platform_logged;`,
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
	const args = ['-p', dir, '-c', conf, '-e', path.join(dir, 'logs', 'error.log')];
	const check = spawnSync(bin, [...args, '-t'], { encoding: 'utf8' });
	if (check.status !== 0)
		throw new Error(`nginx -t refused ${conf}:\n${check.stderr || check.stdout}`);
	const child = H.startProcess('nginx', bin, args, {
		env: process.env,
		logFile: path.join(dir, 'logs', 'nginx.log'),
	});
	await H.waitFor(
		`nginx to listen on 127.0.0.1:${port}`,
		() =>
			new Promise((resolve) => {
				const s = require('node:net').connect(port, '127.0.0.1', () => {
					s.end();
					resolve(true);
				});
				s.on('error', () => resolve(false));
			}),
		{ timeoutMs: 20000, intervalMs: 200, child },
	);
	return {
		url: `http://127.0.0.1:${port}`,
		port,
		child,
		conf,
		site,
		errorLog: path.join(dir, 'logs', 'error.log'),
		stop: () => H.stopProcess(child, { graceMs: 5000, signal: 'SIGQUIT' }),
	};
}

module.exports = { RECIPE, render, startNginx };
