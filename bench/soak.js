'use strict';
/**
 * The checks of bench/stream.js's rounds and soak, kept free of n8n so that test/bench/soak.test.ts can
 * check them: each event once (from the runs counted per event id), and whether memory grows (the
 * least-squares slope of resident memory over events run).
 */

/**
 * Given `counts` (a Map of event id to the runs a sink received for it) and the ids sent: how many sent
 * ids never ran (missing), the extra runs of ids that ran more than once (twice), and the runs of ids
 * that were never sent (foreign).
 */
function onceCheck(counts, ids) {
	const sent = new Set(ids);
	let missing = 0;
	let twice = 0;
	for (const id of sent) {
		const c = counts.get(id) || 0;
		if (c === 0) missing++;
		else if (c > 1) twice += c - 1;
	}
	let foreign = 0;
	for (const [id, c] of counts) if (!sent.has(id)) foreign += c;
	return { missing, twice, foreign };
}

/** The least-squares slope of ys over xs (NaN with fewer than two points or one x). */
function slope(xs, ys) {
	const n = xs.length;
	if (n < 2 || ys.length !== n) return NaN;
	const mx = xs.reduce((a, b) => a + b, 0) / n;
	const my = ys.reduce((a, b) => a + b, 0) / n;
	let num = 0;
	let den = 0;
	for (let i = 0; i < n; i++) {
		num += (xs[i] - mx) * (ys[i] - my);
		den += (xs[i] - mx) ** 2;
	}
	return den ? num / den : NaN;
}

module.exports = { onceCheck, slope };
