import type { IDataObject } from 'n8n-workflow';

/** Everything the trigger keeps lives in the workflow's static data (no module state: queue mode). */
export interface TriggerState extends IDataObject {
	webhookId?: string;
	subscriptionIds?: string[];
	ruleIds?: string[];
	lastReceivedAt?: string;
	/** Start time (ms) of the n8n process that last asked for the replay of a gap. */
	recoveredAfterStart?: number;
	seen?: Record<string, number>;
}

export const DEDUPE_MAX_IDS = 2000;
export const DEDUPE_MAX_AGE_MS = 26 * 60 * 60 * 1000;

/**
 * Returns true when the id was seen recently, and records it otherwise. The record keeps at most
 * DEDUPE_MAX_IDS ids younger than 26 hours.
 */
export function seenBefore(state: TriggerState, id: string, now: number): boolean {
	const seen = (state.seen ??= {});
	if (id && seen[id] !== undefined && now - seen[id] <= DEDUPE_MAX_AGE_MS) return true;
	if (id) seen[id] = now;
	const entries = Object.entries(seen);
	const fresh = entries.filter(([, at]) => now - at <= DEDUPE_MAX_AGE_MS);
	if (fresh.length !== entries.length || fresh.length > DEDUPE_MAX_IDS) {
		fresh.sort((a, b) => a[1] - b[1]);
		state.seen = Object.fromEntries(fresh.slice(-DEDUPE_MAX_IDS));
	}
	return false;
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
 * 24 hours (the oldest minute is the first whole minute inside the window). Undefined when there
 * is no whole minute to replay.
 */
export function replayWindow(since: Date, now: Date): { from_date: string; to_date: string } | undefined {
	const oldest = Math.ceil((now.getTime() - REPLAY_WINDOW_MS) / MINUTE) * MINUTE;
	const from = Math.max(Math.floor(since.getTime() / MINUTE) * MINUTE, oldest);
	const to = Math.floor(now.getTime() / MINUTE) * MINUTE;
	if (to <= from) return undefined;
	return { from_date: replayStamp(new Date(from)), to_date: replayStamp(new Date(to)) };
}
