import type { IDataObject } from 'n8n-workflow';

/**
 * The Activity Stream Trigger's decisions, without I/O: which event copies start a run (claims), how
 * far the trigger has caught up (the position), what a (re)connection asks the service to send again
 * (the catch-up query), and what a run n8n could not start undoes (release). The trigger shell
 * (activityStream.ts) feeds it what the connection does; test/trigger/activityStreamProperty.test.ts
 * drives it through random schedules against a model of the service.
 *
 * Times are the trigger's clock. The stream's lines carry no time of their own (the contract's
 * ActivityStreamingResponse has event_uuid, event_type, filter, tag and payload only), so the position
 * is never an event's time: while a connection is catching up it stays where the catch-up started
 * from, and it moves to the connection's times only once the backlog is complete (the first
 * keep-alive: the service sends the backlog before anything else).
 */

const MINUTE = 60_000;
/** The contract's largest backfill_minutes. */
export const MAX_BACKFILL_MINUTES = 5;
/** How far before the position catch-up starts: covers events the service stamped earlier. */
export const CATCH_UP_MARGIN_MS = 30_000;
/**
 * How long before the position a handled event's id is kept: a catch-up from the position re-sends
 * events from at most the margin and one rounded-up backfill minute before it (a minute of slack).
 */
export const KEEP_IDS_MS = CATCH_UP_MARGIN_MS + 2 * MINUTE;
/** At most this many ids in the static data (saved with each run n8n starts). */
export const MAX_SAVED_IDS = 2_000;
/** At most this many ids in memory. */
const MAX_MEMORY_IDS = 20_000;

/** The catch-up query for a (re)connection when everything before `since` is handled. */
export function catchUpQuery(since: number | undefined, now: number): IDataObject {
	if (since === undefined || !Number.isFinite(since) || since > now) return {};
	const gap = now - since + CATCH_UP_MARGIN_MS;
	if (gap <= MAX_BACKFILL_MINUTES * MINUTE)
		return { backfill_minutes: Math.max(1, Math.ceil(gap / MINUTE)) };
	return {
		start_time: new Date(since - CATCH_UP_MARGIN_MS).toISOString().replace(/\.\d{3}Z$/, 'Z'),
	};
}

/** What the trigger keeps in its static data: n8n saves it when the trigger starts a run. */
export interface SavedPosition extends IDataObject {
	/** Every event the service sent before this time (ISO) is handled. */
	caughtUpTo?: string;
	/** Ids handled near the position (id, when it came, ms): a restart's catch-up re-sends them. */
	handled?: Array<[string, number]>;
}

interface Connection {
	/** The position when it opened: where its catch-up started. */
	since: number | undefined;
	caughtUp: boolean;
	lastHeard: number;
}

export type Arrival = 'run' | 'drop';

export class StreamCore {
	/** Ids that started (or are starting) a run, with when they came. */
	private readonly claims = new Map<string, number>();
	/** Events whose run is not known to have started, and how far the position may go because of them. */
	private readonly unsettled = new Map<string, number>();
	private position: number | undefined;
	private connection: Connection | undefined;

	/**
	 * `saved`: the static data of an earlier run of this trigger (a restart), or nothing: a first
	 * activation at `now` (catch-up then covers the time between subscribing and connecting), or
	 * `now` undefined for no catch-up at all (an editor test run).
	 */
	constructor(saved: SavedPosition | undefined, now: number | undefined) {
		const at = Date.parse(String(saved?.caughtUpTo ?? ''));
		this.position = Number.isFinite(at) ? at : now;
		for (const entry of saved?.handled ?? [])
			if (Array.isArray(entry) && typeof entry[0] === 'string')
				this.claims.set(entry[0], Number(entry[1]) || 0);
	}

	/** How far the trigger has caught up (undefined: nowhere yet). */
	get caughtUpTo(): number | undefined {
		return this.position;
	}

	/** The query for a connection opened at `now`. */
	query(now: number): IDataObject {
		return catchUpQuery(this.position, now);
	}

	/** A connection opened at `now` with `query(now)`. */
	opened(now: number, query: IDataObject): void {
		const catchingUp = Object.keys(query).length > 0;
		this.connection = { since: this.position, caughtUp: !catchingUp, lastHeard: now };
		if (!catchingUp) this.advance();
	}

	/** A keep-alive line: the backlog (if any) is complete. */
	keepAlive(now: number): void {
		if (!this.connection) return;
		this.connection.caughtUp = true;
		this.connection.lastHeard = now;
		this.advance();
	}

	/** An event line of ours: 'run' when this copy is the one to start a run. */
	event(id: string, now: number): Arrival {
		const connection = this.connection;
		if (connection) connection.lastHeard = now;
		if (!id) return 'run';
		if (this.claims.has(id)) return 'drop';
		this.claims.set(id, now);
		// A copy from the backlog may be as old as the catch-up's start; a live one is about as old as now.
		const bound = connection && !connection.caughtUp ? (connection.since ?? now) : now;
		const before = this.unsettled.get(id);
		this.unsettled.set(id, before === undefined ? bound : Math.min(before, bound));
		this.advance();
		return 'run';
	}

	/** n8n started (or refused as a duplicate) the run of `id`. */
	started(id: string): void {
		if (!this.unsettled.delete(id)) return;
		this.advance();
	}

	/**
	 * n8n did not start the run of `id`: the claim is released, so that a later copy runs, and the
	 * position stays before it until then. The caller reconnects so that the catch-up sends it again.
	 */
	notStarted(id: string): void {
		this.claims.delete(id);
		// The bound stays in `unsettled`: the position may not pass the event until a copy starts.
	}

	/** The connection ended (cut, stalled, closed). */
	closed(): void {
		this.connection = undefined;
	}

	/** Whether a run n8n did not start is waiting for another copy. */
	get waitingForCopy(): boolean {
		for (const id of this.unsettled.keys()) if (!this.claims.has(id)) return true;
		return false;
	}

	private advance(): void {
		const connection = this.connection;
		if (!connection || !connection.caughtUp) return;
		let next = connection.lastHeard;
		for (const bound of this.unsettled.values()) next = Math.min(next, bound);
		if (this.position === undefined || next > this.position) this.position = next;
		this.prune();
	}

	private prune(): void {
		if (this.position === undefined) return;
		const oldest = this.position - KEEP_IDS_MS;
		// Insertion order is arrival order: the oldest come first.
		for (const [id, at] of this.claims) {
			if (this.claims.size <= MAX_MEMORY_IDS && at >= oldest) break;
			if (!this.unsettled.has(id)) this.claims.delete(id);
		}
	}

	/** What to keep in the static data now (before the next run n8n starts and saves it). */
	saved(): SavedPosition {
		const out: SavedPosition = {};
		if (this.position !== undefined) out.caughtUpTo = new Date(this.position).toISOString();
		const oldest = (this.position ?? 0) - KEEP_IDS_MS;
		const handled = [...this.claims].filter(([, at]) => at >= oldest);
		out.handled = handled.slice(-MAX_SAVED_IDS);
		return out;
	}
}
