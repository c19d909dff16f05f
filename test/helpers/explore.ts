/**
 * What the explorers (the Platform Trigger's delivery protocol, the Poll Trigger's position) share: the
 * sweep's size and seed from the environment, and the property every schedule is held to.
 */
import fc from 'fast-check';

/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not shipped: the sweep's size and seed come from the environment */
/** Schedules per sweep: EXPLORER_RUNS, else the explorer's own default. */
export const explorerRuns = (fallback: number): number =>
	Number(process.env.EXPLORER_RUNS ?? 0) || fallback;
/** EXPLORER_SEED replays one failure (fast-check prints the seed and the shrunk schedule). */
const SEED = process.env.EXPLORER_SEED ? Number(process.env.EXPLORER_SEED) : undefined;
/* eslint-enable @n8n/community-nodes/no-restricted-globals */

/**
 * Draws `runs` schedules; one whose `violation` names a broken invariant fails the sweep with it.
 * `firstFailure`: stop at the first failing schedule without shrinking it (a "its checks can fail"
 * test needs one failure, not the smallest; shrinking a planted bug's schedule took minutes).
 */
export async function explore<S>(
	schedule: fc.Arbitrary<S>,
	violation: (s: S) => Promise<string | undefined>,
	runs: number,
	{ firstFailure = false }: { firstFailure?: boolean } = {},
): Promise<void> {
	await fc.assert(
		fc.asyncProperty(schedule, async (s) => {
			const why = await violation(s);
			if (why) throw new Error(why);
		}),
		{ numRuns: runs, seed: SEED, endOnFailure: firstFailure },
	);
}
