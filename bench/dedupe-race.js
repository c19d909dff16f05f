#!/usr/bin/env node
'use strict';
/**
 * The cross-process duplicate race, measured on the shipped production topology (e2e/lib/instance.js,
 * queue mode): PostgreSQL, Redis, n8n main, TWO n8n webhook processes and two workers behind the
 * repository's nginx recipe. Each round sends two identical copies of one signed event (the same bytes,
 * the same signature, as a service retry or a duplicate delivery carries them) at the same instant, and
 * the result is how many events ran twice and how many never ran.
 *
 *   - proxy (default): both copies go through the proxy, as the service reaches a deployment. The
 *     recipe routes every copy of one delivery to the same webhook process, whose claim of the event id
 *     is one synchronous step, so the copies cannot both pass.
 *   - direct: one copy to each webhook process itself, bypassing the proxy. The two processes see
 *     nothing of each other until one of them has saved its static data, so both copies can pass.
 *
 *   node bench/dedupe-race.js        (DEDUPE_RACE_EVENTS, default 100; DEDUPE_RACE_MODES, default
 *                                     "proxy,direct"; BENCH_BALANCER, the proxy: nginx (default),
 *                                     haproxy or caddy, each with its recipe in deploy/<name>)
 *
 * Exits 1 when an event was lost, or ran twice through the proxy.
 */
const path = require('node:path');

const H = require('../e2e/lib/host');
const F = require('../e2e/lib/fixtures');
const { Instance } = require('../e2e/lib/instance');
const { createSandbox } = require('../sandbox/server');

const EVENTS = Number(process.env.DEDUPE_RACE_EVENTS || 100);
const MODES = String(process.env.DEDUPE_RACE_MODES || 'proxy,direct')
	.split(',')
	.map((m) => m.trim())
	.filter(Boolean);
const BALANCER = process.env.BENCH_BALANCER || 'nginx';
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
		const inst = new Instance({
			host,
			dir: work,
			tgz,
			sandbox,
			label: 'race',
			queue: true,
			balancer: BALANCER,
		});
		inst.installed = H.installPackage(inst.userFolder, tgz);
		const description = F.describeInstalled(inst.installed.pkgDir, 'platformTriggerPosts');
		const wf = F.triggerToSink(WF_ID, 'dedupe race', {
			userId: sandbox.keys.userId,
			webhookId: F.uuidFrom('dedupe-race'),
			description,
			sandboxUrl: sandbox.url,
			sink: SINK,
		});
		await inst.setup({ workflows: [wf], publish: [WF_ID] });
		await inst.start();
		const hook = await H.waitFor(
			'the trigger webhook',
			() => [...sandbox.db.webhooks.values()].find((w) => w.valid),
			{ timeoutMs: 90000 },
		);
		const sink = () => (sandbox.sinks && sandbox.sinks[SINK]) || [];
		const lines = [];
		for (const mode of MODES) {
			const urls =
				mode === 'direct'
					? [inst.directUrl(0, hook.url), inst.directUrl(1, hook.url)]
					: [hook.url, hook.url];
			const ids = [];
			for (let i = 0; i < EVENTS; i++) {
				const id = `race-${mode}-${Date.now()}-${i}`;
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
					throw new Error(
						`a delivery was refused: ${JSON.stringify(answers.map((a) => a.status || a.error))}`,
					);
			}
			const ranOnce = (id) => sink().some((s) => F.eventIdOf(s.body) === id);
			await H.waitFor('every event to run at least once', () => ids.every(ranOnce), {
				timeoutMs: 120000,
			}).catch(() => undefined);
			// A second run comes from the other copy's execution, queued at the same moment: wait for stragglers.
			await new Promise((r) => setTimeout(r, 5000));
			const counts = {};
			for (const s of sink()) counts[F.eventIdOf(s.body)] = (counts[F.eventIdOf(s.body)] || 0) + 1;
			const twice = ids.filter((id) => counts[id] > 1).length;
			const lost = ids.filter((id) => !counts[id]).length;
			const title =
				mode === 'direct'
					? 'one copy to each webhook process directly, bypassing the proxy'
					: `both copies through the ${BALANCER} recipe`;
			lines.push(
				`\nDuplicate race, queue mode on PostgreSQL, 2 webhook processes + 2 workers behind ${BALANCER} (n8n ${H.N8N_VERSION}): ${EVENTS} events, two identical copies of each at once, ${title}`,
				`  ran once: ${EVENTS - twice - lost}   ran twice: ${twice} (${((100 * twice) / EVENTS).toFixed(0)}%)   lost: ${lost}`,
			);
			if (lost || (mode !== 'direct' && twice)) process.exitCode = 1;
		}
		for (const l of lines) console.log(l);
	} catch (error) {
		console.error('dedupe race failed:', error && error.stack ? error.stack : error);
		process.exitCode = 1;
	} finally {
		await bench.finish(sandbox);
	}
}

main().then(() => process.exit(process.exitCode || 0));
