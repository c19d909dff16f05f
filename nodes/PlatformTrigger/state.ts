import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

/**
 * What the trigger keeps in the workflow's static data, so that any n8n process (and a restarted one)
 * knows it. Static data is loaded per request and saved after the answer, so two deliveries handled at
 * the same moment each read the same old copy: the duplicate check itself runs against a record in this
 * process's memory (below), and the persisted ids only seed it.
 */
export interface TriggerState extends IDataObject {
	webhookId?: string;
	subscriptionIds?: string[];
	ruleIds?: string[];
	/** Account Activity mode: the account subscribed to the webhook (removed on deactivation). */
	accountUserId?: string;
	lastReceivedAt?: string;
	/**
	 * Event ids already handled, as one compact string (see encodeRecord): n8n serialises and rewrites
	 * the whole static data column on every save. SQLite stores the string as written; PostgreSQL
	 * compresses the column, which made the older pairs form (80 KB for 2,000 ids) about as small as
	 * this one (16 KB, hashes do not compress). One string rather than an object because n8n wraps
	 * every object in static data in a change-tracking proxy. Earlier versions wrote a JSON string of
	 * [id, time] pairs, and before that an object of id -> time; both are still read.
	 */
	seen?: string | Record<string, number>;
}

export const DEDUPE_MAX_IDS = 2000;
export const DEDUPE_MAX_AGE_MS = 26 * 60 * 60 * 1000;

/**
 * The record keeps a 48-bit hash of each event id (8 characters of base64url: the first 6 bytes of its
 * SHA-256), never the id itself. A new event is mistaken for a duplicate only when its hash equals one
 * of the ids in the record: with n ids the chance is n / 2^48 per new event, at most
 * 2,000 / 2^48 ≈ 7.1e-12 (one event in about 140 billion at a full record). Hashes make every entry
 * the same short length whatever the service's ids look like.
 */
export const ID_HASH_BITS = 48;

/** The 8-character base64url hash of an event id (see ID_HASH_BITS). */
export function idHash(id: string): string {
	return createHash('sha256')
		.update(id)
		.digest()
		.subarray(0, ID_HASH_BITS / 8)
		.toString('base64url');
}

const HASH_CHARS = ID_HASH_BITS / 6;
const MINUTE_MS = 60_000;
/**
 * The persisted form's version prefix; a string without it is an older form. Versions before this one
 * read a record in this form as none (a downgrade starts with an empty record).
 */
const RECORD_PREFIX = 'h48';
const GROUP = /^([0-9a-z]{1,9}):((?:[A-Za-z0-9_-]{8})+)$/;

/**
 * The persisted form: `h48`, then per minute, oldest first, `;<minute>:<hashes>`, where <minute> is the
 * minute (since the epoch, base 36) at whose end the ids of the group had all been seen, and <hashes>
 * their hashes run together. 2,000 ids take about 16 KB, against 80-110 KB as [id, time] pairs. A
 * time rounds up to its minute's end, so an id read back is kept up to a minute longer than 26 hours,
 * never shorter.
 */
export function encodeRecord(entries: Iterable<[string, number]>): string {
	let text = RECORD_PREFIX;
	let minute = Number.NaN;
	for (const [hash, at] of entries) {
		const m = Math.ceil(at / MINUTE_MS);
		if (m !== minute) {
			minute = m;
			text += `;${m.toString(36)}:`;
		}
		text += hash;
	}
	return text;
}

/** Hashes and times of a persisted string in the current form; a malformed group is skipped. */
function decodeRecord(text: string): Array<[string, number]> {
	const entries: Array<[string, number]> = [];
	for (const group of text.slice(RECORD_PREFIX.length + 1).split(';')) {
		const match = GROUP.exec(group);
		if (!match) continue;
		const at = parseInt(match[1], 36) * MINUTE_MS;
		for (let i = 0; i < match[2].length; i += HASH_CHARS)
			entries.push([match[2].slice(i, i + HASH_CHARS), at]);
	}
	return entries;
}

/** Event ids (their hashes, with the time first seen) per trigger, for this n8n process; oldest first. */
const claimed = new Map<string, Map<string, number>>();
/**
 * Ids (hashes) this process has claimed but whose run has not started yet, per trigger. They stay out
 * of every copy of the static data this process saves: a process killed before their runs start must
 * not leave them recorded, or the service's retry (which the proxy sends to another process) would be
 * dropped as a duplicate and the event lost. This process's own memory still holds them, so a copy that
 * reaches it meanwhile is dropped.
 */
const pending = new Map<string, Set<string>>();
/**
 * The `seen` string this process last wrote per trigger. Static data that still holds it carries
 * nothing this process does not know, so the merge is skipped; anything else (a restart, another
 * process's deliveries, an older form) is merged.
 */
const lastWritten = new Map<string, string>();

/**
 * The persisted ids of a trigger's static data as [hash, time] pairs, in any form: the current one,
 * the JSON string of [id, time] pairs and the object of id -> time (their ids hashed here). Unreadable
 * data counts as none.
 */
export function persistedIds(state: TriggerState): Array<[string, number]> {
	const seen = state.seen;
	if (typeof seen === 'string' && seen.startsWith(`${RECORD_PREFIX};`)) return decodeRecord(seen);
	let pairs: unknown[] = [];
	if (typeof seen === 'string') {
		try {
			const parsed: unknown = JSON.parse(seen);
			if (Array.isArray(parsed)) pairs = parsed;
		} catch {
			pairs = [];
		}
	} else if (seen && typeof seen === 'object') {
		pairs = Object.entries(seen);
	}
	return pairs
		.filter(
			(p): p is [string, number] =>
				Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'number',
		)
		.map(([id, at]) => [idHash(id), at]);
}

/** How often claimNewIds looks for triggers whose record has expired (see forgetExpiredTriggers). */
export const SWEEP_EVERY_MS = 60_000;
let lastSweep = Number.NEGATIVE_INFINITY;

/**
 * Forgets the in-memory record of every trigger whose newest id is older than DEDUPE_MAX_AGE_MS (none
 * of its ids would count any more). Webhook processes run no lifecycle hook, so they never learn that
 * a workflow was deactivated or deleted: without this they would keep its record (up to 2,000 ids and
 * the last string written, ~16 KB) for as long as they live. A trigger that is still active merely
 * re-reads its persisted ids at its next delivery. At most once per SWEEP_EVERY_MS.
 */
export function forgetExpiredTriggers(now: number): void {
	if (now - lastSweep < SWEEP_EVERY_MS) return;
	lastSweep = now;
	for (const [key, ids] of claimed) {
		let newest = Number.NEGATIVE_INFINITY;
		for (const at of ids.values()) newest = Math.max(newest, at);
		if (now - newest > DEDUPE_MAX_AGE_MS) {
			claimed.delete(key);
			pending.delete(key);
			lastWritten.delete(key);
		}
	}
}

/** How many triggers this process holds a record of (for tests and diagnostics). */
export function triggersInMemory(): number {
	return claimed.size;
}

/** The key of one trigger node in one workflow. */
export function triggerKey(workflowId: unknown, nodeId: unknown): string {
	return `${String(workflowId ?? '')}:${String(nodeId ?? '')}`;
}

function prune(ids: Map<string, number>, waiting: Set<string> | undefined, now: number): void {
	// Insertion order is arrival order, so the oldest entries come first.
	for (const [id, at] of ids) {
		if (ids.size <= DEDUPE_MAX_IDS && now - at <= DEDUPE_MAX_AGE_MS) break;
		ids.delete(id);
		waiting?.delete(id);
	}
}

/**
 * Claims event ids for one trigger: returns the ids that were not seen before and records them in
 * this process's memory, in one synchronous step, so that copies of an event handled at the same
 * moment by this process cannot both pass (JavaScript runs no other request between the check and the
 * record). The persisted ids (a restart, or another process's deliveries) are merged in first; the
 * record is bounded to DEDUPE_MAX_IDS ids younger than 26 hours. The new ids reach the static data only
 * through `persistClaimed`, once their run has started.
 */
export function claimNewIds(
	key: string,
	state: TriggerState,
	ids: string[],
	now: number,
): Set<string> {
	forgetExpiredTriggers(now);
	let record = claimed.get(key);
	if (!record) {
		record = new Map();
		claimed.set(key, record);
	}
	let waiting = pending.get(key);
	if (!waiting) {
		waiting = new Set();
		pending.set(key, waiting);
	}
	const persisted =
		state.seen === undefined || state.seen === lastWritten.get(key)
			? []
			: persistedIds(state).filter(([id, at]) => !record.has(id) && now - at <= DEDUPE_MAX_AGE_MS);
	if (persisted.length) {
		const merged = [...record, ...persisted].sort((a, b) => a[1] - b[1]);
		record.clear();
		for (const [id, at] of merged) record.set(id, at);
	}
	const fresh = new Set<string>();
	for (const id of ids) {
		if (!id) {
			fresh.add(id);
			continue;
		}
		const hash = idHash(id);
		const at = record.get(hash);
		if (at !== undefined && now - at <= DEDUPE_MAX_AGE_MS) continue;
		record.delete(hash);
		record.set(hash, now);
		waiting.add(hash);
		fresh.add(id);
	}
	prune(record, waiting, now);
	return fresh;
}

/**
 * Marks `started` (ids this process claimed) as run, and writes this process's record of a trigger,
 * without the ids whose runs have not started, into a copy of its static data; the write is also what
 * marks the copy changed for n8n. Encoded anew every time (2,000 ids: about 16 KB, a fraction of a
 * millisecond): nearly every call records a newly started run anyway.
 */
export function persistClaimed(key: string, state: TriggerState, started: Iterable<string>): void {
	const record = claimed.get(key);
	if (!record) return;
	const waiting = pending.get(key);
	for (const id of started) waiting?.delete(idHash(id));
	const text = encodeRecord(
		waiting?.size ? [...record].filter(([hash]) => !waiting.has(hash)) : record,
	);
	lastWritten.set(key, text);
	state.seen = text;
}

/**
 * Gives up the claims of a delivery whose run n8n did not start: n8n answered it (500: the database or
 * the queue refused the run) without reading the trigger's answer, so the service sends the events
 * again, and that copy, which the proxy routes to this same process, must run rather than be dropped
 * as a duplicate. Ids whose run started meanwhile (a copy in another delivery) stay claimed. Returns
 * the ids released.
 */
export function releaseClaimed(key: string, ids: Iterable<string>): string[] {
	const record = claimed.get(key);
	const waiting = pending.get(key);
	if (!record || !waiting) return [];
	const released: string[] = [];
	for (const id of ids) {
		const hash = idHash(id);
		if (waiting.delete(hash)) {
			record.delete(hash);
			released.push(id);
		}
	}
	return released;
}

/** Forgets one trigger's in-memory record (deactivation). */
export function forgetTrigger(key: string): void {
	claimed.delete(key);
	pending.delete(key);
	lastWritten.delete(key);
	recovered.delete(key);
}

/** Triggers whose restart recovery this process has already started (once per process start). */
const recovered = new Set<string>();

/** True the first time it is called for a trigger in this process. */
export function firstRecoveryInProcess(key: string): boolean {
	if (recovered.has(key)) return false;
	recovered.add(key);
	return true;
}

export function clearState(state: TriggerState): void {
	for (const key of Object.keys(state)) delete state[key];
}

/** yyyymmddhhmm in UTC. */
export function replayStamp(date: Date): string {
	const pad = (n: number) => String(n).padStart(2, '0');
	return `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}`;
}

const MINUTE = 60_000;
export const REPLAY_WINDOW_MS = 24 * 60 * MINUTE;

/**
 * The replay window for a gap that started at `since`: minute granularity, within the service's
 * 24 hours (the oldest minute is the first whole minute inside the window). Undefined when the
 * last delivery lies in the future (a clock change).
 */
export function replayWindow(
	since: Date,
	now: Date,
): { from_date: string; to_date: string } | undefined {
	const oldest = Math.ceil((now.getTime() - REPLAY_WINDOW_MS) / MINUTE) * MINUTE;
	const from = Math.max(Math.floor(since.getTime() / MINUTE) * MINUTE, oldest);
	const to = Math.floor(now.getTime() / MINUTE) * MINUTE;
	// from = to is one whole minute (to_date's minute is included): a restart within the minute of the
	// last delivery still replays that minute; events already handled are dropped as duplicates.
	if (to < from) return undefined;
	return { from_date: replayStamp(new Date(from)), to_date: replayStamp(new Date(to)) };
}
