#!/usr/bin/env node
'use strict';
/**
 * The cross-process duplicate race, measured (not a pass/fail test): n8n in queue mode with TWO webhook
 * processes. The trigger's duplicate check is exact within one process; two copies of one event that
 * reach two different processes at the same moment can both pass. Each round sends one signed event to
 * both webhook processes at once; the result is how many of the events ran twice.
 *
 *   node bench/dedupe-race.js        (DEDUPE_RACE_EVENTS, default 100)
 */
const path = require('node:path');

const H = require('../e2e/lib/host');
const F = require('../e2e/lib/fixtures');
const { Instance } = require('../e2e/lib/instance');
const { createSandbox } = require('../sandbox/server');

const EVENTS = Number(process.env.DEDUPE_RACE_EVENTS || 100);
const WF_ID = 'benchDedupeRace1';
const SINK = 'dedupe-race';

async function main() {
	const bench = H.benchWork('dedupe-race');
	const work = bench.dir;
	let sandbox;
	try {
		const { tgz } = H.buildAndPack(path.join(work, 'pack'));
		const host = H.prepareHost();
		sandbox = await createSandbox({ quiet: true }).listen(0);
		const inst = new Instance({ host, dir: work, tgz, sandbox, label: 'race', queue: true });
		inst.installed = H.installPackage(inst.userFolder, tgz);
		const description = F.describeInstalled(inst.installed.pkgDir, 'platformTriggerPosts');
		const wf = F.workflow(
			WF_ID,
			'dedupe race',
			[
				F.triggerNode('Platform Trigger', [0, 0], {
					userId: sandbox.keys.userId,
					webhookId: F.uuidFrom('dedupe-race'),
					description,
				}),
				F.sinkNode('Record Run', sandbox.url, SINK, [300, 0]),
			],
			F.chain(['Platform Trigger', 'Record Run']),
		);
		await inst.setup({ workflows: [wf], publish: [WF_ID] });
		await inst.start();
		const hook = await H.waitFor(
			'the trigger webhook',
			() => [...sandbox.db.webhooks.values()].find((w) => w.valid),
			{ timeoutMs: 90000 },
		);
		// A second webhook process beside the first (same database and Redis).
		const secondPort = await H.freePort();
		const second = H.startN8n(
			host,
			Object.assign({}, inst.env, {
				N8N_PORT: String(secondPort),
				N8N_RUNNERS_BROKER_PORT: String(await H.freePort()),
			}),
			'webhook',
			inst.log('n8n-webhook-2'),
		);
		await H.waitForLog(second, /Webhook listener waiting for requests/);
		const urls = [hook.url, hook.url.replace(`:${inst.webhookPort}/`, `:${secondPort}/`)];
		const ids = [];
		for (let i = 0; i < EVENTS; i++) {
			const id = `race-${Date.now()}-${i}`;
			ids.push(id);
			const raw = JSON.stringify({
				data: {
					event_uuid: id,
					event_type: 'post.create',
					filter: { user_id: sandbox.keys.userId },
					payload: { id: String(1900000000000000000n + BigInt(i)), text: `race ${i}` },
				},
			});
			const answers = await Promise.all(
				urls.map((url) => sandbox.deliver({ id: hook.id, url }, raw, { event_uuid: id })),
			);
			if (answers.some((a) => a.status !== 200))
				throw new Error(`a delivery was refused: ${JSON.stringify(answers.map((a) => a.status))}`);
		}
		const sink = () => (sandbox.sinks && sandbox.sinks[SINK]) || [];
		await H.waitFor(
			'every event to run at least once',
			() => new Set(sink().map((s) => F.eventIdOf(s.body))).size >= EVENTS,
			{ timeoutMs: 300000 },
		);
		await new Promise((r) => setTimeout(r, 5000));
		const counts = {};
		for (const s of sink()) counts[F.eventIdOf(s.body)] = (counts[F.eventIdOf(s.body)] || 0) + 1;
		const twice = ids.filter((id) => counts[id] > 1).length;
		const lost = ids.filter((id) => !counts[id]).length;
		console.log(
			`\nDuplicate race across two webhook processes (queue mode, n8n ${H.N8N_VERSION}): ${EVENTS} events, each sent to both processes at once`,
		);
		console.log(
			`  ran once: ${EVENTS - twice - lost}   ran twice: ${twice} (${((100 * twice) / EVENTS).toFixed(0)}%)   lost: ${lost}`,
		);
		if (lost) process.exitCode = 1;
	} catch (error) {
		console.error('dedupe race failed:', error && error.stack ? error.stack : error);
		process.exitCode = 1;
	} finally {
		await bench.finish(sandbox);
	}
}

main().then(() => process.exit(process.exitCode || 0));
