import type { IDataObject } from 'n8n-workflow';

/**
 * The Activity Stream Trigger's decisions, without I/O: which event copies start a run (claims), how
 * far the trigger has caught up (the position), what a (re)connection asks the service to send again
 * (the catch-up query), and what a run n8n could not start undoes (release). The trigger shell
 * (activityStream.ts) feeds it what the connection does; test/trigger/activityStreamProperty.test.ts
 * drives it through random schedules against a model of the service and of n8n.
 *
 * Times are the trigger's clock. The stream's lines carry no time of their own (the contract's
 * ActivityStreamingResponse has event_uuid, event_type, filter, tag and payload only), and a
 * keep-alive line says nothing about the backlog: the service sends keep-alives on a timer, also in
 * the middle of a long backlog. So the position moves only on proof that every event up to a time has
 * been sent: a catch-up asked with an `end_time` whose answer ended (not cut) has sent everything up
 * to that end. A connection without an end (the live one) never moves the position; the trigger closes
 * it CHECKPOINT_MS after the position and asks a bounded catch-up, which re-sends what it carried
 * (dropped by the remembered ids) and moves the position to its end.
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
/**
 * A connection without an end is closed this long after the position, for a bounded catch-up that
 * moves the position: what a restart re-sends (and the ids kept for it) stays within this and KEEP_IDS_MS.
 */
export const CHECKPOINT_MS = 2 * MINUTE;
/**
 * A bounded catch-up ends this long before it is asked: an end_time in the service's future (its
 * clock behind this one) could be refused or left open; the catch-up margin is the skew allowed.
 */
const END_LAG_MS = CATCH_UP_MARGIN_MS;
/**
 * At most this many ids, in memory and in the static data (saved with each run n8n starts). Every id
 * a restart's catch-up can re-send is saved up to this many: beyond it (more events than this within
 * CHECKPOINT_MS and KEEP_IDS_MS), n8n's deduplication key is the only guard against a second run.
 */
export const MAX_SAVED_IDS = 20_000;
/**
 * The ids in memory: the same cap, trimmed with every event (not with keep-alives, which a catch-up may
 * never send), so a catch-up that never hears one stays within it. Ids whose run is not known to have
 * started are never dropped (that could start a second run); there are at most MAX_PENDING of them,
 * fewer than this cap, so the trimming always gets the memory back within it.
 */
export const MAX_MEMORY_IDS = MAX_SAVED_IDS;
/**
 * At the cap the saved record drops its oldest ids this many at a time (it then holds between
 * MAX_SAVED_IDS - RECORD_TRIM and MAX_SAVED_IDS): one move of the array per 256 events instead of
 * one per event, about a quarter of a microsecond per event at the cap.
 */
export const RECORD_TRIM = 256;
/**
 * At most this many events not known to have started (handed to n8n and not settled, or released and
 * waiting for a copy). A further event is deferred, not claimed: the connection is closed and the next
 * catch-up sends it again, since the position does not pass it (nothing is lost, the memory is
 * bounded). 10,000 is 100 s of the highest rate the trigger is measured at (100 events/s) with no run
 * settling, about 1 MB of memory; n8n settles a run when it ends, so only an n8n whose runs stall (or
 * an outage) reaches it.
 */
export const MAX_PENDING = 10_000;
/**
 * A released event whose copy has not come back for this long is given up (the shell logs it as an
 * error): the service replays events of up to the past 24 hours (its replay window; taken to hold
 * for the activity stream's catch-up too, and the sandbox keeps the stream's events as long), so a
 * catch-up can no longer fetch it, and holding the position for it would hold every later catch-up
 * forever.
 */
export const MAX_COPY_WAIT_MS = 24 * 60 * MINUTE;

/** A time as the contract's start_time and end_time take it: whole seconds, UTC. */
function wireTime(ms: number): string {
	return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The catch-up query for a (re)connection when everything before `since` is handled. */
export function catchUpQuery(since: number | undefined, now: number): IDataObject {
	if (since === undefined || !Number.isFinite(since) || since > now) return {};
	const gap = now - since + CATCH_UP_MARGIN_MS;
	if (gap <= MAX_BACKFILL_MINUTES * MINUTE)
		return { backfill_minutes: Math.max(1, Math.ceil(gap / MINUTE)) };
	return { start_time: wireTime(since - CATCH_UP_MARGIN_MS) };
}

/** What the trigger keeps in its static data: n8n saves it when a run it started ends. */
export interface SavedPosition extends IDataObject {
	/** Every event the service sent before this time (ISO) is handled. */
	caughtUpTo?: string;
	/** Ids handled near the position (id, ms): a restart's catch-up re-sends them. */
	handled?: Array<[string, number]>;
}

interface Connection {
	/** The position when it opened: where its catch-up started. */
	since: number | undefined;
	/** Its end_time (ms): the answer ends once everything up to it is sent. */
	end: number | undefined;
	/**
	 * Its end proves nothing: an event of it was deferred (MAX_PENDING), or the service reported that it
	 * disconnects the reader (operational-disconnect, e.g. SlowReader) before the answer's end.
	 */
	unproven?: boolean;
}

/** 'defer': too many events pending (MAX_PENDING): not taken, a later catch-up sends it again. */
export type Arrival = 'run' | 'drop' | 'defer';

export class StreamCore {
	/**
	 * Ids that started (or are starting) a run, each with the latest time the service can have stamped
	 * it (a bounded catch-up's end, else when it came), in the order they came. The times never go
	 * down along the map (a claim's time is at least the one before it: kept a little longer, never
	 * shorter), so the ids a catch-up from the position can re-send are always its newest ones.
	 */
	private readonly claims = new Map<string, number>();
	/** The newest claim's time. */
	private latest = -Infinity;
	/**
	 * The claims in the order prune() looks at them, from `head` on: a queue, because walking the map
	 * from its start for each event also walks every entry deleted since V8 last rebuilt the map (all
	 * the ids the last checkpoint forgot), which grows with the ids remembered. An entry whose claim was
	 * released or taken again since is skipped when it comes up.
	 */
	private order: Array<[string, number]> = [];
	private head = 0;
	/**
	 * What saved() hands out as `handled`: the claims of the last KEEP_IDS_MS behind the position, at
	 * most MAX_SAVED_IDS, oldest first. Kept as events come (pushed at the end, the oldest taken from the
	 * front), so an event costs the same however many ids are remembered (issue 53); made again from the
	 * claims only when one leaves from the middle (a released run, ids taken from a record).
	 */
	private record: Array<[string, number]> = [];
	private recordStale = false;
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
		this.adopt(saved);
		// A record saved with a larger cap (an older version) is trimmed to this one's at once.
		this.prune();
	}

	/** Claims `id` at `at` (or at the newest claim's time, when later). */
	private claim(id: string, at: number): void {
		const time = Math.max(at, this.latest);
		this.latest = time;
		this.claims.set(id, time);
		this.order.push([id, time]);
		if (!this.recordStale) this.record.push([id, time]);
	}

	/** Takes the ids of `saved` as claims (a restart, or what another leader saved). */
	private adopt(saved: SavedPosition | undefined): void {
		let taken = false;
		for (const entry of saved?.handled ?? [])
			if (Array.isArray(entry) && typeof entry[0] === 'string' && !this.claims.has(entry[0])) {
				// An unreadable time: kept as if handled at the position (dropped when a catch-up no longer reaches it).
				const at = Number(entry[1]);
				this.claims.set(entry[0], Number.isFinite(at) && at > 0 ? at : (this.position ?? 0));
				// Released here and waiting for a copy, claimed in the record: another leader handled it.
				this.unsettled.delete(entry[0]);
				taken = true;
			}
		if (!taken) return;
		// The record's times among ours: the map in time order again (once per activation).
		const sorted = [...this.claims].sort((a, b) => a[1] - b[1]);
		this.claims.clear();
		for (const [id, at] of sorted) this.claims.set(id, at);
		this.order = sorted.map(([id, at]) => [id, at]);
		this.head = 0;
		this.latest = sorted.length ? sorted[sorted.length - 1][1] : -Infinity;
		this.recordStale = true;
	}

	/** How far the position may go because of runs not known to have started. */
	private get floor(): number {
		let floor = Infinity;
		for (const bound of this.unsettled.values()) floor = Math.min(floor, bound);
		return floor;
	}

	/**
	 * This trigger becomes active again in a process that remembers an earlier activation (a workflow
	 * saved while active, or a main instance that leads again): a position another leader saved meanwhile
	 * is taken, with its ids, when it is ahead of this memory.
	 */
	resume(saved: SavedPosition | undefined): void {
		const at = Date.parse(String(saved?.caughtUpTo ?? ''));
		if (Number.isFinite(at) && (this.position === undefined || at > this.position)) {
			let next = at;
			for (const bound of this.unsettled.values()) next = Math.min(next, bound);
			if (this.position === undefined || next > this.position) this.position = next;
		}
		this.adopt(saved);
		this.prune();
	}

	/** How far the trigger has caught up (undefined: nowhere yet). */
	get caughtUpTo(): number | undefined {
		return this.position;
	}

	/**
	 * The query for a connection opened at `now`: a bounded catch-up (with end_time) once the position
	 * is CHECKPOINT_MS old, else a catch-up without an end.
	 */
	query(now: number): IDataObject {
		const position = this.position;
		if (position === undefined) return {};
		const end = Math.floor((now - END_LAG_MS) / 1000) * 1000;
		// A run not known to have started holds the position: a bounded catch-up could not move it.
		if (now - position < CHECKPOINT_MS || end <= position || this.floor <= position)
			return catchUpQuery(position, now);
		return { start_time: wireTime(position - CATCH_UP_MARGIN_MS), end_time: wireTime(end) };
	}

	/** A connection opened at `now` with `query(now)`. */
	opened(_now: number, query: IDataObject): void {
		const end = Date.parse(String(query.end_time ?? ''));
		this.connection = { since: this.position, end: Number.isFinite(end) ? end : undefined };
	}

	/** Whether the open connection should be closed for a bounded catch-up (see CHECKPOINT_MS). */
	checkpointDue(now: number): boolean {
		const connection = this.connection;
		return (
			!!connection &&
			connection.end === undefined &&
			this.position !== undefined &&
			now - this.position >= CHECKPOINT_MS &&
			this.floor > this.position
		);
	}

	/** An event line of ours: 'run' when this copy is the one to start a run. */
	event(id: string, now: number): Arrival {
		const connection = this.connection;
		if (!id) return 'run';
		if (this.claims.has(id)) return 'drop';
		const before = this.unsettled.get(id);
		if (before === undefined && this.unsettled.size >= MAX_PENDING) {
			// The position stays before it: this connection's end no longer moves it (ended()).
			if (connection) connection.unproven = true;
			return 'defer';
		}
		this.claim(id, Math.min(now, connection?.end ?? now));
		// A copy may be as old as its connection's catch-up start: the position waits for its run there.
		const bound = connection?.since ?? now;
		this.unsettled.set(id, before === undefined ? bound : Math.min(before, bound));
		this.prune();
		return 'run';
	}

	/** n8n started (or refused as a duplicate) the run of `id`. */
	started(id: string): void {
		this.unsettled.delete(id);
	}

	/**
	 * n8n did not start the run of `id`: the claim is released, so that a later copy runs, and the
	 * position stays before it until then. The caller reconnects so that the catch-up sends it again.
	 */
	notStarted(id: string): void {
		this.claims.delete(id);
		// It leaves the record from its middle: made again at the next saved() (a failed start only).
		this.recordStale = true;
		// The bound stays in `unsettled`: the position may not pass the event until a copy starts.
	}

	/**
	 * The answer ended by itself (not cut, not closed by the trigger): a bounded catch-up has sent every
	 * event up to its end, and the position moves there (not past a run not known to have started).
	 * True when it was such a catch-up.
	 */
	ended(): boolean {
		const connection = this.connection;
		this.connection = undefined;
		if (!connection || connection.end === undefined || connection.unproven) return false;
		let next = connection.end;
		for (const bound of this.unsettled.values()) next = Math.min(next, bound);
		if (this.position === undefined || next > this.position) this.position = next;
		this.prune();
		return true;
	}

	/**
	 * The service reported on the open connection that it disconnects it for operational reasons: its
	 * problem type `operational-disconnect`, whose `disconnect_type` includes `SlowReader` (a reader
	 * that does not keep up, as the trigger is when it waits for runs to finish).
	 * The answer may then end cleanly before everything up to its end_time was sent, so its end does not
	 * move the position: the next catch-up asks for the same span again.
	 */
	disconnectReported(): void {
		if (this.connection) this.connection.unproven = true;
	}

	/** The connection ended (cut, stalled, closed). */
	closed(): void {
		this.connection = undefined;
	}

	/** Whether a run handed to n8n is not settled yet (the shell keeps its memory until then). */
	get running(): boolean {
		for (const id of this.unsettled.keys()) if (this.claims.has(id)) return true;
		return false;
	}

	/** How many events are not known to have started (at most MAX_PENDING). */
	get pending(): number {
		return this.unsettled.size;
	}

	/**
	 * Gives up released events whose copy has not come for MAX_COPY_WAIT_MS (no catch-up can fetch them
	 * any more): they no longer hold the position. Returns their ids, for the shell to log.
	 */
	expire(now: number): string[] {
		const gone: string[] = [];
		for (const [id, bound] of this.unsettled)
			if (!this.claims.has(id) && now - bound > MAX_COPY_WAIT_MS) gone.push(id);
		for (const id of gone) this.unsettled.delete(id);
		return gone;
	}

	/** Whether a run n8n did not start is waiting for another copy. */
	get waitingForCopy(): boolean {
		for (const id of this.unsettled.keys()) if (!this.claims.has(id)) return true;
		return false;
	}

	/** Forgets ids no catch-up from the position can re-send, and the oldest beyond the cap. */
	private prune(): void {
		const oldest = this.position === undefined ? -Infinity : this.position - KEEP_IDS_MS;
		// Claim order, and times never go down: the oldest come first. A claim whose run is not known to
		// have started is kept, and goes to the back of the queue (it comes up again after the others).
		const order = this.order;
		for (let seen = order.length - this.head; seen > 0 && this.head < order.length; seen--) {
			const entry = order[this.head];
			const [id, at] = entry;
			if (this.claims.get(id) !== at) {
				this.head++;
				continue;
			}
			if (this.claims.size <= MAX_MEMORY_IDS && at >= oldest) break;
			this.head++;
			if (this.unsettled.has(id)) order.push(entry);
			else this.claims.delete(id);
		}
		// The queue drops what it has passed, in one cut once that is more than half of it.
		if (this.head > 1024 && this.head * 2 > order.length) {
			this.order = order.slice(this.head);
			this.head = 0;
		}
		this.trimRecord();
	}

	/**
	 * The record's oldest ids leave from its front, in one cut: the ids behind the keep window (when the
	 * position moves, about every two minutes), and at the cap RECORD_TRIM of them at a time. Taking
	 * them one by one would move the whole array each time (V8 moves an array of this size for every
	 * shift), as costly per event as the copy this record replaces.
	 */
	private trimRecord(): void {
		if (this.recordStale) return;
		const oldest = (this.position ?? 0) - KEEP_IDS_MS;
		const record = this.record;
		let cut = 0;
		while (cut < record.length && record[cut][1] < oldest) cut++;
		if (record.length - cut > MAX_SAVED_IDS)
			cut = Math.max(cut, record.length - MAX_SAVED_IDS + RECORD_TRIM);
		if (cut) record.splice(0, cut);
	}

	/**
	 * What to keep in the static data now (n8n saves it when a run it started ends). `handled` is the
	 * core's own record, not a copy: the shell hands it to the static data again with each save, and
	 * takes a copy instead once it is closed (see activityStream.ts).
	 */
	saved(): SavedPosition {
		const out: SavedPosition = {};
		if (this.position !== undefined) out.caughtUpTo = new Date(this.position).toISOString();
		if (this.recordStale) {
			const oldest = (this.position ?? 0) - KEEP_IDS_MS;
			const handled: Array<[string, number]> = [];
			for (const [id, at] of this.claims) if (at >= oldest) handled.push([id, at]);
			this.record = handled.slice(-MAX_SAVED_IDS);
			this.recordStale = false;
		}
		this.trimRecord();
		out.handled = this.record;
		return out;
	}
}
