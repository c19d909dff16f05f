/**
 * The explorer of the Platform Trigger's delivery protocol: fast-check draws schedules (events, copies,
 * batches, forged bodies, slow and failing run starts, graceful stops, kill -9, one to three webhook
 * processes with or without the routing recipe) and runs each against the model of n8n and the service
 * in explorer/model.ts, with the trigger's real code. The invariants (production docs, "Exactly once,
 * and where it ends"):
 * - none lost: every event the service sent runs at least once;
 * - none twice, except inside the windows the docs name: a kill -9 that lands after a run started and
 *   before n8n saved its record (the save takes up to the model's largest save delay), and a balancer
 *   without the routing recipe;
 * - nothing runs before its signature verifies (forged bodies never run).
 *
 * `EXPLORER_RUNS=200000 npx jest test/trigger/explorer` sweeps longer (before a release);
 * `EXPLORER_SEED=<seed>` replays one failure (fast-check prints the seed and the shrunk schedule).
 */
import fc from 'fast-check';

import { explore, explorerRuns } from '../helpers/explore';

import type { Schedule, Step } from './explorer/model';
import { violation } from './explorer/model';

const RUNS = explorerRuns(10_000);

const at = fc.integer({ min: 0, max: 120_000 });
/** A graceful stop or a kill -9 of one process, back after downMs. */
const outage = (kind: 'stop' | 'kill') =>
	fc.record({
		at,
		kind: fc.constant(kind),
		process: fc.nat(2),
		downMs: fc.integer({ min: 0, max: 30_000 }),
	});

const step: fc.Arbitrary<Step> = fc.oneof(
	{
		weight: 6,
		arbitrary: fc.record({
			at,
			kind: fc.constant('event' as const),
			batchWith: fc.boolean(),
			twice: fc.boolean(),
		}),
	},
	{ weight: 1, arbitrary: fc.record({ at, kind: fc.constant('forged' as const) }) },
	{ weight: 1, arbitrary: outage('stop') },
	{ weight: 1, arbitrary: outage('kill') },
);

const schedule: fc.Arbitrary<Schedule> = fc.record({
	processes: fc.integer({ min: 1, max: 3 }),
	routing: fc.boolean(),
	accountActivity: fc.boolean(),
	steps: fc.array(step, { minLength: 1, maxLength: 14 }),
	starts: fc.array(
		fc.record({
			delayMs: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 9_000, max: 25_000 })),
			fails: fc.boolean(),
		}),
		{ minLength: 0, maxLength: 12 },
	),
	retryDelaysMs: fc.array(fc.integer({ min: 200, max: 30_000 }), { minLength: 1, maxLength: 4 }),
	saveDelaysMs: fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 1, maxLength: 3 }),
});

describe('the delivery protocol, explored', () => {
	it(
		`holds its invariants on ${RUNS} random schedules`,
		async () => {
			await explore(schedule, violation, RUNS);
		},
		Math.max(600_000, RUNS * 20),
	);
});
