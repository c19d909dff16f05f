/* eslint-disable @typescript-eslint/no-require-imports -- the bench is plain CommonJS */
/** The checks of bench/stream.js: each event once, and memory growth over a soak. */
const { onceCheck, slope } = require('../../bench/soak');

describe('onceCheck', () => {
	it('passes when every id sent ran once and nothing else ran', () => {
		const counts = new Map([
			['1', 1],
			['2', 1],
		]);
		expect(onceCheck(counts, ['1', '2'])).toEqual({ missing: 0, twice: 0, foreign: 0 });
	});

	it('counts an id that never ran, the extra runs of an id, and runs of ids not sent', () => {
		const counts = new Map([
			['1', 3],
			['3', 2],
			['9', 2],
		]);
		expect(onceCheck(counts, ['1', '2', '3'])).toEqual({ missing: 1, twice: 3, foreign: 2 });
	});

	it('counts an id sent twice as one event', () => {
		expect(onceCheck(new Map([['1', 1]]), ['1', '1'])).toEqual({
			missing: 0,
			twice: 0,
			foreign: 0,
		});
	});
});

describe('slope', () => {
	it('is the slope of points on a line, and zero for flat memory', () => {
		expect(slope([0, 1, 2, 3], [5, 7, 9, 11])).toBeCloseTo(2);
		expect(slope([0, 10, 20], [500, 500, 500])).toBe(0);
	});

	it('is NaN without two distinct points', () => {
		expect(slope([1], [1])).toBeNaN();
		expect(slope([2, 2], [1, 3])).toBeNaN();
	});
});
