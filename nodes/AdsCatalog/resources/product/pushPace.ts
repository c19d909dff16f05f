import { sleep } from 'n8n-workflow';

import type { RateWindow } from '../../../shared/errors';

/** Adaptive pace: at most this many batches at once, whatever the window allows. */
export const ADAPTIVE_MAX_CONCURRENCY = 32;

/**
 * How many batches of a push may be in flight, and when the next one may start.
 *
 * Fixed (`adaptive` false): always `start` batches, as version 1 of the node does.
 *
 * Adaptive: starts at `start` batches. Every answer carries the service's 15-minute window (requests
 * left, reset time); the pace then allows at most half of the requests left, between 1 and `max`, so
 * that the batches in flight can never use up the window by themselves. An answer without rate-limit
 * headers leaves the pace as it is (no headers: never more than `start`). A 429 drops the pace to one
 * batch and holds every batch not yet sent until the reset the service named; the refused request is
 * retried by the transport after that reset (bounded), and the next answers raise the pace again.
 */
export class PushPace {
	limit: number;
	inFlight = 0;
	/** Epoch ms before which no new batch starts (a 429, or a window with nothing left). */
	holdUntil = 0;
	private readonly waiting: Array<() => void> = [];

	constructor(
		readonly start: number,
		readonly adaptive: boolean,
		readonly max = ADAPTIVE_MAX_CONCURRENCY,
		private readonly now: () => number = Date.now,
	) {
		this.limit = start;
	}

	/** How many workers a push needs: the most batches that may ever be in flight. */
	get workers(): number {
		return this.adaptive ? Math.max(this.max, this.start) : this.start;
	}

	/** Takes one answer's rate-limit window into account. */
	observe(window: RateWindow): void {
		if (!this.adaptive) return;
		const reset = window.resetAt?.getTime();
		if (window.limited) {
			this.limit = 1;
			if (reset !== undefined) this.holdUntil = Math.max(this.holdUntil, reset);
			return;
		}
		if (window.remaining === undefined) return;
		this.limit = Math.min(this.max, Math.max(1, Math.floor(window.remaining / 2)));
		if (window.remaining === 0 && reset !== undefined)
			this.holdUntil = Math.max(this.holdUntil, reset);
		this.wake();
	}

	/** Waits until one more batch may be sent, then counts it as in flight. */
	async acquire(): Promise<void> {
		for (;;) {
			const hold = this.holdUntil - this.now();
			if (hold > 0) {
				await sleep(hold);
				continue;
			}
			if (this.inFlight < this.limit) {
				this.inFlight++;
				return;
			}
			await new Promise<void>((resolve) => this.waiting.push(resolve));
		}
	}

	/** A batch was answered (or failed): its place is free. */
	release(): void {
		this.inFlight--;
		this.wake();
	}

	private wake(): void {
		// Every waiter checks again; the ones that find no place wait again.
		for (const resolve of this.waiting.splice(0)) resolve();
	}
}
