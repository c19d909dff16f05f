// Mutation testing of the trigger protocols (`npm run test:mutation`; DEVELOPING.md, "Mutation testing").
// Not part of `npm test` or .ci/run: a full run takes far longer than the unit tests.
import os from 'node:os';
import path from 'node:path';

// The explorers at a size that fits many runs: every surviving mutant costs one full pass of the tests
// that cover it. The test runners are child processes and inherit this.
process.env.EXPLORER_RUNS ??= '300';
// One seed for every run: at 300 schedules a drawn seed sometimes misses what the explorers' own
// "can fail" tests look for (the group commit's hole put back), and a mutant's verdict would then
// depend on the draw. Seeds 1, 2 and 3 each find it.
process.env.EXPLORER_SEED ??= '1';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	testRunner: 'jest',
	plugins: ['@stryker-mutator/jest-runner'],
	mutate: [
		'nodes/triggers/webhook/receive.ts',
		'nodes/triggers/webhook/state.ts',
		'nodes/triggers/stream/activityStream.ts',
		'nodes/triggers/stream/streamCore.ts',
		'nodes/triggers/poll/poll.ts',
	],
	jest: {
		configFile: 'jest.config.js',
		config: {
			testMatch: [
				'**/test/trigger/*.test.ts',
				'**/test/postsTrigger/*.test.ts',
				'**/test/mutation/*.test.ts',
			],
		},
		enableFindRelatedTests: true,
	},
	coverageAnalysis: 'perTest',
	incremental: true,
	incrementalFile: 'bench/results/stryker-incremental.json',
	// Two cores, shared: more runners only wait on each other.
	concurrency: 2,
	timeoutMS: 10_000,
	// A static mutant (a module-level constant) runs at load, so Stryker would run every test of the
	// set for it; bench/results/mutation.md lists what this leaves untested.
	ignoreStatic: true,
	dryRunTimeoutMinutes: 15,
	// The sandboxes live outside the clone, so that n8n-node lint, prettier and the package scanner never
	// walk a copy of the repository left by a run that was stopped.
	tempDirName: path.join(os.tmpdir(), `n8n-nodes-platform-stryker-${process.pid}`),
	cleanTempDir: 'always',
	ignorePatterns: [
		'e2e',
		'deploy',
		'docs',
		'examples',
		'bench',
		'icons',
		'dist',
		'.e2e',
		'.n8n-run',
	],
	reporters: ['clear-text', 'progress', 'json', 'html'],
	jsonReporter: { fileName: 'bench/results/mutation-report.json' },
	htmlReporter: { fileName: 'bench/results/mutation-report.html' },
	thresholds: { high: 90, low: 80, break: null },
};
