/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: false }],
	},
	testTimeout: 30000,
	// The trigger shells run on the process clock in some tests, with n8n's own timers (the stream
	// trigger reconnects with backoff; the webhook trigger waits for a held copy's outcome). n8n's
	// process never waits for them; run in band (CI's 2 cores give jest one worker), they kept jest
	// open for minutes after the last test.
	forceExit: true,
};
