/**
 * The Poll Trigger's cost table (docs/nodes/platform-poll-trigger.md, "What polling costs") is what
 * the node asks the service for: each row is measured on the real poll() (test/postsTrigger/costs.ts)
 * at the default version, beside the idle day of versions 1 and 1.1. A changed page size, stop rule
 * or mode fails here until the page says so. `POLL_COSTS_WRITE=1 npx jest test/docs/pollCosts.test.ts`
 * writes the measured table into the page; `POLL_COSTS_PRINT=1` prints the figures before and after.
 */
/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, no-console -- test code, not shipped: POLL_COSTS_WRITE writes the measured table into the page, POLL_COSTS_PRINT prints the figures */
import { writeFileSync } from 'node:fs';

import { PlatformPostsTrigger } from '../../nodes/PlatformPostsTrigger/PlatformPostsTrigger.node';
import { measureAll, POLLS_A_DAY, tableRows } from '../postsTrigger/costs';
import { readText } from '../helpers/files';

const PAGE = 'docs/nodes/platform-poll-trigger.md';
const DEFAULT = Number(new PlatformPostsTrigger().description.defaultVersion);

/** The lines of the page's cost table: from its header row to the first line that is not a row. */
function tableOf(page: string): { start: number; end: number; lines: string[] } {
	const lines = page.split('\n');
	const section = lines.findIndex((l) => l.startsWith('## What polling costs'));
	const start = lines.findIndex((l, i) => i > section && l.startsWith('| Trigger On |'));
	let end = start;
	while (end < lines.length && lines[end].startsWith('|')) end++;
	return { start, end, lines: lines.slice(start, end) };
}

describe("the Poll Trigger's cost table", () => {
	it('is what the node asks for, measured at the default version and at 1.1', async () => {
		const current = await measureAll(DEFAULT);
		const before = await measureAll(1.1);
		const rows = tableRows(current, before);
		const page = readText(PAGE);
		const table = tableOf(page);
		if (process.env.POLL_COSTS_PRINT) {
			const lines = current.map((c) => {
				const old = before.find((b) => b.mode.value === c.mode.value)!;
				const ratio = c.idle.resources ? (old.idle.resources / c.idle.resources).toFixed(1) : '-';
				return `${c.mode.value.padEnd(22)} idle poll ${old.idle.requests} req ${old.idle.resources} res -> ${c.idle.requests} req ${c.idle.resources} res; idle day ${old.idle.resources * POLLS_A_DAY} -> ${c.idle.resources * POLLS_A_DAY} (${ratio}x); new 1/5/20: ${old.fresh.map((f) => `${f.requests},${f.resources}`).join(' ')} -> ${c.fresh.map((f) => `${f.requests},${f.resources}`).join(' ')}`;
			});
			console.log(`versions 1.1 -> ${DEFAULT}\n${lines.join('\n')}`);
		}
		if (process.env.POLL_COSTS_WRITE) {
			const all = page.split('\n');
			all.splice(table.start, table.end - table.start, ...rows);
			writeFileSync(PAGE, all.join('\n'));
			return;
		}
		expect(table.lines.join('\n')).toBe(rows.join('\n'));
	}, 60_000);
});
