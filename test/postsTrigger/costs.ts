/**
 * What a poll of each mode asks the service for, measured on the real poll(): a fake service holding a
 * list of 100 items (fewer than the 200 ids the node remembers; newest first, pages as large as
 * asked), the position recorded by a first poll, then an idle poll; and, from a position recorded
 * anew, a poll that finds 1, 5 or 20 new items. Requests and resources (items answered, what the
 * service bills) are counted on the mode's own endpoint; the lookup of the authenticated account
 * (GET /2/users/me) is not counted, as the cost table says. The table of
 * docs/nodes/platform-poll-trigger.md ("What polling costs") is made from these figures
 * (test/docs/pollCosts.test.ts holds it equal).
 */
import type { IDataObject } from 'n8n-workflow';

import { MODES, type ModeSpec, type PollMode } from '../../nodes/triggers/poll/modes';
import { poll } from '../../nodes/triggers/poll/poll';
import { defaultCredentials } from '../helpers/context';
import { EXPLORED } from './explorer/model';
import { pollContext, postIdAt } from './helpers';

/** The new items of the measured polls. */
export const NEW_ITEMS = [1, 5, 20] as const;
/** n8n's default Poll Times: every minute. */
export const POLLS_A_DAY = 1_440;
/** Items of the watched list before the first poll. */
const LIST_LENGTH = 100;
const ME = '7';

export interface Cost {
	requests: number;
	resources: number;
}

export interface ModeCosts {
	mode: ModeSpec;
	version: number;
	idle: Cost;
	/** By NEW_ITEMS. */
	fresh: Cost[];
}

/** A fake service holding a list of one mode, and the real poll() of a version reading it. */
function fake(value: PollMode, version: number) {
	const mode = MODES.find((m) => m.value === value)!;
	const explored = EXPLORED[value];
	// Older items an hour old (recent search reads a few minutes behind its newest id: an idle day has
	// nothing that recent), new ones made now.
	let n = 0;
	const at = (ms: number) => String(BigInt(postIdAt(ms)) + BigInt(++n));
	const items: IDataObject[] = [];
	const add = (count: number, ms: number) => {
		for (let i = 0; i < count; i++) {
			const id = mode.unpaged ? `1S${String(++n).padStart(11, '0')}` : at(ms);
			items.push({ ...explored.entry(id, n), ...(mode.unpaged ? { state: 'live' } : {}) });
		}
	};
	add(LIST_LENGTH, Date.now() - 3_600_000);
	let count: Cost = { requests: 0, resources: 0 };
	const staticData: IDataObject = {};
	const helpers = {
		async httpRequestWithAuthentication(
			_type: string,
			options: { url: string; qs?: IDataObject },
		): Promise<unknown> {
			const url = new URL(options.url);
			const q = (options.qs ?? {}) as Record<string, string>;
			if (url.pathname === '/2/users/me')
				return { statusCode: 200, headers: {}, body: { data: { id: ME } } };
			if (url.pathname !== explored.path(ME)) throw new Error(`unexpected ${url.pathname}`);
			// Newest first; every id here is newer than the ones before it, by id and by when added.
			let list = [...items].reverse();
			if (q.since_id !== undefined)
				list = list.filter((i) => BigInt(String(i.id)) > BigInt(q.since_id));
			if (q.start_time !== undefined) throw new Error('start_time not expected here');
			let page = list;
			const meta: IDataObject = {};
			if (!mode.unpaged) {
				const max = Number(q.max_results);
				if (!(max >= mode.page.min && max <= mode.page.max))
					throw new Error(`max_results ${q.max_results} out of bounds`);
				const start = q[mode.tokenParam] ? Number(q[mode.tokenParam]) : 0;
				page = list.slice(start, start + max);
				if (start + max < list.length) meta.next_token = String(start + max);
			}
			meta.result_count = page.length;
			count.requests++;
			count.resources += page.length;
			return {
				statusCode: 200,
				headers: {},
				body: page.length ? { data: page, meta } : { meta },
			};
		},
	};
	const node = {
		id: 'node-1',
		name: 'Poll',
		type: 'n8n-nodes-platform.platformPostsTrigger',
		typeVersion: version,
		position: [0, 0],
		parameters: {},
		credentials: { [explored.credentialType]: { id: 'credential-0', name: 'Account' } },
	};
	const run = async (): Promise<Cost> => {
		count = { requests: 0, resources: 0 };
		// Each poll in a window of its own: the measured polls are not paced by the assumed limits.
		delete staticData.rate;
		const built = pollContext(
			{
				event: value,
				authentication: explored.credentialType,
				...explored.parameters,
			},
			staticData,
			'trigger',
			{
				helpers,
				getNode: () => node,
				getCredentials: async (type: string) => defaultCredentials()[type],
			},
			version,
		);
		await poll.call(built.context);
		return count;
	};
	return { run, add };
}

/**
 * The position recorded by a first poll, then an idle poll; for each of NEW_ITEMS, from a position
 * recorded anew, one poll that finds that many new items.
 */
export async function measure(value: PollMode, version: number): Promise<ModeCosts> {
	const mode = MODES.find((m) => m.value === value)!;
	const service = fake(value, version);
	await service.run();
	const idle = await service.run();
	const fresh: Cost[] = [];
	for (const k of NEW_ITEMS) {
		const each = fake(value, version);
		await each.run();
		await each.run();
		each.add(k, Date.now());
		fresh.push(await each.run());
	}
	return { mode, version, idle, fresh };
}

const thousands = (v: number) => v.toLocaleString('en-US');
const cost = (c: Cost) => `${c.requests}, ${thousands(c.resources)}`;

/** The price of an owned read per resource (platform.md, Limits: "Owned reads price"). */
export const OWNED_PRICE = 0.001;
/** The owned-read endpoints' last path segments (platform.md's list, as the mode paths name them). */
const OWNED = new Set([
	'bookmarks',
	'tweets',
	'mentions',
	'liked_tweets',
	'followers',
	'following',
]);

export const money = (resources: number) =>
	resources === 0 ? '0' : String(Number((resources * OWNED_PRICE).toFixed(6)));

/** The modes whose endpoint is an owned read (GET /2/users/:id/...). */
export function owned(mode: ModeSpec): boolean {
	const match = /^\/2\/users\/ID\/([a-z_]+)$/.exec(mode.path('ID'));
	return !!match && OWNED.has(match[1]);
}

/** The table's rows, as the page has them (current: the default version; before: versions 1, 1.1). */
export function tableRows(current: ModeCosts[], before: ModeCosts[]): string[] {
	const header = [
		'| Trigger On | Window (requests / 15 min, assumed) | Idle poll: requests, resources | Idle day: requests, resources | Idle day, versions 1 and 1.1: resources | Poll with 1 / 5 / 20 new items: requests, resources | Price: idle day; polls with 1 / 5 / 20 new items |',
		'|---|---|---|---|---|---|---|',
	];
	const rows = current.map((c) => {
		const old = before.find((b) => b.mode.value === c.mode.value)!;
		if (c.mode.unpaged) {
			return `| ${c.mode.name} | ${c.mode.rateLimit} | ${c.idle.requests}, every Space of the creator the service answers | ${thousands(c.idle.requests * POLLS_A_DAY)}, ${thousands(POLLS_A_DAY)} × that | ${thousands(POLLS_A_DAY)} × that | ${c.fresh.map((f) => `${f.requests}, the same`).join(' / ')} | not stated |`;
		}
		const price = owned(c.mode)
			? `${money(c.idle.resources * POLLS_A_DAY)}; ${c.fresh.map((f) => money(f.resources)).join(' / ')}`
			: 'not stated';
		return `| ${c.mode.name} | ${c.mode.rateLimit} | ${cost(c.idle)} | ${thousands(c.idle.requests * POLLS_A_DAY)}, ${thousands(c.idle.resources * POLLS_A_DAY)} | ${thousands(old.idle.resources * POLLS_A_DAY)} | ${c.fresh.map(cost).join(' / ')} | ${price} |`;
	});
	return [...header, ...rows];
}

/** Every mode at a version. */
export async function measureAll(version: number): Promise<ModeCosts[]> {
	const all: ModeCosts[] = [];
	for (const mode of MODES) all.push(await measure(mode.value, version));
	return all;
}
