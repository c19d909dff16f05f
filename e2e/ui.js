#!/usr/bin/env node
'use strict';
/**
 * `npm run test:ui`: what a non-developer sees in the n8n editor, checked in a real n8n 2.40.7 driven
 * by Debian's Chromium (puppeteer-core; no browser download).
 *
 * Starts what `npm start` starts (package built and installed as a community package, the platform
 * sandbox, credentials and the example workflows imported, the trigger example published), in its own
 * folder and on free ports, logs in as the demo owner, then:
 *  - searches the node panel for "Platform": one Platform Posts entry (the trigger's triggers are listed
 *    with its actions, no separate trigger entry), and the Platform Ads Catalog / Ads Creatives entries;
 *  - opens each entry: no action name with "a" before a vowel sound, none ending in "medias", the
 *    triggers (Platform Trigger, Poll Trigger, Activity Stream Trigger) shown with the Platform Posts
 *    actions;
 *  - searches the node panel for what users type ("post", "new post", "ad post", "twitter", "X",
 *    "activity stream"): each finds the entry of ours it should (and prints where it ranks);
 *  - opens each example, and a poll trigger workflow: every node of the package shows a subtitle
 *    without camelCase or dotted values, and no field's mode dropdown cuts its value off;
 *  - every output schema of ours the editor asks for is shipped (no 404), and the editor receives
 *    those of Ads Creatives, of each Platform Trigger version, of the Poll Trigger, of the Activity
 *    Stream Trigger (a node of ours placed after each) and of a Platform Posts 1.1 operation;
 *  - Platform Posts 1.1's Revoke App Bearer Token shows the App-Only Bearer credential beside the
 *    OAuth1 one, other operations and version 1 do not, and App-Only Bearer stays one of the sign-ins
 *    the Credential selector offers;
 *  - saves screenshots of the node panel and of one open node per node type under .ui-screenshots/.
 *
 * Environment: UI_WORK (work folder, default <tmp>/n8n-nodes-platform-ui), UI_SHOTS (screenshot folder,
 * default .ui-screenshots), UI_KEEP=1 (leave n8n and the sandbox running until Ctrl-C), CHROMIUM (path).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const H = require('./lib/host');
const F = require('./lib/fixtures');
const { createSandbox } = require('../sandbox/server');
const { followFirstWorkflow, verifyFirstWorkflow } = require('./lib/firstWorkflow');

const WORK = process.env.UI_WORK || path.join(os.tmpdir(), 'n8n-nodes-platform-ui');
const SHOTS = path.resolve(H.ROOT, process.env.UI_SHOTS || '.ui-screenshots');
const OWNER = {
	email: 'owner@sandbox.local',
	firstName: 'Sandbox',
	lastName: 'Owner',
	password: 'Sandbox-Owner-1',
};
const PLATFORM = 'Platform';
/** Platform Trigger versions whose shipped output schema (__schema__/v<version>.0.0.json) the editor must receive. */
const TRIGGER_SCHEMA_VERSIONS = [1, 2, 3];
/**
 * Other output schemas the editor must receive: a Platform Posts operation at the version a new
 * workflow gets (asked for by the second Platform Posts node of the trigger workflows), the Poll
 * Trigger's and the Activity Stream Trigger's (asked for by the Platform Posts node after each).
 */
const OTHER_SCHEMAS = [
	['Platform Posts 1.1, Post > Get', `/schemas/${F.T.posts}/1.1.0/post/get.json`],
	['the Poll Trigger', `/schemas/${F.PKG}.platformPostsTrigger/1.2.0.json`],
	['the Activity Stream Trigger', `/schemas/${F.PKG}.platformPostTriggers/1.0.0.json`],
];
/** The workflow of the Platform Posts credential selector checks (Revoke App Bearer Token, versions 1 and 1.1). */
const REVOKE_WF = 'uiRevokeBearer01';

/** Finds or installs Debian's chromium (CI runs as root on a fresh machine), as host.js does for redis. */
function ensureChromium() {
	const candidates = [
		process.env.CHROMIUM,
		'/usr/bin/chromium',
		'/usr/bin/chromium-browser',
	].filter(Boolean);
	for (const p of candidates) if (fs.existsSync(p)) return p;
	H.log('installing chromium with apt-get (Debian package)');
	const sudo = process.getuid && process.getuid() !== 0 ? ['sudo', '-n', 'apt-get'] : ['apt-get'];
	const env = Object.assign({}, process.env, { DEBIAN_FRONTEND: 'noninteractive' });
	for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']]) {
		const r = spawnSync(sudo[0], [...sudo.slice(1), ...args], {
			stdio: 'inherit',
			env,
			timeout: 900000,
		});
		if (r.status !== 0) throw new Error(`apt-get ${args[0]} failed`);
	}
	return '/usr/bin/chromium';
}

const failures = [];
function check(ok, what) {
	console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
	if (!ok) failures.push(what);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Texts of every element matching the selector, trimmed. */
async function texts(page, selector) {
	return await page.$$eval(selector, (els) =>
		els.map((e) => (e.textContent || '').replace(/\s+/g, ' ').trim()),
	);
}

async function shot(page, name) {
	const file = path.join(SHOTS, `${name}.png`);
	await page.screenshot({ path: file });
	console.log(`  screenshot ${path.relative(H.ROOT, file)}`);
}

const CREATOR_INPUT =
	'[data-test-id="node-creator-search-bar"] input, [data-test-id="node-creator"] input';

async function searchCreator(page, query) {
	// Focus and select through the DOM: the panel may still be sliding in, when a mouse click can miss.
	await page.waitForSelector(CREATOR_INPUT, { visible: true });
	await sleep(500);
	const input = await page.$(CREATOR_INPUT);
	await input.evaluate((e) => {
		e.focus();
		e.select();
	});
	await input.type(query);
	await sleep(800);
}

/**
 * Opens the node panel as the next step of the open workflow, on its first view: the panel of an
 * earlier search is closed first (Escape), without loading the page again.
 */
async function openNextStepCreator(page) {
	if (await page.$('[data-test-id="node-creator"]')) {
		await page.keyboard.press('Escape');
		await page
			.waitForSelector('[data-test-id="node-creator"]', { hidden: true, timeout: 5000 })
			.catch(() => {});
	}
	await page.click('[data-test-id="node-creator-plus-button"]');
	await page.waitForSelector(CREATOR_INPUT, { visible: true });
}

/**
 * Opens a saved workflow the way the editor's own links do (its router), so that the editor is not
 * loaded again for each one (a page load fetches and parses every node type); a full page load where
 * the router is not reachable. Waits until the workflow's nodes are on the canvas.
 */
async function openWorkflow(page, base, wf) {
	// The canvas shows this workflow's nodes, not the last one's (several share node names): every
	// node but its sticky notes, and none it does not have.
	const wanted = wf.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote').map((n) => n.name);
	const all = wf.nodes.map((n) => n.name);
	const shown = (timeout) =>
		page
			.waitForFunction(
				(id, names, allNames) => {
					if (!location.pathname.endsWith(`/workflow/${id}`)) return false;
					const onCanvas = [...document.querySelectorAll('[data-test-id="canvas-node"]')].map((e) =>
						e.getAttribute('data-node-name'),
					);
					return (
						names.every((n) => onCanvas.includes(n)) && onCanvas.every((n) => allNames.includes(n))
					);
				},
				{ timeout },
				wf.id,
				wanted,
				all,
			)
			.then(() => true)
			.catch(() => false);
	const routed = await page
		.evaluate((id) => {
			const app = document.querySelector('#app')?.__vue_app__;
			const router = app?.config?.globalProperties?.$router;
			if (!router) return false;
			void router.push(`/workflow/${id}`);
			return true;
		}, wf.id)
		.catch(() => false);
	if (routed && (await shown(10000))) {
		await sleep(500);
		return;
	}
	await page.goto(`${base}/workflow/${wf.id}`, { waitUntil: 'networkidle2' });
	await page.waitForSelector('[data-test-id="canvas-node"]');
	await shown(15000);
	await sleep(500);
}

/** Entries of the node panel's current list (node names, or action names inside an app). */
async function creatorItems(page) {
	return await page.$$eval(
		'[data-test-id="node-creator"] [data-test-id="item-iterator-item"]',
		(els) =>
			els.map((e) =>
				(
					e.querySelector('[class*="title"], [data-test-id="node-creator-item-name"]')
						?.textContent ||
					e.textContent ||
					''
				)
					.replace(/\s+/g, ' ')
					.trim(),
			),
	);
}

async function clickCreatorItem(page, name) {
	const handles = await page.$$(
		'[data-test-id="node-creator"] [data-test-id="item-iterator-item"]',
	);
	for (const h of handles) {
		const t = await h.evaluate((e) => (e.textContent || '').replace(/\s+/g, ' ').trim());
		if (t.startsWith(name)) {
			await h.click();
			await sleep(800);
			return true;
		}
	}
	return false;
}

/** "a" before a vowel sound ("a image"), not before the "you" sound of user, usage, unique ("a user's"). */
function badActionName(name) {
	return /\ba (?!us[aeir]|uni)[aeiou]/i.test(name) || /medias\b/i.test(name);
}

/** Opens a node's panel on the open canvas. */
async function openNodePanel(page, nodeName) {
	const el = await page.$(`[data-test-id="canvas-node"][data-node-name="${nodeName}"]`);
	if (!el) return false;
	await el.click({ count: 2 });
	await page.waitForSelector('[data-test-id="ndv"]', { timeout: 30000 });
	await sleep(1500);
	return true;
}

/** The credential selectors of the open panel: each one's label and chosen credential (or placeholder). */
async function credentialSlots(page) {
	return await page.$$eval('[data-test-id="ndv"] [data-test-id="node-credentials-slot"]', (els) =>
		els.map((e) => {
			const label = (e.querySelector('label')?.textContent || '').replace(/\s+/g, ' ').trim();
			const input = e.querySelector('input');
			return `${label}: ${input ? input.value || input.placeholder : (e.textContent || '').trim()}`;
		}),
	);
}

/**
 * UI_ONLY=<group>[,<group>] runs only those groups of checks (first-workflow, panel, examples,
 * credentials): a maintainer's quicker loop. CI runs them all.
 */
const ONLY = (process.env.UI_ONLY || '').split(',').filter(Boolean);
const want = (group) => !ONLY.length || ONLY.includes(group);
let groupStarted = Date.now();
/** Logs how long the group of checks that just ended took (the editor test's time budget). */
function groupDone(group) {
	console.log(`  -- ${group}: ${Math.round((Date.now() - groupStarted) / 1000)} s`);
	groupStarted = Date.now();
}

async function runBrowserChecks(port, examples, chromium, sandbox) {
	const puppeteer = require('puppeteer-core');
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-nodes-platform-ui-chromium-'));
	const browser = await puppeteer.launch({
		executablePath: chromium,
		headless: true,
		userDataDir: profile,
		args: [
			'--headless',
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			`--user-data-dir=${profile}`,
			'--window-size=1440,900',
		],
		defaultViewport: { width: 1440, height: 900 },
	});
	const base = `http://localhost:${port}`;
	try {
		const page = await browser.newPage();
		page.setDefaultTimeout(30000);
		// The output schemas the editor asks for (shown as the next node's input before a run).
		const schemaRequests = new Map();
		// The panel open when the editor asked (its answers are cached: each path is asked for once).
		let openPanel = '';
		page.on('response', (r) => {
			const u = new URL(r.url());
			if (u.pathname.startsWith('/schemas/') && !schemaRequests.has(u.pathname))
				schemaRequests.set(u.pathname, { status: r.status(), panel: openPanel });
		});

		// ---- log in through the sign-in form ----
		await page.goto(`${base}/signin`, { waitUntil: 'networkidle2' });
		await page.waitForSelector(
			'input[type="email"], input[name="emailOrLdapLoginId"], input[name="email"]',
		);
		await page.type(
			'input[type="email"], input[name="emailOrLdapLoginId"], input[name="email"]',
			OWNER.email,
		);
		await page.type('input[type="password"]', OWNER.password);
		await page.keyboard.press('Enter');
		await page.waitForFunction(() => !location.pathname.startsWith('/signin'), { timeout: 60000 });
		check(true, `logged in as ${OWNER.email}`);

		// ---- the README's first workflow, step by step (its last promise is checked at the end) ----
		const ui = { check, shot, searchCreator, clickCreatorItem };
		groupStarted = Date.now();
		const first = want('first-workflow')
			? await followFirstWorkflow(page, base, sandbox, ui)
			: undefined;
		groupDone('first workflow');

		if (want('panel')) {
			// ---- node panel, trigger mode (a new workflow's first step) ----
			await page.goto(`${base}/workflow/new`, { waitUntil: 'networkidle2' });
			await page.waitForSelector('[data-test-id="canvas-add-button"]');
			await sleep(1000);
			await page.click('[data-test-id="canvas-add-button"]');
			await page.waitForSelector(CREATOR_INPUT);
			await searchCreator(page, PLATFORM);
			const firstStep = (await creatorItems(page)).filter((e) =>
				e.toLowerCase().includes('platform'),
			);
			console.log(`  first step, search "${PLATFORM}": ${JSON.stringify(firstStep)}`);
			await shot(page, 'node-panel-first-step-search-platform');
			check(
				firstStep.filter((e) => e.startsWith('Platform Posts')).length === 1,
				'first step: one Platform Posts entry',
			);
			check(
				!firstStep.some((e) => /^Platform (Trigger|Poll|Activity Stream)/.test(e)),
				'first step: no separate entry of a Platform trigger',
			);
			// The entry's description (n8n gives the merged entry one of its triggers' descriptions) names
			// the three triggers.
			const entryText = (
				await texts(page, '[data-test-id="node-creator"] [data-test-id="item-iterator-item"]')
			).find((t) => t.startsWith('Platform Posts'));
			console.log(`  first step, the Platform Posts entry: ${JSON.stringify(entryText)}`);
			check(
				['Platform Trigger', 'Activity Stream Trigger', 'Platform Poll Trigger'].every((name) =>
					(entryText || '').includes(name),
				),
				'the Platform Posts entry names the three triggers',
			);
			check(await clickCreatorItem(page, 'Platform Posts'), 'first step: opened Platform Posts');
			const triggerView = await page.$eval('[data-test-id="node-creator"]', (e) => e.innerText);
			const triggerItems = await creatorItems(page);
			console.log(`  first step, Platform Posts: ${JSON.stringify(triggerItems.slice(0, 6))} ...`);
			await shot(page, 'node-panel-first-step-platform-posts');
			check(
				!/No .*Triggers available/i.test(triggerView),
				'Platform Posts does not say "No ... Triggers available"',
			);
			check(
				triggerItems.some((a) => /^On account activity/.test(a)) &&
					triggerItems.some((a) => /^On new post matching search rules/.test(a)),
				"Platform Posts lists the Platform Trigger's triggers",
			);
			check(
				triggerItems.some((a) => /^On account activity over a stream/.test(a)),
				"Platform Posts lists the Activity Stream Trigger's trigger",
			);
			check(/Actions/i.test(triggerView), 'Platform Posts shows its actions beside the triggers');

			// ---- node panel, next step (in an example): every app and its actions ----
			const allActions = {};
			await page.goto(`${base}/workflow/${examples[0].id}`, { waitUntil: 'networkidle2' });
			await page.waitForSelector('[data-test-id="canvas-node"]');
			await sleep(1000);
			for (const app of ['Platform Posts', 'Platform Ads Catalog', 'Platform Ads Creatives']) {
				await openNextStepCreator(page);
				await searchCreator(page, PLATFORM);
				if (app === 'Platform Posts') {
					const entries = (await creatorItems(page)).filter((e) =>
						e.toLowerCase().includes('platform'),
					);
					console.log(`  next step, search "${PLATFORM}": ${JSON.stringify(entries)}`);
					await shot(page, 'node-panel-search-platform');
					check(
						entries.filter((e) => e.startsWith('Platform Posts')).length === 1,
						'one Platform Posts entry',
					);
					check(
						!entries.some((e) => /^Platform (Trigger|Poll|Activity Stream)/.test(e)),
						'no separate entry of a Platform trigger (the triggers are under Platform Posts)',
					);
					check(
						entries.some((e) => e.startsWith('Platform Ads Catalog')),
						'Platform Ads Catalog found by the platform name',
					);
					check(
						entries.some((e) => e.startsWith('Platform Ads Creatives')),
						'Platform Ads Creatives found by the platform name',
					);
				}
				check(await clickCreatorItem(page, app), `opened ${app} in the node panel`);
				const actions = (await creatorItems(page)).filter(Boolean);
				allActions[app] = actions;
				console.log(`  ${app}: ${actions.length} actions`);
				await shot(page, `node-panel-${app.toLowerCase().replace(/\s+/g, '-')}`);
				check(actions.length > 0, `${app}: actions listed`);
				const bad = actions.filter(badActionName);
				check(
					bad.length === 0,
					`${app}: no action name with "a" before a vowel or ending in "medias"${bad.length ? ` (${bad.join('; ')})` : ''}`,
				);
			}
			allActions['Platform Posts (first step)'] = triggerItems;

			// ---- node panel, what users type ----
			const searches = [
				['post', 'Platform Posts'],
				['new post', 'Platform Posts'],
				['ad post', 'Platform Ads Creatives'],
				['twitter', 'Platform Posts'],
				['X', 'Platform Posts'],
				['activity stream', 'Platform Posts'],
			];
			for (const [query, expected] of searches) {
				await openNextStepCreator(page);
				await searchCreator(page, query);
				const entries = await creatorItems(page);
				const rank = entries.findIndex((e) => e.startsWith(expected)) + 1;
				console.log(
					`  search "${query}": ${expected} ${rank ? `#${rank}` : 'not found'} of ${entries.length} (${JSON.stringify(entries.slice(0, 10))})`,
				);
				await shot(page, `node-panel-search-${query.replace(/\s+/g, '-').toLowerCase()}`);
				check(rank > 0, `search "${query}" finds ${expected}`);
			}
			fs.writeFileSync(path.join(SHOTS, 'actions.json'), JSON.stringify(allActions, null, 2));
			groupDone('node panel');
		}

		if (want('examples')) {
			// ---- every example: subtitles, and one open node per node type ----
			const panelShot = new Set();
			for (const wf of examples) {
				await openWorkflow(page, base, wf);
				const slug = wf.file ? path.basename(wf.file, '.json') : wf.id;
				await shot(page, `canvas-${slug}`);
				for (const node of wf.nodes.filter((n) => n.type.startsWith(`${F.PKG}.`))) {
					const el = await page.$(`[data-test-id="canvas-node"][data-node-name="${node.name}"]`);
					const subtitle = el
						? await el.evaluate((e) =>
								(e.querySelector('[class*="subtitle"]')?.textContent || '').trim(),
							)
						: null;
					check(
						typeof subtitle === 'string' &&
							subtitle.length > 0 &&
							!/[a-z][A-Z]/.test(subtitle) &&
							!/\w\.\w/.test(subtitle) &&
							!/: /.test(subtitle),
						`${slug}: "${node.name}" shows a human subtitle (${JSON.stringify(subtitle)})`,
					);
					if (el) {
						// Every panel is opened (the editor then asks for the output schema of the node before it);
						// one screenshot per node type.
						openPanel = `${slug}: ${node.name}`;
						await el.click({ count: 2 });
						await page
							.waitForSelector('[data-test-id="ndv"] [data-test-id="node-parameters"]', {
								visible: true,
								timeout: 30000,
							})
							.catch(() => {});
						await sleep(600);
						// A field's mode dropdown (Handle / By ID / By URL) must show its whole value.
						const cut = await page.$$eval('[data-test-id="rlc-mode-selector"]', (els) =>
							els
								.map((el) => {
									const shown = [el, ...el.querySelectorAll('*')].filter(
										(e) => e.children.length === 0 && (e.textContent || e.value || '').trim(),
									);
									const inputs = [...el.querySelectorAll('input')].filter((i) => i.value);
									return [...shown, ...inputs]
										.filter((e) => e.scrollWidth > e.clientWidth + 1)
										.map((e) => (e.value || e.textContent || '').trim());
								})
								.flat(),
						);
						check(
							cut.length === 0,
							`${slug}: "${node.name}": no mode dropdown cuts its value off${cut.length ? ` (${cut.join(', ')})` : ''}`,
						);
						if (!panelShot.has(node.type)) await shot(page, `panel-${node.type.split('.').pop()}`);
						panelShot.add(node.type);
						await page.keyboard.press('Escape');
						await page
							.waitForSelector('[data-test-id="ndv"]', { hidden: true, timeout: 5000 })
							.catch(() => {});
						openPanel = '';
					}
				}
			}
			const schemaList = [...schemaRequests]
				.map(([p, { status, panel }]) => `${status} ${p}${panel ? ` (opening ${panel})` : ''}`)
				.sort();
			console.log(
				`  output schemas requested by the editor:\n    ${schemaList.join('\n    ') || '(none)'}`,
			);
			fs.writeFileSync(path.join(SHOTS, 'schemas.txt'), `${schemaList.join('\n')}\n`);
			const received = (p) => schemaRequests.get(p)?.status === 200;
			check(
				[...schemaRequests.keys()].some((p) => p.includes(`.adsCreatives/`) && received(p)),
				'the editor receives a shipped output schema of adsCreatives',
			);
			// n8n 2.40's editor asks for a trigger's output schema only as the input of a node placed directly
			// after it that is not one of n8n's Core Nodes (its schema view never previews a trigger), at
			// /schemas/<type>/<version as x.y.z>.json for a node without resource and operation. The flagship
			// example's trigger feeds a Switch (a Core Node), so the UI workflows put Platform Posts directly
			// after a trigger of each version.
			for (const version of TRIGGER_SCHEMA_VERSIONS) {
				const wanted = `/schemas/${F.T.trigger}/${version}.0.0.json`;
				check(
					received(wanted),
					`the editor receives the shipped output schema of Platform Trigger v${version} (${wanted}: ${schemaRequests.get(wanted)?.status ?? 'not asked for'})`,
				);
			}
			for (const [what, wanted] of OTHER_SCHEMAS)
				check(
					received(wanted),
					`the editor receives the shipped output schema of ${what} (${wanted}: ${schemaRequests.get(wanted)?.status ?? 'not asked for'})`,
				);
			const ours404 = [...schemaRequests].filter(
				([p, { status }]) => p.includes(`/${F.PKG}.`) && status !== 200,
			);
			check(
				ours404.length === 0,
				`every output schema of ours the editor asks for is shipped${ours404.length ? ` (${ours404.map(([p, { status }]) => `${status} ${p}`).join(', ')})` : ''}`,
			);
			check(panelShot.size >= 4, `one open panel per node type (${[...panelShot].join(', ')})`);
			groupDone('examples and output schemas');
		}

		if (want('credentials')) {
			// ---- Platform Posts 1.1: Revoke App Bearer Token asks for the App-Only Bearer credential beside
			// the OAuth1 one that signs it; other OAuth1 operations and version 1 do not ----
			await openWorkflow(
				page,
				base,
				examples.find((w) => w.id === REVOKE_WF),
			);
			const bearerSlot = (slots) => slots.some((t) => /Bearer/i.test(t));
			const panelOf = async (nodeName) => {
				const opened = await openNodePanel(page, nodeName);
				const slots = opened ? await credentialSlots(page) : [];
				const tokenField = Boolean(
					await page.$('[data-test-id="ndv"] [data-test-id="parameter-input-bearerTokenToRevoke"]'),
				);
				console.log(
					`  "${nodeName}": credentials ${JSON.stringify(slots)}; Bearer Token field: ${tokenField}`,
				);
				return { opened, slots, tokenField };
			};
			const closePanel = async () => {
				await page.keyboard.press('Escape');
				await sleep(500);
			};
			const v11 = await panelOf('Revoke App Bearer Token (1.1)');
			await shot(page, 'panel-platformPosts-revoke-bearer-1.1');
			check(
				v11.opened && v11.slots.length === 2 && bearerSlot(v11.slots) && !v11.tokenField,
				'Platform Posts 1.1, Revoke App Bearer Token: the OAuth1 and the App-Only Bearer credential, no Bearer Token field',
			);
			await closePanel();
			const v1 = await panelOf('Revoke App Bearer Token (1)');
			check(
				v1.opened && v1.slots.length === 1 && !bearerSlot(v1.slots) && v1.tokenField,
				'Platform Posts 1, Revoke App Bearer Token: only the OAuth1 credential and the Bearer Token field, as before',
			);
			await closePanel();
			const other = await panelOf('Revoke OAuth1 Token (1.1)');
			check(
				other.opened && other.slots.length === 1 && !bearerSlot(other.slots),
				'Platform Posts 1.1, another OAuth1 operation: only the OAuth1 credential',
			);
			await closePanel();
			// The App-Only Bearer credential stays one of the sign-ins the Credential selector offers (the
			// selector is labelled just "Credential"; a credential shown on its own names its type).
			const appOnly = await panelOf('Get Me (App-Only, 1)');
			check(
				appOnly.opened &&
					appOnly.slots.length === 1 &&
					/^Credential: .*Bearer/.test(appOnly.slots[0]),
				'Platform Posts 1 with App-Only Bearer: the bearer credential in the Credential selector, as before',
			);
			await closePanel();
		}

		groupDone('credential selectors');
		if (first) await verifyFirstWorkflow(page, sandbox, first, ui);
		groupDone('first workflow, its run');
	} finally {
		await browser.close();
		fs.rmSync(profile, { recursive: true, force: true });
	}
}

async function main() {
	const started = Date.now();
	const P = H.phases();
	let sandbox;
	let code = 0;
	try {
		fs.rmSync(WORK, { recursive: true, force: true });
		fs.mkdirSync(WORK, { recursive: true });
		fs.rmSync(SHOTS, { recursive: true, force: true });
		fs.mkdirSync(SHOTS, { recursive: true });
		const chromium = await P.run('find or install Chromium (Debian package)', async () =>
			ensureChromium(),
		);
		const { tgz } = await P.run('build and pack the package', () =>
			H.buildAndPack(path.join(WORK, 'pack')),
		);
		const host = await P.run('prepare n8n 2.40.7', () => H.prepareHost());
		sandbox = await P.run('start the platform sandbox', () =>
			createSandbox({ quiet: true }).listen(0),
		);
		sandbox.seedCatalog();
		const port = await H.freePort();
		const userFolder = path.join(WORK, 'user');
		const env = H.n8nEnv(host, {
			userFolder,
			port,
			extra: { N8N_RUNNERS_BROKER_PORT: String(await H.freePort()) },
		});
		const examples = F.sandboxExamples(sandbox.url);
		// A Platform Posts node (Post > Get, version 1.1) after a trigger: opening it makes the editor ask
		// for the trigger's output schema.
		const lookUpPost = (name, position) =>
			F.node(
				name,
				F.T.posts,
				1.1,
				{
					authentication: 'platformBearerApi',
					resource: 'post',
					operation: 'get',
					postIds: '={{ $json.id }}',
				},
				position,
				{ credentials: F.credRef(F.CRED.bearer) },
			);
		// One small workflow per Platform Trigger version with Platform Posts directly after the trigger,
		// so that opening Platform Posts makes the editor ask for the trigger's output schema; a second
		// Platform Posts node after it asks for Post > Get's.
		for (const version of TRIGGER_SCHEMA_VERSIONS) {
			const trigger = F.triggerNode('Platform Trigger', [0, 0], { userId: '1000000001' });
			trigger.typeVersion = version;
			examples.push(
				F.workflow(
					`uiTriggerSchema${version}`,
					`UI: Platform Trigger v${version} output schema`,
					[trigger, lookUpPost('Look Up Post', [250, 0]), lookUpPost('Look Up Again', [500, 0])],
					F.chain(['Platform Trigger', 'Look Up Post', 'Look Up Again']),
				),
			);
		}
		// The Activity Stream Trigger with Platform Posts after it, for its output schema.
		examples.push(
			F.workflow(
				'uiStreamSchema01',
				'UI: Activity Stream Trigger output schema',
				[
					F.node(
						'Activity Stream Trigger',
						`${F.PKG}.platformPostTriggers`,
						1,
						{ events: ['post.create'], user: '1000000001', options: {} },
						[0, 0],
						{ credentials: F.credRef(F.CRED.bearer) },
					),
					lookUpPost('Look Up Post', [250, 0]),
				],
				F.chain(['Activity Stream Trigger', 'Look Up Post']),
			),
		);
		// Platform Posts' token revocation in both versions, for the credential selector checks.
		examples.push(
			F.workflow(
				REVOKE_WF,
				'UI: revoke the app bearer token',
				[
					F.node(
						'Revoke App Bearer Token (1.1)',
						`${F.PKG}.platformPosts`,
						1.1,
						{
							authentication: 'platformOAuth1Api',
							resource: 'token',
							operation: 'revokeBearerToken',
						},
						[0, 0],
						{
							credentials: Object.assign(
								F.credRef(F.CRED.oauth1),
								F.credRef(F.CRED.bearerRevocable),
							),
						},
					),
					F.node(
						'Revoke App Bearer Token (1)',
						`${F.PKG}.platformPosts`,
						1,
						{
							authentication: 'platformOAuth1Api',
							resource: 'token',
							operation: 'revokeBearerToken',
						},
						[0, 250],
						{ credentials: F.credRef(F.CRED.oauth1) },
					),
					F.node(
						'Get Me (App-Only, 1)',
						`${F.PKG}.platformPosts`,
						1,
						{ authentication: 'platformBearerApi', resource: 'user', operation: 'getMe' },
						[0, 750],
						{ credentials: F.credRef(F.CRED.bearer) },
					),
					F.node(
						'Revoke OAuth1 Token (1.1)',
						`${F.PKG}.platformPosts`,
						1.1,
						{
							authentication: 'platformOAuth1Api',
							resource: 'token',
							operation: 'revokeOAuth1Token',
						},
						[0, 500],
						{ credentials: F.credRef(F.CRED.oauth1) },
					),
				],
				{},
			),
		);
		// No example uses the poll trigger: one small workflow shows it on the canvas and in its panel.
		examples.push(
			F.workflow(
				'uiPollTrigger001',
				'UI: poll trigger',
				[
					F.pollTriggerNode({
						event: 'userPosts',
						user: { __rl: true, mode: 'username', value: 'sandbox_user' },
						pollTimes: { item: [{ mode: 'everyMinute' }] },
					}),
					lookUpPost('Look Up Post', [250, 0]),
				],
				F.chain(['Platform Poll Trigger', 'Look Up Post']),
			),
		);
		await P.run('install the package, import credentials and examples', async () => {
			H.installPackage(userFolder, tgz);
			const credFile = path.join(WORK, 'credentials.json');
			fs.writeFileSync(credFile, JSON.stringify(F.credentials(sandbox.url, sandbox.keys), null, 2));
			await H.cli(host, env, ['import:credentials', `--input=${credFile}`]);
			const wfFile = path.join(WORK, 'examples.json');
			fs.writeFileSync(wfFile, JSON.stringify(examples, null, 2));
			await H.cli(host, env, ['import:workflow', `--input=${wfFile}`]);
			for (const wf of examples.filter(
				(w) => w.file && w.nodes.some((n) => n.type === F.T.trigger),
			))
				await H.cli(host, env, ['publish:workflow', `--id=${wf.id}`]);
		});
		const logFile = path.join(WORK, 'logs', 'n8n.log');
		await P.run('start n8n', async () => {
			const child = H.startN8n(host, env, 'start', logFile);
			await H.waitHealthy(port, child, 240000);
			await H.waitForLog(child, /Editor is now accessible via/, 240000);
		});
		await P.run('set up the demo owner', async () => {
			const r = await H.httpJson('POST', `http://127.0.0.1:${port}/rest/owner/setup`, OWNER);
			if (r.status !== 200) throw new Error(`owner setup answered ${r.status}`);
		});
		await P.run('editor checks in Chromium', () =>
			runBrowserChecks(port, examples, chromium, sandbox),
		);
		P.print();
		if (process.env.UI_KEEP) {
			console.log(
				`n8n: http://localhost:${port} (${OWNER.email} / ${OWNER.password}); Ctrl-C stops it`,
			);
			await new Promise((resolve) => process.on('SIGINT', resolve));
		}
	} catch (error) {
		console.error('\ntest:ui failed:', error && error.stack ? error.stack : error);
		code = 1;
	} finally {
		await H.stopAll();
		if (sandbox) await sandbox.close();
	}
	const seconds = Math.round((Date.now() - started) / 1000);
	if (failures.length) code = 1;
	console.log(
		`\ntest:ui: ${code ? `FAILED (${failures.length} check(s) failed${failures.length ? '' : ', or an error above'})` : 'all checks passed'} in ${seconds} s; screenshots in ${path.relative(process.cwd(), SHOTS) || '.'}`,
	);
	process.exit(code);
}

main();
