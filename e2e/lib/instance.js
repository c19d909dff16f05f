'use strict';
/**
 * One n8n instance with the package installed, pointing at a sandbox: set-up (install, import, publish)
 * and start / stop in regular mode or queue mode (main + worker + webhook processes with Redis).
 */
const fs = require('node:fs');
const path = require('node:path');

const H = require('./host');
const F = require('./fixtures');

/** The end (exclusive) of the JSON value that starts at `start` (log lines may follow it). */
function jsonEnd(text, start) {
	let depth = 0;
	let inString = false;
	for (let i = start; i < text.length; i++) {
		const c = text[i];
		if (inString) {
			if (c === '\\') i++;
			else if (c === '"') inString = false;
		} else if (c === '"') inString = true;
		else if (c === '{' || c === '[') depth++;
		else if (c === '}' || c === ']') {
			depth--;
			if (depth === 0) return i + 1;
		}
	}
	return text.length;
}

class Instance {
	constructor({ host, dir, tgz, sandbox, label = 'main', queue = false }) {
		Object.assign(this, { host, dir, tgz, sandbox, label, queue });
		this.userFolder = path.join(dir, 'user');
		this.logDir = path.join(dir, 'logs');
		this.procs = {};
	}

	/** `credentials`: more credentials to import beside the package's sandbox ones. */
	async setup({ workflows, publish = [], extraEnv = {}, port, credentials = [] } = {}) {
		fs.mkdirSync(this.userFolder, { recursive: true });
		this.port = port || (await H.freePort());
		this.webhookPort = this.queue ? await H.freePort() : this.port;
		this.webhookBase = `http://localhost:${this.webhookPort}/`;
		const extra = Object.assign({}, extraEnv);
		if (this.queue) {
			this.redisPort = await H.freePort();
			Object.assign(extra, {
				EXECUTIONS_MODE: 'queue',
				QUEUE_BULL_REDIS_HOST: '127.0.0.1',
				QUEUE_BULL_REDIS_PORT: String(this.redisPort),
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
				N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
			});
		}
		this.env = H.n8nEnv(this.host, {
			userFolder: this.userFolder,
			port: this.port,
			webhookUrl: this.webhookBase,
			extra,
		});
		this.installed = this.installed || H.installPackage(this.userFolder, this.tgz);
		const credFile = path.join(this.dir, 'credentials.json');
		fs.writeFileSync(
			credFile,
			JSON.stringify(
				[...F.credentials(this.sandbox.url, this.sandbox.keys), ...credentials],
				null,
				2,
			),
		);
		await H.cli(this.host, this.env, ['import:credentials', `--input=${credFile}`]);
		if (workflows && workflows.length) {
			const wfFile = path.join(this.dir, 'workflows.json');
			fs.writeFileSync(wfFile, JSON.stringify(workflows, null, 2));
			await H.cli(this.host, this.env, ['import:workflow', `--input=${wfFile}`]);
		}
		for (const id of publish) await H.cli(this.host, this.env, ['publish:workflow', `--id=${id}`]);
	}

	/** Node types n8n generated for the editor (the nodes panel) after it started. */
	nodeTypes() {
		const file = path.join(this.userFolder, '.cache', 'n8n', 'public', 'types', 'nodes.json');
		if (!fs.existsSync(file)) return undefined;
		return JSON.parse(fs.readFileSync(file, 'utf8')).map((n) => n.name);
	}

	log(name) {
		return path.join(this.logDir, `${name}.log`);
	}

	async start() {
		if (this.queue) {
			if (!this.procs.redis || this.procs.redis.exitCode !== null) {
				const redis = H.ensureRedis();
				this.procs.redis = H.startProcess(
					'redis-server',
					redis,
					[
						'--port',
						String(this.redisPort),
						'--bind',
						'127.0.0.1',
						'--save',
						'',
						'--appendonly',
						'no',
						'--daemonize',
						'no',
					],
					{ env: process.env, logFile: this.log('redis') },
				);
				await H.waitFor(
					'redis to accept connections',
					() =>
						new Promise((resolve) => {
							const s = require('node:net').connect(this.redisPort, '127.0.0.1', () => {
								s.end();
								resolve(true);
							});
							s.on('error', () => resolve(false));
						}),
					{ timeoutMs: 20000, child: this.procs.redis },
				);
			}
		}
		if (this.queue) {
			// The webhook process must be up before main activates the workflows: activation registers the
			// trigger's webhook, and the service's CRC GET goes to the webhook process.
			this.procs.worker = H.startN8n(
				this.host,
				Object.assign({}, this.env, {
					QUEUE_HEALTH_CHECK_PORT: String(await H.freePort()),
					N8N_RUNNERS_BROKER_PORT: String(await H.freePort()),
				}),
				'worker',
				this.log('n8n-worker'),
			);
			this.procs.webhook = H.startN8n(
				this.host,
				Object.assign({}, this.env, {
					N8N_PORT: String(this.webhookPort),
					N8N_RUNNERS_BROKER_PORT: String(await H.freePort()),
				}),
				'webhook',
				this.log('n8n-webhook'),
			);
			await H.waitForLog(this.procs.webhook, /Webhook listener waiting for requests/);
			await H.waitForLog(this.procs.worker, /n8n worker is now ready/);
		}
		this.procs.main = H.startN8n(
			this.host,
			Object.assign({}, this.env, { N8N_RUNNERS_BROKER_PORT: String(await H.freePort()) }),
			'start',
			this.log('n8n-main'),
		);
		await H.waitHealthy(this.port, this.procs.main);
		// /healthz answers before the active workflows are activated: wait for the end of start-up.
		await H.waitForLog(this.procs.main, /Editor is now accessible via/);
	}

	/** Stops n8n (not Redis). `hard` kills at once, like a crash. */
	async stopN8n({ hard = false } = {}) {
		for (const k of ['main', 'webhook', 'worker']) {
			if (this.procs[k])
				await H.stopProcess(this.procs[k], {
					signal: hard ? 'SIGKILL' : 'SIGTERM',
					graceMs: 20000,
				});
			delete this.procs[k];
		}
	}

	async stop() {
		await this.stopN8n();
		if (this.procs.redis) await H.stopProcess(this.procs.redis, { graceMs: 5000 });
		delete this.procs.redis;
	}

	/** `n8n execute --id --rawOutput` (a separate CLI process beside the running instance); returns the parsed output. */
	async execute(id) {
		const env = Object.assign({}, this.env, {
			N8N_RUNNERS_BROKER_PORT: String(await H.freePort()),
		});
		const out = await H.cli(this.host, env, ['execute', `--id=${id}`, '--rawOutput'], {
			timeoutMs: 240000,
		});
		const start = out.indexOf('{');
		if (start === -1) throw new Error(`n8n execute printed no JSON:\n${out.slice(-2000)}`);
		return JSON.parse(out.slice(start, jsonEnd(out, start)));
	}

	/** The workflow's static data as stored in n8n's SQLite database (read with Node 24's sqlite3). */
	staticData(workflowId) {
		const db = path.join(this.userFolder, '.n8n', 'database.sqlite');
		const script = `const s=require('sqlite3');const d=new s.Database(process.argv[1],s.OPEN_READONLY);d.get('select staticData from workflow_entity where id=?',[process.argv[2]],(e,r)=>{if(e){console.error(e.message);process.exit(1)}console.log(r&&r.staticData||'null');d.close()})`;
		const r = require('node:child_process').spawnSync(
			this.host.nodeBin,
			['-e', script, db, workflowId],
			{ cwd: this.host.cache, encoding: 'utf8', timeout: 30000 },
		);
		if (r.status !== 0) throw new Error(`reading static data failed: ${r.stderr}`);
		const text = r.stdout.trim();
		return text === 'null'
			? null
			: typeof JSON.parse(text) === 'string'
				? JSON.parse(JSON.parse(text))
				: JSON.parse(text);
	}

	webhookUrl(p) {
		return `http://127.0.0.1:${this.webhookPort}/webhook/${p}`;
	}

	/** Calls a harness workflow (Webhook start node, answers with the last node's items). */
	async call(p, body, method = 'POST') {
		return H.httpJson(method, this.webhookUrl(p), method === 'GET' ? undefined : body || {});
	}

	logTails(lines = 60) {
		const out = [];
		for (const name of ['n8n-main', 'n8n-worker', 'n8n-webhook', 'redis']) {
			const f = this.log(name);
			if (fs.existsSync(f))
				out.push(
					`----- ${this.label} ${name} (last ${lines} lines of ${f}) -----\n${H.tail(f, lines)}`,
				);
		}
		return out.join('\n');
	}
}

module.exports = { Instance };
