/**
 * The webhook trigger's duplicate check (DeliveryMemory.claimNewIds in nodes/triggers/webhook/state.ts)
 * at its edges: an event without an id, a copy exactly 26 hours after the first, an orphaned claim
 * exactly ORPHANED_CLAIM_MS old. Written for mutants that `npm run test:mutation` left alive
 * (bench/results/mutation.md).
 */
import {
	DEDUPE_MAX_AGE_MS,
	DeliveryMemory,
	ORPHANED_CLAIM_MS,
} from '../../nodes/triggers/webhook/state';

const T0 = Date.parse('2026-11-25T12:00:00.000Z');
const KEY = 'workflow-1:node-1';

describe('the duplicate check at its edges', () => {
	it('runs every event without an id, each time it comes', () => {
		const memory = new DeliveryMemory();
		expect([...memory.claimNewIds(KEY, {}, [''], T0)]).toEqual(['']);
		expect([...memory.claimNewIds(KEY, {}, [''], T0 + 1)]).toEqual(['']);
	});

	it('drops a copy that comes exactly 26 hours after the first, and runs one a millisecond later', () => {
		const memory = new DeliveryMemory();
		expect(memory.claimNewIds(KEY, {}, ['a'], T0).has('a')).toBe(true);
		expect(memory.claimNewIds(KEY, {}, ['a'], T0 + DEDUPE_MAX_AGE_MS).size).toBe(0);
		const later = new DeliveryMemory();
		later.claimNewIds(KEY, {}, ['a'], T0);
		expect(later.claimNewIds(KEY, {}, ['a'], T0 + DEDUPE_MAX_AGE_MS + 1).has('a')).toBe(true);
	});

	it(`lets a copy take over a claim whose caller hung up once the claim is ${ORPHANED_CLAIM_MS} ms old, not before`, () => {
		const memory = new DeliveryMemory();
		const token = memory.answerOpened(KEY, T0);
		memory.claimNewIds(KEY, {}, ['a'], T0, token);
		memory.callerHungUp(KEY, token, T0 + 10_000);
		expect(memory.claimNewIds(KEY, {}, ['a'], T0 + ORPHANED_CLAIM_MS - 1).size).toBe(0);
		expect(memory.claimNewIds(KEY, {}, ['a'], T0 + ORPHANED_CLAIM_MS).has('a')).toBe(true);
	});
});
