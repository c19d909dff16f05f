/* eslint-disable @typescript-eslint/no-require-imports -- the bench is plain CommonJS */
/** The round plan and the ratios of bench/trigger.js. */
const {
	TARGET,
	evenRounds,
	roundOrder,
	median,
	pairedRatio,
	lazyModes,
} = require('../../bench/pairing');

const SIDES = ['trigger', 'isolate', 'diy', 'plain', 'empty'];

describe('evenRounds', () => {
	it('rounds an odd count up to the next even one and says so', () => {
		expect(evenRounds(3)).toEqual({ requested: 3, rounds: 4, roundedUp: true });
		expect(evenRounds('1')).toEqual({ requested: 1, rounds: 2, roundedUp: true });
	});

	it('keeps an even count', () => {
		expect(evenRounds(4)).toEqual({ requested: 4, rounds: 4, roundedUp: false });
		expect(evenRounds('2')).toEqual({ requested: 2, rounds: 2, roundedUp: false });
	});

	it('refuses what is not a whole number of at least 1', () => {
		for (const bad of [0, -2, 2.5, 'four', ''])
			expect(() => evenRounds(bad)).toThrow(/BENCH_ROUNDS must be a whole number/);
	});
});

describe('roundOrder', () => {
	it('runs every side once a round', () => {
		for (let r = 0; r < 4; r++)
			expect([...roundOrder(SIDES, r, ['trigger', 'isolate'])].sort()).toEqual([...SIDES].sort());
	});

	it('keeps the pair back to back in every round, each first in every other round', () => {
		const firsts = [];
		for (let r = 0; r < 4; r++) {
			const order = roundOrder(SIDES, r, ['trigger', 'isolate']);
			const t = order.indexOf('trigger');
			const i = order.indexOf('isolate');
			expect(Math.abs(t - i)).toBe(1);
			firsts.push(t < i ? 'trigger' : 'isolate');
		}
		expect(firsts).toEqual(['trigger', 'isolate', 'trigger', 'isolate']);
	});

	it('pairs the side it is given (the headline of the mode), not always Webhook v1', () => {
		const r0 = roundOrder(SIDES, 0, ['trigger', 'diy']);
		const r1 = roundOrder(SIDES, 1, ['trigger', 'diy']);
		expect(r0.indexOf('diy') - r0.indexOf('trigger')).toBe(1);
		expect(r1.indexOf('trigger') - r1.indexOf('diy')).toBe(1);
	});

	it('over as many rounds as units, gives the trigger and its pair the same mean place', () => {
		// 4 units (the pair, diy, plain, empty) over 4 rounds: each unit takes every place once.
		const place = { trigger: 0, isolate: 0 };
		for (let r = 0; r < 4; r++) {
			const order = roundOrder(SIDES, r, ['trigger', 'isolate']);
			place.trigger += order.indexOf('trigger');
			place.isolate += order.indexOf('isolate');
		}
		expect(place.trigger).toBe(place.isolate);
	});

	it('rotates the other sides around the pair', () => {
		const firstUnit = [0, 1, 2, 3].map((r) => roundOrder(SIDES, r, ['trigger', 'isolate'])[0]);
		expect(firstUnit).toEqual(['trigger', 'diy', 'plain', 'empty']);
	});

	it('works when a side of the pair is not measured (BENCH_SIDES)', () => {
		expect(roundOrder(['trigger', 'empty'], 0, ['trigger', 'isolate'])).toEqual([
			'trigger',
			'empty',
		]);
		expect(roundOrder(['trigger', 'empty'], 1, ['trigger', 'isolate'])).toEqual([
			'empty',
			'trigger',
		]);
		expect(roundOrder(['isolate'], 1, ['trigger', 'isolate'])).toEqual(['isolate']);
	});
});

describe('median', () => {
	it('takes the middle value of an odd count and the mean of the middle two of an even one', () => {
		expect(median([3, 1, 2])).toBe(2);
		expect(median([4, 1, 3, 2])).toBe(2.5);
		expect(median([])).toBeNaN();
	});

	it('leaves its input in order', () => {
		const v = [3, 1, 2];
		median(v);
		expect(v).toEqual([3, 1, 2]);
	});
});

describe('pairedRatio', () => {
	it('is the median of the per-round ratios, not the ratio of the medians, where they differ', () => {
		// The trigger is faster in one round only; its medians still beat the side's (9 against 7.5).
		const trigger = [10, 8, 5, 10];
		const side = [6, 9, 5, 12];
		expect(median(trigger) / median(side)).toBeCloseTo(1.2, 6);
		const r = pairedRatio(trigger, side);
		expect(r.perRound).toEqual([10 / 6, 8 / 9, 1, 10 / 12]);
		expect(r.median).toBeCloseTo((8 / 9 + 1) / 2, 6);
		expect(r.median).toBeLessThan(TARGET);
	});

	it('gives the same rounds the same ratio whatever order they come in, paired round by round', () => {
		const r = pairedRatio([10, 6, 9, 5], [11, 7, 10, 5.5]);
		const shuffled = pairedRatio([5, 9, 10, 6], [5.5, 10, 11, 7]);
		expect(shuffled.median).toBeCloseTo(r.median, 12);
		// Pairing different rounds (the trigger's with the side's of another round) changes it.
		expect(pairedRatio([10, 6, 9, 5], [7, 11, 5.5, 10]).median).not.toBeCloseTo(r.median, 2);
	});

	it('shows the trigger ahead when it leads every round, however far the rounds spread', () => {
		const r = pairedRatio([12, 4, 11, 5], [11.5, 3.8, 10.5, 4.8]);
		expect(r.perRound.every((x: number) => x > 1)).toBe(true);
		expect(r.median).toBeCloseTo((11 / 10.5 + 12 / 11.5) / 2, 6);
		expect(r.median).toBeGreaterThan(TARGET);
	});

	it('handles an odd number of rounds', () => {
		const r = pairedRatio([9, 10, 12], [10, 8, 12]);
		expect(r.perRound).toEqual([0.9, 1.25, 1]);
		expect(r.median).toBe(1);
	});

	it('has no median when a round has no figure: a missing round is never dropped', () => {
		expect(pairedRatio([10, 10], [0, 10]).median).toBeNaN();
		expect(pairedRatio([10, NaN], [10, 10]).median).toBeNaN();
	});

	it('refuses rounds that do not pair up', () => {
		expect(() => pairedRatio([1, 2], [1])).toThrow(/pairs the same rounds/);
	});
});

describe('lazyModes', () => {
	it('gives each mode the variable for its n8n processes', () => {
		expect(lazyModes('both', 'off')).toEqual([
			{ lazy: false, env: {} },
			{ lazy: true, env: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' } },
		]);
		expect(lazyModes('on', 'both')).toEqual([
			{ lazy: true, env: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' } },
		]);
		expect(lazyModes('OFF', 'both')).toEqual([{ lazy: false, env: {} }]);
	});

	it('falls back when unset and refuses anything else', () => {
		expect(lazyModes(undefined, 'both')).toHaveLength(2);
		expect(lazyModes('', 'off')).toEqual([{ lazy: false, env: {} }]);
		expect(() => lazyModes('true', 'both')).toThrow(/BENCH_LAZY must be both, on or off/);
	});
});
