'use strict';
/**
 * The README's "Your first workflow", followed in the editor as a builder does it, on the path that
 * needs no public URL (the Platform Poll Trigger with an App-Only Bearer credential), with the labels
 * the section names:
 *   1. the node panel: "Platform" → Platform Posts → the Poll Trigger's "On new posts by a user
 *      (polling)"; the panel opened is the Platform Poll Trigger's;
 *   2. *Credential* → *Create new credential*, *Setup credential* → App-Only Bearer Token: Platform
 *      App-Only Bearer API, *Token Origin* Paste a Bearer Token, *Bearer Token*, *Consumer Secret (API
 *      Key Secret)*; Save, and n8n's test of it passes (the sandbox's URL goes in *Platform API Base
 *      URL*, which a builder leaves as it is);
 *   3. *Trigger On* shows New Posts by a User; the user is entered by username;
 *   4. *Fetch Test Event* shows the user's latest posts in the output;
 *   5. a next node is added, the workflow saved and **Publish**ed: the first poll records the position,
 *      and a post published after it runs the workflow once (checked at the end, `verify`, so that the
 *      other editor checks run meanwhile).
 * Each step that fails names the control it could not find.
 */

const { setTimeout: sleep } = require('node:timers/promises');

const H = require('./host');

/** The element of `selector` whose text (spaces folded) matches `text`, or null. */
async function byText(page, selector, text) {
	for (const h of await page.$$(selector)) {
		const t = await h.evaluate((e) => (e.textContent || '').replace(/\s+/g, ' ').trim());
		if (typeof text === 'string' ? t === text : text.test(t)) return h;
	}
	return null;
}

/** What `find` returns once it returns something, or null when the time is up (a step then fails). */
async function waitFor(find, timeoutMs = 20000, intervalMs = 250) {
	return await H.waitFor('a first-workflow step', find, { timeoutMs, intervalMs }).catch(
		() => null,
	);
}

/** The visible text of the open node panel (NDV), spaces folded. */
async function panelText(page) {
	return await page
		.$eval('[data-test-id="ndv"]', (e) => (e.innerText || '').replace(/\s+/g, ' '))
		.catch(() => '');
}

/** Fills the text input of the parameter `name` inside `scope` (the credential modal or the NDV). */
async function fill(page, scope, name, value) {
	const input = await page.$(
		`${scope} [data-test-id="parameter-input-${name}"] input, ${scope} [data-test-id="parameter-input-${name}"] textarea`,
	);
	if (!input) return false;
	await input.click({ clickCount: 3 });
	await page.keyboard.press('Backspace');
	await input.type(value);
	// The field takes its value when it loses focus.
	await page.keyboard.press('Tab');
	await sleep(300);
	return true;
}

/**
 * Runs steps 1 to 5 in `page` (logged in). `ui` brings the editor test's helpers: check, shot,
 * searchCreator, clickCreatorItem. Returns what `verifyFirstWorkflow` needs.
 */
async function followFirstWorkflow(page, base, sandbox, ui) {
	const { check, shot, searchCreator, clickCreatorItem } = ui;
	const step = async (what, run) => {
		try {
			const ok = await run();
			check(Boolean(ok), `first workflow: ${what}`);
			return Boolean(ok);
		} catch (error) {
			check(false, `first workflow: ${what} (${String(error && error.message).split('\n')[0]})`);
			return false;
		}
	};
	const state = { workflowId: undefined, published: false, publishedAt: 0 };
	// Step 4's test shows the user's latest posts: the user has one.
	sandbox.publishPost({
		text: 'a post from before the first workflow',
		author_id: sandbox.keys.userId,
	});
	const ENTRY = 'On new posts by a user (polling)';

	// 1. Pick the trigger.
	const opened = await step(`node panel: Platform › Platform Posts › "${ENTRY}"`, async () => {
		await page.goto(`${base}/workflow/new`, { waitUntil: 'networkidle2' });
		await page.waitForSelector('[data-test-id="canvas-add-button"]');
		await sleep(500);
		await page.click('[data-test-id="canvas-add-button"]');
		await searchCreator(page, 'Platform');
		if (!(await clickCreatorItem(page, 'Platform Posts'))) return false;
		if (!(await clickCreatorItem(page, ENTRY))) return false;
		await page.waitForSelector('[data-test-id="ndv"]', { timeout: 30000 });
		await sleep(1000);
		return true;
	});
	if (!opened) return state;
	await step('the panel opened is the Platform Poll Trigger’s', async () =>
		/Platform Poll Trigger/.test(await panelText(page)),
	);

	// 2. Create the credential.
	const M = '[data-test-id="editCredential-modal"]';
	await step(
		'"Credential" › "Create new credential" › "Setup credential": "App-Only Bearer Token" opens Platform App-Only Bearer API',
		async () => {
			if (!/(^| )Credential( |$)/.test(await panelText(page))) return false;
			await page.click('[data-test-id="ndv"] [data-test-id="node-credentials-select"]');
			const item = await page.waitForSelector('[data-test-id="node-credentials-select-item-new"]', {
				visible: true,
			});
			await sleep(500);
			await item.click();
			if (!(await waitFor(() => page.$(M)))) return false;
			await sleep(800);
			// The dialog opens on the type of the credential the node had picked: Setup credential
			// chooses the sign-in (the node's Authentication options).
			const trigger = await page.waitForSelector(
				`${M} [data-test-id="credential-mode-dropdown-trigger"]`,
				{ visible: true },
			);
			await trigger.click();
			await sleep(500);
			const option = await waitFor(() =>
				byText(page, '[role="menu"] [role="menuitem"]', 'App-Only Bearer Token'),
			);
			if (!option) return false;
			await option.click();
			await sleep(1000);
			const text = await page.$eval(M, (e) => (e.innerText || '').replace(/\s+/g, ' '));
			return (
				/Platform App-Only Bearer API/.test(text) &&
				/Token Origin Fixed Expression/.test(text) &&
				/Paste a Bearer Token/.test(
					await page.$eval(`${M} [data-test-id="parameter-input-origin"]`, (e) =>
						e.querySelector('input') ? e.querySelector('input').value : e.textContent,
					),
				)
			);
		},
	);
	await shot(page, 'first-workflow-2-credential');
	await step(
		'"Bearer Token" and "Consumer Secret (API Key Secret)" filled, Save: n8n’s test of the credential passes',
		async () => {
			const filled =
				(await fill(page, M, 'bearerToken', sandbox.keys.bearerToken)) &&
				(await fill(page, M, 'consumerSecret', sandbox.keys.consumerSecret)) &&
				(await fill(page, M, 'baseUrl', sandbox.url));
			if (!filled) return false;
			await sleep(500);
			const savedAt = Date.now();
			await page.click(`${M} [data-test-id="credential-save-button"]`);
			// n8n tests a credential when it is saved (its test request reaches the service) and, from
			// the node panel, closes the dialog once it passed; it stays open on a failure.
			const tested = await waitFor(
				() =>
					sandbox.records.some(
						(r) =>
							r.path === '/2/usage/tweets' &&
							r.status === 200 &&
							Date.parse(r.at) >= savedAt - 1000,
					),
				30000,
			);
			const closed = await waitFor(async () => !(await page.$(M)), 15000);
			await sleep(500);
			await shot(page, 'first-workflow-2-credential-saved');
			const chosen = await page
				.$eval(
					'[data-test-id="ndv"] [data-test-id="node-credentials-select"] input',
					(e) => e.value,
				)
				.catch(() => '');
			return Boolean(tested && closed) && /Platform App-Only Bearer/.test(chosen);
		},
	);

	// 3. Choose what starts the workflow.
	await step('"Trigger On" shows "New Posts by a User"; the user entered by username', async () => {
		const chosen = await page
			.$eval('[data-test-id="ndv"] [data-test-id="parameter-input-event"] input', (e) => e.value)
			.catch(() => '');
		console.log('step3', JSON.stringify(chosen), /Trigger On/.test(await panelText(page)));
		if (!/Trigger On/.test(await panelText(page)) || chosen !== 'New Posts by a User') return false;
		const field = await page.$(
			'[data-test-id="ndv"] [data-test-id="parameter-input-user"] input[data-test-id="rlc-input"]',
		);
		if (!field) return false;
		await field.click();
		await field.type('sandbox_user');
		await page.keyboard.press('Tab');
		await sleep(500);
		return true;
	});

	// 4. Test it in the editor.
	await step('"Fetch Test Event" shows the latest posts in the output', async () => {
		const button =
			(await byText(page, '[data-test-id="ndv"] button', /Fetch Test Event/)) ||
			(await page.$('[data-test-id="ndv"] [data-test-id="node-execute-button"]'));
		if (!button) return false;
		await button.click();
		const shown = await waitFor(async () => {
			const out = await page
				.$eval('[data-test-id="ndv"] [data-test-id="output-panel"]', (e) => e.innerText)
				.catch(() => '');
			return /post\.create/.test(out) ? out : null;
		}, 60000);
		await shot(page, 'first-workflow-4-fetch-test-event');
		return Boolean(shown);
	});
	await page.keyboard.press('Escape');
	await sleep(800);

	// 5. Add the next node, Publish.
	await step('a next node added after the trigger', async () => {
		const plus = await page.$('[data-test-id="canvas-handle-plus"]');
		if (!plus) return false;
		await plus.click();
		await searchCreator(page, 'No Operation');
		if (!(await clickCreatorItem(page, 'No Operation, do nothing'))) return false;
		await sleep(1000);
		await page.keyboard.press('Escape');
		await sleep(500);
		return (await page.$$('[data-test-id="canvas-node"]')).length === 2;
	});
	state.published = await step('"Publish": the workflow is active', async () => {
		const open = await page.waitForSelector('[data-test-id="workflow-open-publish-modal-button"]', {
			visible: true,
		});
		await open.click();
		// A new workflow is saved first (its address becomes /workflow/<id>), then the dialog opens.
		await page.waitForFunction(() => /\/workflow\/(?!new)[^/?#]+/.test(location.pathname), {
			timeout: 30000,
		});
		const publish = await page.waitForSelector('[data-test-id="workflow-publish-button"]', {
			visible: true,
			timeout: 30000,
		});
		await sleep(500);
		await shot(page, 'first-workflow-5-publish-dialog');
		state.publishedAt = Date.now();
		await publish.click();
		await sleep(2000);
		state.workflowId = (page.url().match(/\/workflow\/([^/?#]+)/) || [])[1];
		const active = await waitFor(async () => {
			const wf = await page
				.evaluate(async (id) => {
					const r = await fetch(`/rest/workflows/${id}`, {
						credentials: 'include',
						headers: { 'browser-id': localStorage.getItem('n8n-browserId') || '' },
					});
					return r.ok ? (await r.json()).data : null;
				}, state.workflowId)
				.catch(() => null);
			return wf && (wf.active || wf.activeVersionId) ? wf : null;
		}, 30000);
		await shot(page, 'first-workflow-5-published');
		return Boolean(active);
	});
	return state;
}

const UNFINISHED = new Set(['new', 'running', 'waiting']);

/**
 * Step 5's promise, checked after the other editor checks: the first poll recorded the position, and
 * a post published after it started one successful run (n8n's executions of that workflow). That no
 * later poll runs it again is the Poll Trigger e2e tests' to show: here the next poll is a minute away.
 */
async function verifyFirstWorkflow(page, sandbox, state, ui) {
	const { check } = ui;
	if (!state.published) {
		check(false, 'first workflow: a post published after activation runs it (not published)');
		return;
	}
	const polled = await waitFor(
		() =>
			sandbox.records.some(
				(r) =>
					/^\/2\/users\/[0-9]+\/tweets$/.test(r.path) &&
					r.status === 200 &&
					Date.parse(r.at) >= state.publishedAt - 1000,
			),
		90000,
		1000,
	);
	check(Boolean(polled), 'first workflow: the first poll read the user’s posts');
	const mark = `first workflow check ${Date.now()}`;
	await sleep(2000);
	sandbox.publishPost({ text: mark, author_id: sandbox.keys.userId });
	let seen = null;
	const runs = await waitFor(
		async () => {
			const list = await page.evaluate(async (id) => {
				const r = await fetch(
					`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: id }))}`,
					{
						credentials: 'include',
						headers: { 'browser-id': localStorage.getItem('n8n-browserId') || '' },
					},
				);
				if (!r.ok) return null;
				const body = await r.json();
				return (body.data && body.data.results) || body.data || [];
			}, state.workflowId);
			const runs = Array.isArray(list) ? list.filter((e) => e.mode !== 'manual') : [];
			if (runs.length) seen = runs;
			// A run is listed from its start ('new', then 'running'): the check reads it once it ended.
			return runs.length && runs.every((e) => !UNFINISHED.has(e.status)) ? runs : null;
		},
		150000,
		2000,
	);
	check(
		Boolean(runs) && runs.length === 1 && runs.every((e) => e.status === 'success'),
		`first workflow: the post published after activation started one successful run (${seen ? seen.map((e) => e.status).join(', ') : 'no run'})`,
	);
}

module.exports = { followFirstWorkflow, verifyFirstWorkflow };
