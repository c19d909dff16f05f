import { MODES } from '../../nodes/triggers/poll/modes';
import { listFiles, readText } from '../helpers/files';

/**
 * The prices on the user pages are the service's documented ones (../shared/spec/platform.md, where
 * the team's machines and CI have it), and the Poll Trigger's money column follows from its resource
 * column at that price: a changed price, a changed resource count or a mode whose endpoint becomes an
 * owned read fails here until the pages say so.
 */
const SPEC = '../shared/spec';
const prose = listFiles(SPEC).includes('platform.md') ? readText(`${SPEC}/platform.md`) : undefined;
const plans = readText('docs/plans-and-prices.md');
const pollPage = readText('docs/nodes/platform-poll-trigger.md');

/** The price of an owned read as the page states it ("0.001 per resource"). */
const OWNED_PRICE = 0.001;

/** The owned-read endpoints: the prose's list where it is here, else the one the page was written from. */
function ownedSuffixes(): string[] {
	const fallback =
		'bookmarks blocking muting pinned_lists tweets mentions liked_tweets followers following owned_lists followed_lists list_memberships';
	if (!prose) return fallback.split(' ');
	const line = prose.split('\n').find((l) => /Owned-read endpoints/.test(l));
	expect(line).toBeDefined();
	const paths = line!.split('|')[2];
	return [...paths.matchAll(/\/([a-z_]+)(?=,|\s*$)/g)].map((m) => m[1]);
}

/** The rows of the cost table under "What polling costs", by their first cell. */
function costRows(): Map<string, string[]> {
	const section = pollPage.slice(pollPage.indexOf('## What polling costs'));
	const rows = new Map<string, string[]>();
	for (const line of section.split('\n')) {
		if (!line.startsWith('| New ')) continue;
		const cells = line
			.slice(1, -1)
			.split('|')
			.map((c) => c.trim());
		rows.set(cells[0], cells);
	}
	return rows;
}

function money(n: number): string {
	return n === 0 ? '0' : String(Number((n * OWNED_PRICE).toFixed(6)));
}

/** "2, 11 / 3, 15 / 3, 100" (requests, resources of each poll) → "0.011 / 0.015 / 0.1". */
function priceOf(resources: string): string {
	return resources
		.split(' / ')
		.map((part) => {
			const m = /^\d+, (\d[\d,]*)$/.exec(part.trim());
			if (!m) throw new Error(`not a "requests, resources" cell: ${part}`);
			return money(Number(m[1].replace(/,/g, '')));
		})
		.join(' / ');
}

describe('plans and prices', () => {
	(prose ? it : it.skip)(
		"the plans page states every price of the service's documentation, and its unit as the documentation does",
		() => {
			const limits = prose!.split('\n').filter((l) => /price/i.test(l) && l.startsWith('|'));
			const stated = limits.flatMap((l) =>
				[...l.split('|')[2].matchAll(/(\d+\.\d+) per ([A-Za-z ]+?)(?=;|\s*$|\s+on\b)/g)].map(
					(m) => `${m[1]} per ${m[2].trim()}`,
				),
			);
			expect(stated).toEqual(
				expect.arrayContaining([
					'0.001 per resource',
					'0.015 per post',
					'0.20 per post containing a URL',
					'0.01 per summoned reply',
				]),
			);
			for (const price of stated) expect(plans).toContain(price);
			// The documentation names no currency beside a price; the page must say so, not invent one.
			const currency = /\b(USD|EUR|dollars?|euros?|cents?)\b|[$€£]\s?\d/i;
			expect(limits.some((l) => currency.test(l))).toBe(false);
			expect(plans).toMatch(/unit of money is not stated/);
			expect(currency.test(plans)).toBe(false);
		},
	);

	it("the Poll Trigger's cost table prices exactly the owned-read modes, from their resource counts", () => {
		const owned = new Set(ownedSuffixes());
		expect(owned.has('mentions')).toBe(true);
		const rows = costRows();
		expect([...rows.keys()].sort()).toEqual(MODES.map((m) => m.name).sort());
		for (const mode of MODES) {
			const cells = rows.get(mode.name)!;
			const price = cells[cells.length - 1];
			const match = /^\/2\/users\/ID\/([a-z_]+)$/.exec(mode.path('ID'));
			if (!match || !owned.has(match[1])) {
				expect(`${mode.name}: ${price}`).toBe(`${mode.name}: not stated`);
				continue;
			}
			const idleDay = cells[3].split(', ')[1];
			const expected = `${money(Number(idleDay.replace(/,/g, '')))}; ${priceOf(cells[5])}`;
			expect(`${mode.name}: ${price}`).toBe(`${mode.name}: ${expected}`);
		}
	});

	it('the pricing of the cost table can fail: a wrong figure is caught', () => {
		expect(priceOf('2, 11 / 3, 15 / 3, 100')).toBe('0.011 / 0.015 / 0.1');
		expect(priceOf('1, 1 / 1, 5 / 1, 20')).toBe('0.001 / 0.005 / 0.02');
		expect(() => priceOf('2, 10 + k')).toThrow();
		expect(money(14400)).toBe('14.4');
		expect(money(14400)).not.toBe('1.44');
	});

	it("every example is priced on the plans page and in its first sticky note, with the page's figures", () => {
		const files = listFiles('examples').filter((f) => f.endsWith('.json'));
		expect(files.length).toBeGreaterThanOrEqual(6);
		const table = plans.slice(plans.indexOf('## What each example costs'));
		for (const file of files) {
			const row = table.split('\n').find((l) => l.startsWith(`| \`${file}\` |`));
			expect(`${file}: ${row ? 'priced' : 'not on the plans page'}`).toBe(`${file}: priced`);
			const wf = JSON.parse(readText(`examples/${file}`)) as {
				nodes: Array<{ type: string; parameters: { content?: string } }>;
			};
			const note = wf.nodes.find((n) => n.type === 'n8n-nodes-base.stickyNote');
			const content = note?.parameters.content ?? '';
			const cost = content.split('\n').find((l) => /^\*\*Cost\*\*/.test(l.trim()));
			expect(`${file}: ${cost ? 'cost in its note' : 'no **Cost** line in its first note'}`).toBe(
				`${file}: cost in its note`,
			);
			// Each figure of the note is one the plans page gives this example.
			const [, perRun, perIdleDay] = row!.split(' | ');
			const pageFigures = `${perRun} ${perIdleDay}`;
			for (const figure of cost!.match(/\b\d+(?:[.,]\d+)*\b/g) ?? [])
				expect(`${file}: ${figure}`).toBe(
					`${file}: ${pageFigures.includes(figure) ? figure : `${figure} (not on the plans page)`}`,
				);
		}
	});
});
