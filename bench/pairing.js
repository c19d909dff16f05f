'use strict';
/**
 * How bench/trigger.js orders its sides and turns rounds into ratios, kept free of n8n so that
 * test/bench/pairing.test.ts can check it.
 *
 * n8n slows down through a benchmark run (its execution history and heap grow), so a side measured later
 * looks slower. Hence:
 *   - the trigger and the side of the headline ratio run back to back in every round, each first in
 *     every other round, and the other sides rotate around that pair (roundOrder);
 *   - the number of rounds is even (evenRounds), so each of the pair goes first equally often;
 *   - a ratio is the median over rounds of (trigger in round r ÷ side in round r) (pairedRatio), never
 *     the ratio of two medians, which can set a fast round of one side against a slow round of the other.
 *
 * The target is the same for every mode and every headline: TARGET (the trigger at least as fast).
 */

/** The trigger finishes at least as many runs per second as the side: trigger ÷ side ≥ 1.0×. */
const TARGET = 1.0;

/**
 * The rounds to run for a requested count: a whole number of at least 1, rounded up to the next even
 * number (so that each side of the pair goes first as often as the other).
 */
function evenRounds(requested) {
	const n = Number(requested);
	if (!Number.isInteger(n) || n < 1)
		throw new Error(`BENCH_ROUNDS must be a whole number of at least 1, got "${requested}"`);
	const rounds = n % 2 ? n + 1 : n;
	return { requested: n, rounds, roundedUp: rounds !== n };
}

/**
 * The order of the side keys in round `r` (from 0). The two keys of `pair` that are present run back to
 * back as one unit, in the given order in even rounds and reversed in odd rounds; the unit sits where
 * the first of them is in `keys`, and the units rotate by one place per round (with as many rounds as
 * units, each unit takes every place once).
 */
function roundOrder(keys, r, pair) {
	const together = keys
		.filter((k) => pair.includes(k))
		.sort((a, b) => pair.indexOf(a) - pair.indexOf(b));
	if (r % 2 === 1) together.reverse();
	const units = [];
	for (const k of keys) {
		if (!pair.includes(k)) units.push([k]);
		else if (together.length && k === keys.find((x) => pair.includes(x))) units.push(together);
	}
	return units.map((_, i) => units[(i + r) % units.length]).flat();
}

/** The median of numbers (the mean of the middle two for an even count); NaN for none. */
function median(values) {
	if (!values.length) return NaN;
	const v = [...values].sort((a, b) => a - b);
	const mid = Math.floor(v.length / 2);
	return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/**
 * Round by round `numerator[r] ÷ denominator[r]` and the median of those ratios. A round without a
 * finite, positive pair of figures has no ratio (NaN), and then neither has the median: a missing round
 * is never left out in the trigger's favour.
 */
function pairedRatio(numerator, denominator) {
	if (numerator.length !== denominator.length)
		throw new Error(
			`rounds differ: ${numerator.length} against ${denominator.length}; a ratio pairs the same rounds`,
		);
	const perRound = numerator.map((x, i) => {
		const y = denominator[i];
		return Number.isFinite(x) && Number.isFinite(y) && x >= 0 && y > 0 ? x / y : NaN;
	});
	return {
		perRound,
		median: perRound.some((x) => Number.isNaN(x)) ? NaN : median(perRound),
	};
}

/**
 * Which n8n settings of N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE a run measures, from BENCH_LAZY
 * (both | on | off; `fallback` when unset): a list of modes, each `{ lazy, env }` with the variable
 * to give every n8n process of that mode.
 */
function lazyModes(value, fallback) {
	const v = String(value === undefined || value === '' ? fallback : value).toLowerCase();
	const off = { lazy: false, env: {} };
	const on = { lazy: true, env: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' } };
	if (v === 'both') return [off, on];
	if (v === 'on') return [on];
	if (v === 'off') return [off];
	throw new Error(`BENCH_LAZY must be both, on or off, got "${value}"`);
}

module.exports = { TARGET, evenRounds, roundOrder, median, pairedRatio, lazyModes };
