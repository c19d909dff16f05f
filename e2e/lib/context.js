'use strict';
/** What each e2e test gets: the instance, the sandbox, node/operation probes, sinks, records, asserts. */
const assert = require('node:assert/strict');
const path = require('node:path');

const H = require('./host');
const F = require('./fixtures');

function makeContext({ inst, sandbox, mode }) {
	const descriptions = {};
	function describe(nodeName) {
		if (descriptions[nodeName] === undefined)
			descriptions[nodeName] = F.describeInstalled(inst.installed.pkgDir, nodeName);
		return descriptions[nodeName];
	}
	/** 'platformPosts' or 'platformPosts:user.getMe' (resource.operation as in the node's options). */
	function has(need) {
		const [nodeName, op] = need.split(':');
		const d = describe(nodeName);
		if (!d) return false;
		if (!op) return true;
		const [resource, operation] = op.split('.');
		const props = d.properties || [];
		const res = props.find((p) => p.name === 'resource');
		if (res && !(res.options || []).some((o) => o.value === resource)) return false;
		return props.some(
			(p) =>
				p.name === 'operation' &&
				(!p.displayOptions ||
					!p.displayOptions.show ||
					!p.displayOptions.show.resource ||
					p.displayOptions.show.resource.includes(resource)) &&
				(p.options || []).some((o) => o.value === operation),
		);
	}
	const deferred = [];
	const ctx = {
		mode,
		inst,
		sandbox,
		keys: sandbox.keys,
		F,
		H,
		assert,
		has,
		describe,
		sink: (name) => (sandbox.sinks && sandbox.sinks[name]) || [],
		/** Runs recorded by a sink, counted by event id. */
		runCounts(name) {
			const counts = {};
			for (const item of ctx.sink(name)) {
				const id = F.eventIdOf(item.body);
				counts[id] = (counts[id] || 0) + 1;
			}
			return counts;
		},
		clearSink: (name) => {
			if (sandbox.sinks) delete sandbox.sinks[name];
		},
		seq: () => sandbox.seq,
		/** Recorded API requests after `since` (sequence number), optionally filtered by path substring. */
		records: (since = 0, pathPart) =>
			sandbox.records.filter((r) => r.seq > since && (!pathPart || r.path.includes(pathPart))),
		/** Every platform / ads request after `since` carried a valid signature or token. */
		assertAllAuthValid(since, kind) {
			const rows = sandbox.records.filter((r) => r.seq > since && !r.path.startsWith('/_sandbox'));
			assert.ok(rows.length > 0, 'the workflow made no request to the sandbox');
			for (const r of rows) {
				assert.ok(
					r.auth && r.auth.valid,
					`request #${r.seq} ${r.method} ${r.path} was not authenticated: ${JSON.stringify(r.auth)} -> ${r.status}`,
				);
				if (kind)
					assert.equal(
						r.auth.kind,
						kind,
						`request #${r.seq} ${r.method} ${r.path} used ${r.auth.kind}, expected ${kind}`,
					);
			}
			return rows;
		},
		/** Runs `fn` when the run ends (after n8n stopped): closes what a test's prepare() started. */
		defer: (fn) => deferred.push(fn),
		async closeDeferred() {
			while (deferred.length) {
				try {
					await deferred.pop()();
				} catch (error) {
					H.log(`closing a test's service failed: ${error && error.message}`);
				}
			}
		},
		waitFor: H.waitFor,
		sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
		/** Calls a harness workflow and returns its items (the JSON of the last node's output). */
		async call(webhookPath, body) {
			// n8n activates published workflows in the background after start-up: wait for the webhook.
			let r;
			const deadline = Date.now() + 60000;
			for (;;) {
				r = await inst.call(webhookPath, body);
				if (!(r.status === 404 && /is not registered/.test(r.text)) || Date.now() > deadline) break;
				await new Promise((res) => setTimeout(res, 1000));
			}
			if (r.status !== 200)
				throw new Error(`workflow ${webhookPath} answered ${r.status}: ${r.text.slice(0, 800)}`);
			return r.json;
		},
		sandboxUrl: sandbox.url,
		/** Executions the queue-mode workers have started so far (from their logs). */
		workerExecutions() {
			const fs = require('node:fs');
			let n = 0;
			for (let i = 0; i < Math.max(1, inst.workerCount || 0); i++) {
				const f = inst.log(`n8n-${inst.workerName(i)}`);
				if (fs.existsSync(f))
					n += (fs.readFileSync(f, 'utf8').match(/Worker started execution/g) || []).length;
			}
			return n;
		},
	};
	return ctx;
}

module.exports = { makeContext };
