/* eslint-disable @typescript-eslint/no-require-imports -- the e2e harness is plain CommonJS */
/** The harness's check of n8n's logs for what n8n says it does not support (e2e/lib/host.js). */
const { logMarks, unsupportedLines } = require('../../e2e/lib/host');
const { logFolder } = require('./logFolder');

// n8n 2.40's own warnings, as its main, worker and webhook processes log them on PostgreSQL 15 and 16.
const PG15 =
	'Postgres 15 is not supported. n8n supports Postgres 17 and newer, with 16 on compatibility support. Upgrade to Postgres 17 or newer.';
const PG16 =
	'Postgres 16 is outside the supported range and receives compatibility support only. Upgrade to Postgres 17 or newer.';
const START = 'Editor is now accessible via:\nhttp://localhost:5678\n';

describe('unsupportedLines', () => {
	let logs: ReturnType<typeof logFolder>;
	beforeEach(() => {
		logs = logFolder();
	});
	afterEach(() => logs.remove());

	it('finds the database warning in any n8n process log, and only there', () => {
		logs.write('n8n-main.log', START);
		logs.write('n8n-worker2.log', `Initializing n8n process\n${PG15}\nn8n worker is now ready\n`);
		logs.write('n8n-cli.log', `${PG16}\n`);
		logs.write('redis.log', 'this build is not supported on this kernel\n');
		expect(unsupportedLines(logs.dir)).toEqual([
			{ file: logs.file('n8n-cli.log'), line: PG16 },
			{ file: logs.file('n8n-worker2.log'), line: PG15 },
		]);
	});

	it('finds nothing in clean logs or a folder that does not exist', () => {
		logs.write('n8n-main.log', START);
		logs.write('n8n-webhook.log', 'Webhook listener waiting for requests.\n');
		expect(unsupportedLines(logs.dir)).toEqual([]);
		expect(unsupportedLines(logs.file('missing'))).toEqual([]);
	});

	it("leaves out what the logs held before the marks (an earlier start's lines)", () => {
		logs.write('n8n-main.log', `${PG15}\n`);
		const marks = logMarks(logs.dir);
		logs.write('n8n-main.log', START);
		logs.write('n8n-webhook.log', 'Webhook listener waiting for requests.\n');
		expect(unsupportedLines(logs.dir, marks)).toEqual([]);
		logs.write('n8n-main.log', `${PG15}\n`);
		expect(unsupportedLines(logs.dir, marks)).toEqual([
			{ file: logs.file('n8n-main.log'), line: PG15 },
		]);
	});
});
