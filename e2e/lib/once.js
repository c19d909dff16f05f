'use strict';
/**
 * What the exactly-once tests share: events recorded at the sandbox but sent by the test itself (as
 * copies, in other envelopes, through a chosen proxy), a bounded pool of concurrent sends, the run
 * counts once every event has run and second runs have had time to arrive, and the check that each ran
 * once.
 */

/** Records `n` events at the sandbox without delivering them (the test sends the copies); [{id, raw}]. */
async function recordEvents(ctx, hook, n, text) {
	hook.valid = false;
	try {
		const sent = await ctx.sandbox.emit({
			event_type: 'post.create',
			text,
			count: n,
			webhook_id: hook.id,
		});
		return sent.map((e) => ({
			id: e.event_uuid,
			raw: ctx.sandbox.db.events.find((x) => x.event_uuid === e.event_uuid).raw,
		}));
	} finally {
		hook.valid = true;
	}
}

/** Runs `fn` over `items`, `width` at a time. */
async function pool(items, width, fn) {
	const out = new Array(items.length);
	let next = 0;
	await Promise.all(
		Array.from({ length: width }, async () => {
			while (next < items.length) {
				const i = next++;
				out[i] = await fn(items[i], i);
			}
		}),
	);
	return out;
}

/**
 * Waits until every id has run in `sink`, then `settleMs` for second runs; returns how often each ran
 * (a timeout is not thrown: the caller's assertions name what is missing).
 */
async function runsOf(ctx, sink, ids, { settleMs = 5000, timeoutMs = 120000 } = {}) {
	await ctx
		.waitFor(`${ids.length} events to run`, () => ids.every((id) => ctx.runCounts(sink)[id]), {
			timeoutMs,
		})
		.catch(() => undefined);
	await ctx.sleep(settleMs);
	return ctx.runCounts(sink);
}

/**
 * Asserts that each of `ids` ran exactly once in `counts` (none twice, none lost), naming the first
 * offenders; returns the figures for the log.
 */
function assertOnce(ctx, ids, counts, what) {
	const twice = ids.filter((id) => counts[id] > 1);
	const lost = ids.filter((id) => !counts[id]);
	ctx.assert.equal(
		twice.length + lost.length,
		0,
		`${what}: ${twice.length} of ${ids.length} events ran more than once (${twice.slice(0, 5).join(', ')}), ${lost.length} never ran (${lost.slice(0, 5).join(', ')})`,
	);
	return `${ids.length} of ${ids.length} ran once, 0 twice, 0 lost`;
}

module.exports = { recordEvents, pool, runsOf, assertOnce };
