'use strict';
/**
 * The package the way a user gets it: published to a registry and installed, updated and removed
 * through n8n's own Community Nodes installer (the REST endpoints behind Settings → Community nodes),
 * in an n8n instance of its own that starts without the package. The registry is verdaccio from npm
 * (no uplinks) holding the packed tarball and a copy with the next patch version; n8n's npm reaches it
 * through its npm configuration (e2e/lib/registry.js says how).
 *
 * install → the nodes and credentials are in the editor's node types, nothing is installed beside the
 * package (zod and n8n-workflow come from n8n), every example imports with no unknown node, the trigger
 * example activates and runs on a signed event → update to the next version → the workflows and
 * credentials are unchanged and the trigger example runs again → uninstall → restart: n8n starts clean.
 */
const fs = require('node:fs');
const path = require('node:path');

const F = require('../lib/fixtures');
const H = require('../lib/host');
const R = require('../lib/registry');
const { Instance } = require('../lib/instance');
const { session } = require('../lib/rest');

const OWNER = {
	email: 'installer@example.com',
	firstName: 'In',
	lastName: 'Staller',
	password: 'Installer-Owner-1',
};

/** n8n's REST API as the editor calls it, logged in as the owner: api(method, path, body). */
const restApi = async (port) => (await session(port, OWNER)).call;

/** What a saved workflow is made of (n8n adds ids and timestamps around it). */
const shape = (wf) => ({
	nodes: wf.nodes.map((n) => ({
		name: n.name,
		type: n.type,
		typeVersion: n.typeVersion,
		parameters: n.parameters,
		credentials: n.credentials,
	})),
	connections: wf.connections,
});

function nextPatch(version) {
	const [major, minor, patch] = version.split('-')[0].split('.').map(Number);
	return `${major}.${minor}.${patch + 1}`;
}

module.exports = [
	{
		name: "installer: install from a registry through n8n's Community Nodes API, update, uninstall, clean restart",
		modes: ['regular'],
		timeoutMs: 600000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			const host = ctx.inst.host;
			const dir = path.join(path.dirname(ctx.inst.dir), 'installer');
			const manifest = JSON.parse(fs.readFileSync(path.join(H.ROOT, 'package.json'), 'utf8'));
			const name = manifest.name;
			const v0 = manifest.version;
			const v1 = nextPatch(v0);
			const ours = (types) => types.filter((t) => t.startsWith(`${name}.`));
			const stopping = [];
			try {
				const registry = await R.startRegistry(host, path.join(dir, 'registry'));
				stopping.push(registry);
				registry.publish(ctx.inst.tgz);
				registry.publish(R.withVersion(ctx.inst.tgz, v1, path.join(dir, 'pack')));
				const proxy = await R.registryProxy(registry.port, path.join(dir, 'proxy'));
				stopping.push(proxy);

				const inst = new Instance({ host, dir, tgz: ctx.inst.tgz, sandbox, label: 'installer' });
				inst.installed = { viaRegistry: true }; // nothing pre-installed: n8n's installer does it
				stopping.unshift(inst);
				await inst.setup({});
				proxy.applyTo(inst.env);
				await inst.start();
				const api = await restApi(inst.port);
				const nodesDir = path.join(inst.userFolder, '.n8n', 'nodes');
				// The node types the editor loads (GET /types/nodes.json, behind the login).
				const nodeTypes = async (call = api) => call('GET', '/types/nodes.json');
				assert.deepEqual(
					ours((await nodeTypes()).map((t) => t.name)),
					[],
					'n8n starts without the package',
				);

				// Install, as Settings → Community nodes → Install does.
				const installed = await api('POST', '/rest/community-packages', { name, version: v0 });
				assert.equal(installed.packageName, name);
				assert.equal(installed.installedVersion, v0);
				const expectedTypes = manifest.n8n.nodes.length;
				assert.equal(
					installed.installedNodes.length,
					expectedTypes,
					JSON.stringify(installed.installedNodes),
				);
				assert.ok(
					proxy.requests.some((r) => r.endsWith(`/${name}-${v0}.tgz`)),
					`n8n's npm fetched the tarball from the local registry: ${proxy.requests.join(', ')}`,
				);
				const pkgDir = path.join(nodesDir, 'node_modules', name);
				assert.equal(
					JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version,
					v0,
				);
				assert.deepEqual(
					fs.readdirSync(path.join(nodesDir, 'node_modules')).filter((f) => !f.startsWith('.')),
					[name],
					'the installer put nothing beside the package: zod and n8n-workflow come from n8n',
				);
				assert.ok(
					!fs.existsSync(path.join(pkgDir, 'node_modules')),
					'no node_modules inside the package',
				);

				const types = await ctx.waitFor(
					"the package's nodes in the editor's node types",
					async () => {
						const t = await nodeTypes();
						return ours(t.map((x) => x.name)).length >= expectedTypes && t;
					},
					{ timeoutMs: 60000 },
				);
				for (const t of installed.installedNodes)
					assert.ok(
						types.some((x) => x.name === t.type),
						`${t.type} is not in the node types`,
					);
				// Every credential of the package, by its type name (the class name, first letter lower case).
				const credentialTypes = (await api('GET', '/types/credentials.json')).map((x) => x.name);
				for (const file of manifest.n8n.credentials) {
					const cls = path.basename(file, '.credentials.js');
					const type = cls[0].toLowerCase() + cls.slice(1);
					assert.ok(
						credentialTypes.includes(type),
						`credential type ${type} is not in the editor's credential types: ${credentialTypes.filter((t) => /^platform/i.test(t)).join(', ')}`,
					);
				}

				// Every example imports and names only node types and versions n8n knows.
				const known = (type, version) =>
					types.some((x) => x.name === type && [].concat(x.version).includes(version));
				const ids = {};
				for (const ex of F.sandboxExamples(sandbox.url)) {
					const unknown = ex.nodes.filter((n) => !known(n.type, n.typeVersion));
					assert.deepEqual(
						unknown.map((n) => `${n.type}@${n.typeVersion}`),
						[],
						`${ex.file}: unknown nodes`,
					);
					const created = await api('POST', '/rest/workflows', {
						name: ex.name,
						nodes: ex.nodes,
						connections: ex.connections,
						settings: ex.settings || {},
					});
					ids[ex.id] = created.id;
				}

				// The trigger example activates, registers its webhook and runs on a signed event.
				const triggerId = ids.exPostToAdPost01;
				assert.ok(triggerId, 'the trigger example was imported');
				const webhookId = F.uuidFrom('example:post-to-ad-post:trigger');
				const ownHook = () =>
					[...sandbox.db.webhooks.values()].find(
						(w) =>
							w.url.includes(webhookId) &&
							w.url.includes(`:${inst.webhookPort}/`) &&
							[...sandbox.db.subscriptions.values()].some((s) => s.webhook_id === w.id),
					);
				const before = await api('GET', `/rest/workflows/${triggerId}`);
				await api('POST', `/rest/workflows/${triggerId}/activate`, { versionId: before.versionId });
				const runsOnEvent = async (text) => {
					const hook = await ctx.waitFor('the trigger example to hold its webhook', ownHook, {
						timeoutMs: 90000,
					});
					const count = sandbox.db.ads.scheduled.size;
					const [e] = await sandbox.emit({
						event_type: 'post.create',
						text,
						webhook_id: hook.id,
						media: true,
					});
					assert.equal(e.deliveries[0].status, 200, JSON.stringify(e.deliveries));
					const post = await ctx.waitFor(
						`the scheduled ad post for "${text}"`,
						() =>
							sandbox.db.ads.scheduled.size > count && [...sandbox.db.ads.scheduled.values()].pop(),
						{ timeoutMs: 90000 },
					);
					assert.equal(post.text, text);
				};
				await runsOnEvent('Installed through the Community Nodes installer');
				const workflowsBefore = {};
				for (const id of Object.values(ids))
					workflowsBefore[id] = shape(await api('GET', `/rest/workflows/${id}`));
				const credentialsBefore = (await api('GET', '/rest/credentials'))
					.map((c) => `${c.id} ${c.type} ${c.name}`)
					.sort();

				// Update, as the Update button does (to the newest version in the registry).
				const updated = await api('PATCH', '/rest/community-packages', { name });
				assert.equal(updated.installedVersion, v1);
				assert.equal(
					JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version,
					v1,
				);
				const listed = await api('GET', '/rest/community-packages');
				assert.deepEqual(
					listed.map((p) => `${p.packageName}@${p.installedVersion}`),
					[`${name}@${v1}`],
				);
				for (const id of Object.values(ids))
					assert.deepEqual(
						shape(await api('GET', `/rest/workflows/${id}`)),
						workflowsBefore[id],
						`workflow ${id} changed with the update`,
					);
				assert.deepEqual(
					(await api('GET', '/rest/credentials')).map((c) => `${c.id} ${c.type} ${c.name}`).sort(),
					credentialsBefore,
				);
				const afterUpdate = await api('GET', `/rest/workflows/${triggerId}`);
				assert.ok(
					afterUpdate.active || afterUpdate.activeVersionId,
					'the trigger example is still active',
				);
				await runsOnEvent('Still running after the update');

				// Uninstall (the trigger workflow deactivated first, as n8n asks), then a restart.
				await api('POST', `/rest/workflows/${triggerId}/deactivate`, {
					versionId: (await api('GET', `/rest/workflows/${triggerId}`)).versionId,
				});
				// n8n deactivates in the background: the trigger (of the updated package) removes its
				// webhook from the service; only then is the package removed (else n8n, finding no node
				// type, abandons the webhook on the service).
				const anyOwnWebhook = () =>
					[...sandbox.db.webhooks.values()].some(
						(w) => w.url.includes(webhookId) && w.url.includes(`:${inst.webhookPort}/`),
					);
				await ctx.waitFor('the trigger example to remove its webhook', () => !anyOwnWebhook(), {
					timeoutMs: 60000,
				});
				await api('DELETE', `/rest/community-packages?name=${encodeURIComponent(name)}`);
				assert.deepEqual(await api('GET', '/rest/community-packages'), []);
				assert.ok(!fs.existsSync(pkgDir), 'the package folder is gone');
				await inst.stopN8n();
				const logFile = inst.log('n8n-main');
				const logStart = fs.statSync(logFile).size;
				await inst.start();
				const restartLog = fs.readFileSync(logFile, 'utf8').slice(logStart);
				// The harness's own cache folder carries the package's name in its path: not a mention.
				const complaints = restartLog
					.split('\n')
					.map((l) => l.split(path.dirname(host.cache)).join('<cache>'))
					.filter(
						(l) => /error|fail|unrecognized|not installed|missing/i.test(l) && l.includes(name),
					);
				assert.deepEqual(complaints, [], 'n8n complained about the removed package at start');
				const api2 = await restApi(inst.port);
				assert.deepEqual(await api2('GET', '/rest/community-packages'), []);
				assert.deepEqual(
					ours((await nodeTypes(api2)).map((t) => t.name)),
					[],
					'no node of the package is left',
				);
				H.log(
					`installer: ${name}@${v0} installed, updated to ${v1}, uninstalled; registry requests: ${proxy.requests.length}`,
				);
			} finally {
				for (const s of stopping) await s.stop().catch(() => {});
			}
		},
	},
];
