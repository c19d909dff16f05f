#!/usr/bin/env node
'use strict';
/**
 * The measured figures of docs/production.md, generated from their one source in bench/results: the
 * capacity of the production topology from the newest capacity run of bench/results/history.md, the
 * WAL a delivery costs from the newest bench/results/wal-*.json, and the Activity Stream Trigger beside
 * the webhook trigger from the newest bench/results/stream-*.json that holds a soak (bench/stream.js).
 * Each block sits between markers
 * in the page; the rest of the page links to it instead of restating a figure.
 *
 *   node test/docs/figures.js           prints every block
 *   node test/docs/figures.js --write   rewrites the blocks in docs/production.md
 *
 * test/docs/figures.test.ts fails when the page differs from what this builds.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const RESULTS = path.join(ROOT, 'bench', 'results');
const PAGE = path.join(ROOT, 'docs', 'production.md');

/** The markers of one block (the begin marker names where its figures come from). */
function markers(name, source) {
	return {
		begin: `<!-- figures:${name}:begin: generated from ${source} by \`node test/docs/figures.js --write\` -->`,
		prefix: `<!-- figures:${name}:begin`,
		end: `<!-- figures:${name}:end -->`,
	};
}

/** Cells of a Markdown table row. */
function cells(line) {
	return line
		.trim()
		.replace(/^\|/, '')
		.replace(/\|$/, '')
		.split('|')
		.map((c) => c.trim());
}

/** The first Markdown table of a text: header cells and rows of cells. */
function firstTable(text) {
	const lines = text.split('\n');
	const start = lines.findIndex(
		(l, i) => l.startsWith('|') && /^\|[\s|:-]+\|$/.test(lines[i + 1] ?? ''),
	);
	if (start === -1) return undefined;
	const rows = [];
	for (let i = start + 2; i < lines.length && lines[i].startsWith('|'); i++)
		rows.push(cells(lines[i]));
	return { header: cells(lines[start]), rows };
}

/** `## ` sections of a Markdown text, in order: heading and body. */
function sections(text) {
	return text
		.split(/^## /m)
		.slice(1)
		.map((s) => {
			const nl = s.indexOf('\n');
			return { heading: s.slice(0, nl).trim(), body: s.slice(nl + 1) };
		});
}

/**
 * The newest capacity run recorded in bench/results/history.md (the last section whose heading names
 * capacity and holds a table by deployment): its date, conditions and table.
 */
function capacitySource(history = fs.readFileSync(path.join(RESULTS, 'history.md'), 'utf8')) {
	const runs = sections(history)
		.filter((s) => /capacity/i.test(s.heading))
		.map((s) => ({ ...s, table: firstTable(s.body) }))
		.filter((s) => s.table && /^deployment/.test(s.table.header[0]));
	const run = runs[runs.length - 1];
	if (!run) throw new Error('bench/results/history.md records no capacity run');
	const intro = run.body.slice(0, run.body.indexOf('\n|'));
	const find = (re, what) => {
		const m = re.exec(intro);
		if (!m) throw new Error(`the capacity run of ${run.heading} does not name ${what}`);
		return m[1];
	};
	const column = (re) => {
		const i = run.table.header.findIndex((h) => re.test(h));
		if (i === -1) throw new Error(`the capacity table has no column ${re}`);
		return i;
	};
	const col = {
		deployment: 0,
		acknowledged: column(/^acknowledged\/s$/),
		runs: column(/^runs finished\/s$/),
		crc: column(/^CRC p50 \/ p99/),
		outcome: column(/refused \/ lost \/ twice/),
	};
	return {
		heading: run.heading,
		n8n: find(/n8n (\d+\.\d+\.\d+)/, "n8n's version"),
		postgres: find(/PostgreSQL (\d+(?:\.\d+)?)/, "PostgreSQL's version"),
		cores: Number(find(/(\d+) cores/, 'the cores')),
		clients: Number(find(/(\d+) clients/, 'the clients')),
		seconds: Number(find(/for (\d+) s\b/, 'the seconds')),
		rows: run.table.rows.map((r) => ({
			deployment: r[col.deployment],
			acknowledged: Number(r[col.acknowledged]),
			runs: r[col.runs],
			crc: r[col.crc],
			outcome: r[col.outcome],
		})),
	};
}

/** The date of a run: its heading starts with it. */
function runDate(source) {
	return /^(\d{4}-\d{2}-\d{2})/.exec(source.heading)[1];
}

/** What one webhook process and one worker are planned at: half of the first row (one of each). */
function plan(source) {
	const first = source.rows[0];
	return {
		perWebhookProcess: Math.floor(first.acknowledged / 2),
		perWorker: Math.floor(parseFloat(first.runs) / 2),
	};
}

function thousands(n) {
	return n.toLocaleString('en-US');
}

function capacityBlock(source = capacitySource()) {
	const m = markers('capacity', 'the newest capacity run in bench/results/history.md');
	const p = plan(source);
	return [
		m.begin,
		'',
		`Measured on ${runDate(source)}: n8n ${source.n8n} in queue mode on PostgreSQL ${source.postgres}, ` +
			`${source.cores} cores shared by every process, ${source.clients} clients sending signed ` +
			`deliveries for ${source.seconds} s while CRC checks were sent one after the other.`,
		'',
		'| deployment (queue mode, PostgreSQL) | acknowledged/s | runs finished/s | CRC p50 / p99 at that load (ms) | sent / refused / lost / ran twice |',
		'|---|---|---|---|---|',
		...source.rows.map(
			(r) => `| ${r.deployment} | ${r.acknowledged} | ${r.runs} | ${r.crc} | ${r.outcome} |`,
		),
		'',
		`**Plan at half of the first row**: ${p.perWebhookProcess} deliveries/s per webhook process and ` +
			`${p.perWorker} runs/s per worker for a light workflow (fewer for a heavier one), each process on ` +
			'its own core, so that a CRC check never waits near its 3 s and a burst still gets its 200 within 10 s.',
		'',
		m.end,
	].join('\n');
}

/** Processes needed for a rate at a planned rate per process. */
function processes(rate, per) {
	return Math.ceil(rate / per);
}

function topologyBlock(source = capacitySource()) {
	const m = markers('topology', 'the newest capacity run in bench/results/history.md');
	const p = plan(source);
	const rates = [100, 1000];
	return [
		m.begin,
		'',
		`| at the plan above (${p.perWebhookProcess} deliveries/s per webhook process, ${p.perWorker} runs/s per worker) | ${rates.map((r) => `${thousands(r)} events/s`).join(' | ')} |`,
		'|---|---|---|',
		`| webhook processes (own core each) | ${rates.map((r) => processes(r, p.perWebhookProcess)).join(' | ')} |`,
		`| workers (light workflow) | ${rates.map((r) => processes(r, p.perWorker)).join(' | ')} |`,
		'',
		m.end,
	].join('\n');
}

/** The newest bench/results/wal-<time>.json, by the time in its name. */
function newestWalFile(dir = RESULTS) {
	const files = fs
		.readdirSync(dir)
		.filter((f) => /^wal-\d{4}-\d{2}-\d{2}T.*\.json$/.test(f))
		.sort();
	if (!files.length) throw new Error('bench/results holds no wal-*.json');
	return files[files.length - 1];
}

function median(values) {
	const s = [...values].sort((a, b) => a - b);
	const mid = Math.floor(s.length / 2);
	return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function walSource(file = newestWalFile()) {
	const raw = JSON.parse(fs.readFileSync(path.join(RESULTS, file), 'utf8'));
	const perDelivery = (side) => median(raw.sides[side].rounds.map((r) => r.walPerDelivery));
	return {
		file,
		date: file.slice(4, 14),
		raw,
		webhook: perDelivery('isolate'),
		trigger: Object.fromEntries(
			[0, 500, 2000].map((ids) => [
				ids,
				{ bytes: perDelivery(`trigger${ids}`), ratio: raw.ratios[`trigger${ids}`].median },
			]),
		),
	};
}

function kb(bytes) {
	return `${(bytes / 1000).toFixed(1)} KB`;
}

function walBlock(source = walSource()) {
	const m = markers('wal', `bench/results/${source.file}`);
	const { raw, trigger } = source;
	const ratio = (r) => `${r.toFixed(1)}x`;
	return [
		m.begin,
		'',
		`Measured on ${source.date} (n8n ${raw.n8n}, ${raw.mode} ${raw.postgres}, ` +
			`${raw.lazyAcquire ? 'lazy acquire' : 'without lazy acquire'}, the trigger at version ` +
			`${raw.triggerVersion}, ${raw.deliveries} deliveries ${raw.concurrency} in flight, ${raw.rounds} ` +
			`paired rounds), WAL per delivery against n8n's Webhook node v1 with the same downstream node ` +
			`(${kb(source.webhook)}): ${kb(trigger[2000].bytes)} with 2,000 ids in the record ` +
			`(**${ratio(trigger[2000].ratio)}**), ${kb(trigger[500].bytes)} (${ratio(trigger[500].ratio)}) ` +
			`with 500, ${kb(trigger[0].bytes)} (${ratio(trigger[0].ratio)}) with none.`,
		'',
		m.end,
	].join('\n');
}

/**
 * The Activity Stream Trigger's figures: the rounds from the newest bench/results/stream-<time>.json of
 * a full run (at least 4 rounds, with lazy acquire: the production advice), the soak from the run with
 * the longest soak (the newest of those). Either falls back to the newest file.
 */
function streamFiles(dir = RESULTS) {
	const files = fs
		.readdirSync(dir)
		.filter((f) => /^stream-\d{4}-\d{2}-\d{2}T.*\.json$/.test(f))
		.sort()
		.map((f) => ({ f, raw: JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) }));
	if (!files.length) throw new Error('bench/results holds no stream-*.json');
	const newest = files[files.length - 1];
	const full = files.filter((x) => x.raw.rounds >= 4 && x.raw.lazyAcquire);
	const soaked = files
		.filter((x) => x.raw.soak)
		.sort((a, b) => a.raw.soak.events - b.raw.soak.events || a.f.localeCompare(b.f));
	return {
		rounds: (full.length ? full[full.length - 1] : newest).f,
		soak: (soaked.length ? soaked[soaked.length - 1] : newest).f,
	};
}

function streamSource(files = streamFiles()) {
	const read = (f) => JSON.parse(fs.readFileSync(path.join(RESULTS, f), 'utf8'));
	return {
		files,
		date: files.rounds.slice(7, 17),
		raw: read(files.rounds),
		soakDate: files.soak.slice(7, 17),
		soak: read(files.soak).soak,
	};
}

/** A count rounded to a whole number, with thousands separators. */
const whole = (n) => thousands(Math.round(n));

function streamBlock(source = streamSource()) {
	const { files } = source;
	const m = markers(
		'stream',
		files.rounds === files.soak
			? `bench/results/${files.rounds}`
			: `bench/results/${files.rounds} and ${files.soak}`,
	);
	const { raw } = source;
	const { stream, webhook } = raw.sides;
	const ratio = (q) => `${q.median.toFixed(2)}x`;
	const lines = [
		m.begin,
		'',
		`Measured on ${source.date} (n8n ${raw.n8n}, ${raw.mode} ${raw.postgres}, ` +
			`${raw.lazyAcquire ? 'lazy acquire' : 'without lazy acquire'}, ${raw.cores} cores shared with ` +
			`other work, ${raw.events} events per side in each of ${raw.rounds} paired rounds, the stream's ` +
			`events sent at ${raw.pushRate} a second, the webhook's ${raw.concurrency} at a time, both ` +
			`workflows saving their executions): the Activity Stream Trigger ran ` +
			`${stream.perSecond.toFixed(1)} events a second beside the Platform Trigger's ` +
			`${webhook.perSecond.toFixed(1)} in the same n8n (**${ratio(raw.ratios.runsPerSecond)}**), ` +
			`with ${kb(stream.walPerEvent)} of database WAL per event against ${kb(webhook.walPerEvent)} ` +
			`(${ratio(raw.ratios.walPerEvent)}) and ${kb(stream.staticTextPerEvent)} of static data ` +
			`written per event with ${whole(stream.recordIds)} ids remembered (the Platform Trigger: ` +
			`${kb(webhook.staticTextPerEvent)} with ${whole(webhook.recordIds)}).`,
	];
	const s = source.soak;
	if (s)
		lines.push(
			'',
			`A soak (${source.soakDate}, the same setup) of ${whole(s.events)} events sent at ${s.rate} ` +
				`a second: ${whole(s.runs)} runs, ` +
				`${s.missing} missing, ${s.twice} twice` +
				(Number.isFinite(s.runsNotStarted)
					? `, ${whole(s.runsNotStarted)} runs n8n did not start (the trigger asked for them again)`
					: '') +
				(Number.isFinite(s.poolTimeouts)
					? `, ${whole(s.poolTimeouts)} timeouts of n8n's database pool`
					: '') +
				`; n8n's memory after warm-up ` +
				`${whole(s.rssFirstQuarterMiB)} MiB at first and ${whole(s.rssLastQuarterMiB)} MiB ` +
				`at the end (${s.rssSlopeMiBPer10k.toFixed(1)} MiB per 10,000 events)` +
				(Number.isFinite(s.heapUsedLastQuarterMiB)
					? `, its JavaScript heap in use ${whole(s.heapUsedFirstQuarterMiB)} MiB at first and ` +
						`${whole(s.heapUsedLastQuarterMiB)} MiB at the end`
					: '') +
				`; the static data ${kb(s.record.text)} with ${whole(s.record.ids)} ids at the end.`,
		);
	lines.push('', m.end);
	return lines.join('\n');
}

/** Every block of the page, by name. */
function blocks() {
	const capacity = capacitySource();
	return {
		capacity: capacityBlock(capacity),
		topology: topologyBlock(capacity),
		wal: walBlock(walSource()),
		stream: streamBlock(streamSource()),
	};
}

/** The block currently in a page, or undefined. */
function blockIn(page, name) {
	const m = markers(name, '');
	const begin = page.indexOf(m.prefix);
	const end = page.indexOf(m.end);
	if (begin === -1 || end === -1) return undefined;
	return page.slice(begin, end + m.end.length);
}

/** The page with a block replaced (its markers must be there). */
function withBlock(page, name, text) {
	const current = blockIn(page, name);
	if (current === undefined) throw new Error(`docs/production.md has no figures:${name} markers`);
	return page.replace(current, () => text);
}

function readPage() {
	return fs.readFileSync(PAGE, 'utf8');
}

module.exports = {
	blockIn,
	blocks,
	capacitySource,
	firstTable,
	streamFiles,
	newestWalFile,
	plan,
	readPage,
	streamSource,
	walSource,
	withBlock,
};

if (require.main === module) {
	const all = blocks();
	if (process.argv.includes('--write')) {
		let page = readPage();
		for (const [name, text] of Object.entries(all)) page = withBlock(page, name, text);
		fs.writeFileSync(PAGE, page);
		console.log('wrote docs/production.md');
	} else for (const [name, text] of Object.entries(all)) console.log(`## ${name}\n\n${text}\n`);
}
