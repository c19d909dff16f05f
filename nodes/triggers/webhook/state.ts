import { createHash, randomBytes } from 'node:crypto';
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
	/**
	 * Which n8n process wrote `seen` (a random tag per process start). A copy this process wrote
	 * holds nothing its memory lacks, so reading it skips the merge.
	 */
	seenBy?: string;
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

/** The key of one trigger node in one workflow. */
export function triggerKey(workflowId: unknown, nodeId: unknown): string {
	return `${String(workflowId ?? '')}:${String(nodeId ?? '')}`;
}

/** How often claimNewIds looks for triggers whose record has expired (see forgetExpiredTriggers). */
export const SWEEP_EVERY_MS = 60_000;

/**
 * Group commit of the record. n8n rewrites the workflow's whole static data whenever a delivery marks
 * it changed (on PostgreSQL about 8 bytes of WAL per recorded id, 16 KB at 2,000 ids). A delivery that
 * started runs for new events always writes before its answer: once the service has its 200 it never
 * sends them again, and only the record keeps a later replay from running them twice. (Leaving that
 * write to another delivery still being answered is not safe: if n8n then fails to start that one's
 * run, nothing writes until the next request, and a restart before it replays the acknowledged events
 * a second time.) A delivery with nothing new of its own (copies, status events) writes what the
 * process still has unwritten (a merged copy of another process, lastReceivedAt) only when no other
 * delivery of the trigger is being answered by this process or the last write is
 * WRITE_AT_LEAST_EVERY_MS old.
 */
export const WRITE_AT_LEAST_EVERY_MS = 1000;
/** A delivery still unanswered after this long no longer holds back the writes (a safety net). */
const ANSWER_STALE_MS = 60_000;
/**
 * A claim whose caller hung up before any answer (the service's 10 s deadline) while n8n was still
 * starting the run: n8n then either starts the run (and reads the answer) or answers a 500 on the
 * closed connection, which sends nothing and tells the trigger nothing. A copy arriving this long after
 * such a claim was made takes it over and runs; a run n8n starts later than this after its delivery
 * arrived can then run twice (the window production docs name).
 */
export const ORPHANED_CLAIM_MS = 60_000;

/** The map of one trigger in a per-trigger map, made empty on first use. */
function entryOf<K, V>(maps: Map<string, Map<K, V>>, key: string): Map<K, V> {
	let map = maps.get(key);
	if (!map) {
		map = new Map();
		maps.set(key, map);
	}
	return map;
}

/** What became of a claimed id whose run had not started when a copy of it arrived. */
export type ClaimOutcome = 'started' | 'released' | 'pending';

interface Claim {
	/** The delivery (answerOpened token) that claimed it. */
	token: symbol;
	claimedAt: number;
	/** When the caller of that delivery hung up without an answer, if it did. */
	hungUpAt?: number;
	/**
	 * The saved record (another process, or an earlier start of this one) holds the id as run: every
	 * write keeps it, and a failed start here does not forget it.
	 */
	recordedElsewhere?: boolean;
}

/**
 * What one n8n process knows of the triggers it serves: the duplicate record in memory, the claims of
 * runs not started yet, the deliveries being answered and the record's group commit. Every decision of
 * the delivery protocol is a method here, taking the event (a delivery arrived, its run started, its
 * answer went out, its caller hung up) and the time; receive.ts is the shell that maps n8n's webhook
 * call onto these events. One instance per process (`processMemory`); tests make more to stand for
 * other processes and restarts.
 */
export class DeliveryMemory {
	/** This process's tag in `seenBy` (see TriggerState). */
	readonly tag = randomBytes(6).toString('base64url');
	/** Event ids (their hashes, with the time first seen) per trigger; oldest first. */
	private readonly claimed = new Map<string, Map<string, number>>();
	/**
	 * Ids (hashes) this process has claimed but whose run has not started yet, per trigger. They stay
	 * out of every copy of the static data this process saves: a process killed before their runs
	 * start must not leave them recorded, or the service's retry (which the proxy sends to another
	 * process) would be dropped as a duplicate and the event lost. This process's own memory still
	 * holds them, so a copy that reaches it meanwhile waits for the outcome (see outcomeOf).
	 */
	private readonly pending = new Map<string, Map<string, Claim>>();
	/** Per trigger: the deliveries this process is answering (token -> when opened). */
	private readonly answering = new Map<string, Map<symbol, number>>();
	/** Per trigger: when this process last wrote the record into a copy n8n saves. */
	private readonly writtenAt = new Map<string, number>();
	/** Triggers whose record holds something this process has not written yet. */
	private readonly unwritten = new Set<string>();
	/** Per trigger: the latest delivery this process received (ms), saved as lastReceivedAt. */
	private readonly receivedAt = new Map<string, number>();
	/** Triggers whose restart recovery this process has already started (once per process start). */
	private readonly recovered = new Set<string>();
	/**
	 * Per trigger: events (hashes) whose run n8n did not start, with when this process first received
	 * each, until one of their copies runs (or is found run elsewhere). The record's writes hold
	 * lastReceivedAt back at the oldest of them, so that a restart's recovery replays them too.
	 */
	private readonly notRun = new Map<string, Map<string, number>>();
	/** Per trigger: copies waiting for a claim's outcome (see changed). */
	private readonly waiters = new Map<string, Array<() => void>>();
	private lastSweep = Number.NEGATIVE_INFINITY;

	/**
	 * Forgets the in-memory record of every trigger whose newest id is older than DEDUPE_MAX_AGE_MS
	 * (none of its ids would count any more). Webhook processes run no lifecycle hook, so they never
	 * learn that a workflow was deactivated or deleted: without this they would keep its record (up to
	 * 2,000 ids, about 100 KB in memory) for as long as they live. A trigger that is still active merely
	 * re-reads its persisted ids at its next delivery. At most once per SWEEP_EVERY_MS.
	 */
	forgetExpiredTriggers(now: number): void {
		if (now - this.lastSweep < SWEEP_EVERY_MS) return;
		this.lastSweep = now;
		for (const [key, ids] of this.claimed) {
			let newest = Number.NEGATIVE_INFINITY;
			for (const at of ids.values()) newest = Math.max(newest, at);
			// Events n8n did not run count too: a trigger whose every claim was released (each run failed
			// to start) has an empty record, and forgetting it lost where its own replay must start.
			for (const at of this.notRun.get(key)?.values() ?? []) newest = Math.max(newest, at);
			if (now - newest > DEDUPE_MAX_AGE_MS) this.forgetMemory(key);
		}
	}

	/** How many triggers this process holds a record of (for tests and diagnostics). */
	triggersInMemory(): number {
		return this.claimed.size;
	}

	/**
	 * Claims event ids for one trigger: returns the ids that were not seen before and records them in
	 * this process's memory, in one synchronous step, so that copies of an event handled at the same
	 * moment by this process cannot both pass (JavaScript runs no other request between the check and
	 * the record). The persisted ids (a restart, or another process's deliveries) are merged in first;
	 * the record is bounded to DEDUPE_MAX_IDS ids younger than 26 hours. The new ids reach the static
	 * data only once their run has started. `token` names the delivery that claims them (answerOpened).
	 */
	claimNewIds(
		key: string,
		state: TriggerState,
		ids: string[],
		now: number,
		token: symbol = Symbol('unanswerable'),
	): Set<string> {
		this.forgetExpiredTriggers(now);
		const record = this.recordOf(key);
		const waiting = this.pendingOf(key);
		const ours = state.seenBy === this.tag && record.size > 0;
		const saved = state.seen === undefined || ours ? [] : persistedIds(state);
		const persisted = saved.filter(([id, at]) => !record.has(id) && now - at <= DEDUPE_MAX_AGE_MS);
		/** Ids another process (or an earlier start of this one) recorded as run. */
		const runElsewhere = new Set(saved.map(([id]) => id));
		for (const [hash, claim] of waiting) if (runElsewhere.has(hash)) claim.recordedElsewhere = true;
		const notRun = this.notRun.get(key);
		if (notRun) for (const hash of runElsewhere) notRun.delete(hash);
		// A copy another process (or an earlier start of this one) wrote may lack this process's ids (its
		// writer read an older copy): the next write re-asserts them.
		if (state.seen !== undefined && !ours) this.unwritten.add(key);
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
			if (at !== undefined && now - at <= DEDUPE_MAX_AGE_MS) {
				const claim = waiting.get(hash);
				// A claim whose caller hung up long ago, with no run started since: n8n gave up on it,
				// unless a copy ran in another process meanwhile (the saved record holds it).
				if (!claim?.hungUpAt || now - claim.claimedAt < ORPHANED_CLAIM_MS) continue;
				if (runElsewhere.has(hash) || claim.recordedElsewhere) {
					waiting.delete(hash);
					this.notify(key);
					continue;
				}
			}
			record.delete(hash);
			record.set(hash, now);
			waiting.set(hash, { token, claimedAt: now });
			fresh.add(id);
		}
		this.prune(record, waiting, now);
		return fresh;
	}

	/**
	 * What became of the claim on `id` (not fresh for a delivery): 'started' when its run has started
	 * (or it was recorded before), 'released' when the delivery that held it ended without a run (a
	 * copy may now claim it), 'pending' while n8n is still starting that run.
	 */
	outcomeOf(key: string, id: string, now: number): ClaimOutcome {
		const hash = idHash(id);
		const claim = this.pending.get(key)?.get(hash);
		if (claim) {
			return claim.hungUpAt && now - claim.claimedAt >= ORPHANED_CLAIM_MS ? 'released' : 'pending';
		}
		const at = this.claimed.get(key)?.get(hash);
		return at !== undefined && now - at <= DEDUPE_MAX_AGE_MS ? 'started' : 'released';
	}

	/** Resolves at the next change of a claim of the trigger (a run started, a claim released). */
	async changed(key: string): Promise<void> {
		await new Promise<void>((resolve) => {
			const list = this.waiters.get(key) ?? [];
			list.push(resolve);
			this.waiters.set(key, list);
		});
	}

	private notify(key: string): void {
		const list = this.waiters.get(key);
		if (!list) return;
		this.waiters.delete(key);
		for (const resolve of list) resolve();
	}

	/**
	 * Marks `started` (ids this process claimed) as run, and writes this process's record of a
	 * trigger, without the ids whose runs have not started, into a copy of its static data, with
	 * lastReceivedAt; the write is also what marks the copy changed for n8n. Encoded anew every time
	 * (2,000 ids: about 16 KB, a fraction of a millisecond).
	 */
	persistClaimed(key: string, state: TriggerState, started: Iterable<string>, now: number): void {
		this.markStarted(key, started);
		this.writeRecord(key, state, now);
	}

	/** Notes that this process received a delivery for a trigger at `now` (its next write saves it). */
	noteReceived(key: string, now: number): void {
		this.receivedAt.set(key, Math.max(now, this.receivedAt.get(key) ?? Number.NEGATIVE_INFINITY));
		this.unwritten.add(key);
	}

	/** A delivery this process has started to answer; close it with answerClosed. */
	answerOpened(key: string, now: number): symbol {
		const token = Symbol(key);
		entryOf(this.answering, key).set(token, now);
		return token;
	}

	/** The delivery's answer is out (or its caller hung up); repeated calls do nothing. */
	answerClosed(key: string, token: symbol): void {
		this.answering.get(key)?.delete(token);
	}

	/**
	 * The caller of delivery `token` hung up before its answer: its claims not started yet may be
	 * orphaned (see ORPHANED_CLAIM_MS).
	 */
	callerHungUp(key: string, token: symbol, now: number): void {
		this.answerClosed(key, token);
		for (const claim of this.pending.get(key)?.values() ?? [])
			if (claim.token === token) claim.hungUpAt ??= now;
	}

	/**
	 * The run of a delivery (`token`) has started: marks its ids as run and writes the record into its
	 * copy of the static data, or, when the delivery started nothing new of its own, leaves the copy
	 * unchanged (n8n then saves nothing) by the group commit rule (WRITE_AT_LEAST_EVERY_MS). True when
	 * it wrote.
	 */
	recordStarted(
		key: string,
		state: TriggerState,
		started: Iterable<string>,
		token: symbol,
		now: number,
	): boolean {
		this.answerClosed(key, token);
		const own = this.markStarted(key, started);
		if (!this.unwritten.has(key)) return false;
		if (this.leavesWriteToOthers(key, own, now)) return false;
		this.writeRecord(key, state, now);
		return true;
	}

	/**
	 * The group commit rule (WRITE_AT_LEAST_EVERY_MS): whether a delivery whose run started may leave
	 * the record's write to another delivery of this process still being answered. Never when it
	 * started new runs of its own (`own`). Protected so that the protocol's explorer can put the hole
	 * this rule closes back (a subclass that ignores `own`) and show that it finds it.
	 */
	protected leavesWriteToOthers(key: string, own: boolean, now: number): boolean {
		return (
			!own &&
			this.othersAnswering(key, now) &&
			now - (this.writtenAt.get(key) ?? Number.NEGATIVE_INFINITY) < WRITE_AT_LEAST_EVERY_MS
		);
	}

	/**
	 * Gives up the claims of a delivery whose run n8n did not start: n8n answered it (500: the database
	 * or the queue refused the run) without reading the trigger's answer, so the service sends the
	 * events again, and that copy, which the proxy routes to this same process, must run rather than be
	 * dropped as a duplicate. Ids whose run started meanwhile (a copy in another delivery) stay
	 * claimed, and so do ids another delivery claims now. Returns the ids released.
	 */
	releaseClaimed(key: string, ids: Iterable<string>, token?: symbol): string[] {
		const record = this.claimed.get(key);
		const waiting = this.pending.get(key);
		if (!record || !waiting) return [];
		const released: string[] = [];
		for (const id of ids) {
			const hash = idHash(id);
			const claim = waiting.get(hash);
			if (!claim || (token && claim.token !== token)) continue;
			waiting.delete(hash);
			if (claim.recordedElsewhere) continue; // it ran elsewhere: still a duplicate here
			record.delete(hash);
			released.push(id);
		}
		if (released.length) this.notify(key);
		return released;
	}

	/** True the first time it is called for a trigger in this process. */
	firstRecoveryInProcess(key: string): boolean {
		if (this.recovered.has(key)) return false;
		this.recovered.add(key);
		return true;
	}

	/** Forgets one trigger's in-memory record (deactivation). */
	forgetTrigger(key: string): void {
		this.forgetMemory(key);
		this.recovered.delete(key);
	}

	private recordOf(key: string): Map<string, number> {
		return entryOf(this.claimed, key);
	}

	private pendingOf(key: string): Map<string, Claim> {
		return entryOf(this.pending, key);
	}

	private prune(ids: Map<string, number>, waiting: Map<string, Claim>, now: number): void {
		// Insertion order is arrival order, so the oldest entries come first.
		for (const [id, at] of ids) {
			if (ids.size <= DEDUPE_MAX_IDS && now - at <= DEDUPE_MAX_AGE_MS) break;
			ids.delete(id);
			waiting.delete(id);
		}
	}

	/**
	 * Notes that n8n did not start the run of `id`, received now at `at`: returns when this process
	 * first received it (an earlier failed copy's time), kept until a copy runs.
	 */
	notRunSince(key: string, id: string, at: number): number {
		const notRun = entryOf(this.notRun, key);
		const hash = idHash(id);
		const first = Math.min(notRun.get(hash) ?? at, at);
		notRun.delete(hash);
		notRun.set(hash, first);
		for (const [old, when] of notRun)
			if (notRun.size > DEDUPE_MAX_IDS || at - when > DEDUPE_MAX_AGE_MS) notRun.delete(old);
			else break;
		return first;
	}

	/** True when any of `started` was this process's claim not yet marked as run. */
	private markStarted(key: string, started: Iterable<string>): boolean {
		const waiting = this.pending.get(key);
		const notRun = this.notRun.get(key);
		let any = false;
		for (const id of started) {
			notRun?.delete(idHash(id));
			if (waiting?.delete(idHash(id))) any = true;
			this.unwritten.add(key);
		}
		if (any) this.notify(key);
		return any;
	}

	private writeRecord(key: string, state: TriggerState, now: number): void {
		const record = this.claimed.get(key);
		if (!record) return;
		const waiting = this.pending.get(key);
		state.seen = encodeRecord(
			waiting?.size
				? [...record].filter(([hash]) => !waiting.has(hash) || waiting.get(hash)?.recordedElsewhere)
				: record,
		);
		state.seenBy = this.tag;
		const received = this.receivedAt.get(key);
		const saved = state.lastReceivedAt ? Date.parse(state.lastReceivedAt) : Number.NaN;
		// Held back at the oldest event this process received and n8n did not run (see notRun).
		let oldestNotRun = Number.POSITIVE_INFINITY;
		for (const at of this.notRun.get(key)?.values() ?? [])
			oldestNotRun = Math.min(oldestNotRun, at);
		if (received !== undefined) {
			const since = Math.min(received, oldestNotRun);
			if (!(saved >= received) || since < saved)
				state.lastReceivedAt = new Date(since).toISOString();
		}
		this.writtenAt.set(key, now);
		this.unwritten.delete(key);
	}

	private othersAnswering(key: string, now: number): boolean {
		const open = this.answering.get(key);
		if (!open) return false;
		for (const [token, at] of open) if (now - at > ANSWER_STALE_MS) open.delete(token);
		return open.size > 0;
	}

	private forgetMemory(key: string): void {
		this.claimed.delete(key);
		this.pending.delete(key);
		this.answering.delete(key);
		this.writtenAt.delete(key);
		this.unwritten.delete(key);
		this.receivedAt.delete(key);
		this.notRun.delete(key);
	}
}

/** This n8n process's memory of its triggers. */
export const processMemory = new DeliveryMemory();

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
