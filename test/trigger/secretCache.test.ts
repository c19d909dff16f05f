import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { checkExists } from '../../nodes/triggers/webhook/lifecycle';
import { answerCrc, receiveDelivery } from '../../nodes/triggers/webhook/receive';
import {
	MAX_AGE_MS,
	REREAD_EVERY_MS,
	secretsInMemory,
} from '../../nodes/triggers/webhook/secretCache';
import { BASE, createContext, TEST_SECRETS } from '../helpers/context';
import { answerOf, sign, webhookContext } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const OLD = TEST_SECRETS.consumerSecret;
const NEW = 'a-new-consumer-secret';
const T0 = new Date('2026-11-25T10:00:00Z').getTime();
let n = 0;

interface DeliveryOptions {
	signedWith?: string;
	credential?: string;
	at?: number;
	credentialId?: string;
	/** Holds every credential read of this delivery until it resolves. */
	gate?: Promise<void>;
}

/**
 * Starts one delivery to the trigger of workflow `wf`, signed with `signedWith`, while the credential
 * holds `credential`; `done` gives the answer's status and how often this delivery read the credential.
 */
function start(
	wf: string,
	{ signedWith = OLD, credential = OLD, at = T0, credentialId, gate }: DeliveryOptions = {},
) {
	n++;
	const raw = Buffer.from(
		JSON.stringify({
			data: {
				event_uuid: `e-${n}`,
				event_type: 'post.create',
				filter: { user_id: '1' },
				payload: { id: String(n), text: 'hi' },
			},
		}),
	);
	const built = webhookContext({
		raw,
		headers: { 'x-platform-webhooks-signature': sign(raw, signedWith) },
		secret: credential,
		workflowId: wf,
	});
	if (credentialId)
		built.node.credentials = {
			platformBearerApi: { id: credentialId, name: credentialId },
		};
	const ctx = built.context as unknown as {
		getCredentials: (type: string) => Promise<IDataObject>;
	};
	const read = ctx.getCredentials.bind(ctx);
	const reads = jest.spyOn(ctx, 'getCredentials').mockImplementation(async (type: string) => {
		await gate;
		return await read(type);
	});
	const done = receiveDelivery(built.context, new Date(at), 0).then((result) => ({
		status: answerOf(result, built.captured).status,
		reads: reads.mock.calls.length,
	}));
	return { done, readsStarted: () => reads.mock.calls.length };
}

async function deliver(wf: string, options: DeliveryOptions = {}) {
	return await start(wf, options).done;
}

/**
 * One CRC check of the trigger of workflow `wf` while the credential holds `credential`: the answer's
 * status, its response_token and how often the check read the credential.
 */
function startCrc(
	wf: string,
	{
		credential = OLD,
		at = T0,
		token = 'abcdefghijklmnopqrstuvwx',
	}: { credential?: string; at?: number; token?: string } = {},
) {
	const built = webhookContext({ query: { crc_token: token }, secret: credential, workflowId: wf });
	const reads = jest.spyOn(
		built.context as unknown as { getCredentials: (type: string) => Promise<IDataObject> },
		'getCredentials',
	);
	return answerCrc(built.context, new Date(at), 0).then(() => ({
		status: built.captured.status,
		token: (built.captured.body as IDataObject | undefined)?.response_token,
		reads: reads.mock.calls.length,
	}));
}

async function crc(wf: string, options: Parameters<typeof startCrc>[1] = {}) {
	return await startCrc(wf, options);
}

const readsOf = (results: Array<{ reads: number }>) => results.reduce((sum, r) => sum + r.reads, 0);

function gate() {
	let open = () => {};
	const closed = new Promise<void>((resolve) => (open = resolve));
	return { closed, open };
}

describe('Platform Trigger: the consumer secret between deliveries', () => {
	it('is read from the credential once for back-to-back deliveries of one trigger', async () => {
		expect(await deliver('wf-cache-1')).toEqual({ status: 200, reads: 1 });
		expect(await deliver('wf-cache-1', { at: T0 + 10 })).toEqual({ status: 200, reads: 0 });
		expect(await deliver('wf-cache-1', { at: T0 + 20 })).toEqual({ status: 200, reads: 0 });
		// Another trigger reads its own credential.
		expect(await deliver('wf-cache-1b', { at: T0 + 20 })).toEqual({ status: 200, reads: 1 });
	});

	it('a secret changed in the credential is accepted from the first delivery signed with it', async () => {
		await deliver('wf-cache-2');
		expect(await deliver('wf-cache-2', { signedWith: NEW, credential: NEW, at: T0 + 10 })).toEqual({
			status: 200,
			reads: 1,
		});
		// Once read anew, the replaced secret verifies nothing more (and, refused less than
		// REREAD_EVERY_MS after that re-read, costs no read of its own).
		expect(await deliver('wf-cache-2', { signedWith: OLD, credential: NEW, at: T0 + 20 })).toEqual({
			status: 401,
			reads: 0,
		});
	});

	it('a replaced secret stops verifying at most MAX_AGE_MS after it was read', async () => {
		await deliver('wf-cache-3');
		expect(MAX_AGE_MS).toBeLessThanOrEqual(10_000);
		const late = await deliver('wf-cache-3', {
			signedWith: OLD,
			credential: NEW,
			at: T0 + MAX_AGE_MS,
		});
		expect(late).toEqual({ status: 401, reads: 1 });
	});

	it('drops kept secrets once they expire: a deactivated trigger’s secret does not stay in memory', async () => {
		// Far from the other tests' times, so that only these triggers' secrets are fresh.
		const base = T0 + 1000 * MAX_AGE_MS;
		for (const wf of ['wf-gone-a', 'wf-gone-b', 'wf-gone-c'])
			expect((await deliver(wf, { at: base })).status).toBe(200);
		expect(secretsInMemory()).toBeGreaterThanOrEqual(3);
		// Later, only one trigger still receives deliveries.
		expect(await deliver('wf-still-here', { at: base + 2 * MAX_AGE_MS })).toEqual({
			status: 200,
			reads: 1,
		});
		expect(secretsInMemory()).toBe(1);
	});

	it('pointing the node at another credential reads that credential at once', async () => {
		await deliver('wf-cache-4', { credentialId: 'cred-a' });
		expect(
			await deliver('wf-cache-4', {
				signedWith: OLD,
				credential: NEW,
				credentialId: 'cred-b',
				at: T0 + 10,
			}),
		).toEqual({ status: 401, reads: 1 });
	});

	it('a forged delivery is refused after the credential is read anew', async () => {
		await deliver('wf-cache-5');
		expect(await deliver('wf-cache-5', { signedWith: 'not-the-secret', at: T0 + 10 })).toEqual({
			status: 401,
			reads: 1,
		});
	});

	it('re-activation (checkExists) forgets the secret: the next delivery reads the credential', async () => {
		await deliver('wf-cache-6');
		nock(BASE).get('/2/webhooks').reply(200, { data: [] });
		const hook = createContext({
			parameters: { events: ['post.create'], userId: '1', options: {} },
			workflowId: 'wf-cache-6',
			extra: { getNodeWebhookUrl: () => 'https://n8n.example.com/webhook/abc/webhook' },
		});
		await checkExists(hook.context as never).catch(() => undefined);
		expect(await deliver('wf-cache-6', { signedWith: OLD, credential: NEW, at: T0 + 10 })).toEqual({
			status: 401,
			reads: 1,
		});
	});

	it('the CRC answer uses the kept secret while it is fresh, then the credential as it is now', async () => {
		await deliver('wf-cache-7');
		const token = 'abcdefghijklmnopqrstuvwx';
		// The secret was replaced in the credential 10 ms after it was read: the CRC answer still uses
		// the kept one (the CRC check cannot verify its answer, and reading the credential for every
		// check would let anyone who sends checks buy n8n's CPU) ...
		expect(await crc('wf-cache-7', { credential: NEW, at: T0 + 10, token })).toEqual({
			status: 200,
			token: sign(token, OLD),
			reads: 0,
		});
		// ... at most MAX_AGE_MS long.
		expect(await crc('wf-cache-7', { credential: NEW, at: T0 + MAX_AGE_MS, token })).toEqual({
			status: 200,
			token: sign(token, NEW),
			reads: 1,
		});
		// ... and the deliveries after it use that secret.
		expect(
			await deliver('wf-cache-7', { signedWith: NEW, credential: NEW, at: T0 + MAX_AGE_MS + 10 }),
		).toEqual({
			status: 200,
			reads: 0,
		});
	});

	it('deliveries that find no kept secret at the same moment share one read of the credential', async () => {
		const g = gate();
		const all = Array.from({ length: 8 }, (_, i) =>
			start('wf-cache-8', { at: T0 + i, gate: g.closed }),
		);
		g.open();
		const results = await Promise.all(all.map((d) => d.done));
		expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
		expect(results.reduce((sum, r) => sum + r.reads, 0)).toBe(1);
	});

	it('a delivery that a shared read (started before it arrived) does not verify reads the credential anew', async () => {
		await deliver('wf-cache-9');
		// The kept secret expires; a delivery starts a read of the credential, still holding OLD.
		const g = gate();
		const first = start('wf-cache-9', { at: T0 + MAX_AGE_MS, gate: g.closed });
		// The secret is replaced; a delivery signed with the new one arrives while that read is under way.
		const second = start('wf-cache-9', {
			signedWith: NEW,
			credential: NEW,
			at: T0 + MAX_AGE_MS + 5,
		});
		g.open();
		expect(await first.done).toEqual({ status: 200, reads: 1 });
		expect(await second.done).toEqual({ status: 200, reads: 1 });
	});

	it('a read under way when the trigger is re-activated does not keep its secret afterwards', async () => {
		const g = gate();
		const before = start('wf-cache-10', { gate: g.closed });
		// The delivery reaches its credential read within a few promise turns (nothing in between waits on I/O).
		for (let turn = 0; turn < 100 && before.readsStarted() === 0; turn++) await Promise.resolve();
		expect(before.readsStarted()).toBe(1);
		nock(BASE).get('/2/webhooks').reply(200, { data: [] });
		const hook = createContext({
			parameters: { events: ['post.create'], userId: '1', options: {} },
			workflowId: 'wf-cache-10',
			extra: { getNodeWebhookUrl: () => 'https://n8n.example.com/webhook/abc/webhook' },
		});
		await checkExists(hook.context as never).catch(() => undefined);
		g.open();
		expect(await before.done).toEqual({ status: 200, reads: 1 });
		// The secret was replaced meanwhile: the read from before the re-activation verifies nothing.
		expect(await deliver('wf-cache-10', { signedWith: OLD, credential: NEW, at: T0 + 10 })).toEqual(
			{
				status: 401,
				reads: 1,
			},
		);
	});
});

describe('Platform Trigger: forged calls cannot make it read the credential at will', () => {
	// Behind a proxy that checks no signature (the Caddy recipe), anyone who learns the webhook URL can
	// send forged deliveries and CRC checks; each read of the credential costs n8n about 90 ms of CPU.
	it('100 forged deliveries at once read the credential at most once; a genuine one meanwhile reads nothing', async () => {
		expect(await deliver('wf-flood-1')).toEqual({ status: 200, reads: 1 });
		const forged = Array.from({ length: 100 }, (_, i) =>
			start('wf-flood-1', { signedWith: 'not-the-secret', at: T0 + 10 + (i % 7) }),
		);
		const genuine = start('wf-flood-1', { at: T0 + 12 });
		const results = await Promise.all(forged.map((d) => d.done));
		expect(results.map((r) => r.status)).toEqual(Array(100).fill(401));
		expect(readsOf(results)).toBeLessThanOrEqual(1);
		expect(await genuine.done).toEqual({ status: 200, reads: 0 });
	});

	it('a forged delivery every 50 ms reads the credential at most once per REREAD_EVERY_MS, and once per MAX_AGE_MS when the kept secret expires', async () => {
		expect(await deliver('wf-flood-2')).toEqual({ status: 200, reads: 1 });
		const span = 3 * MAX_AGE_MS;
		const results = [];
		for (let at = T0 + 50; at < T0 + span; at += 50)
			results.push(await deliver('wf-flood-2', { signedWith: 'not-the-secret', at }));
		expect(results.length).toBeGreaterThan(500);
		expect(results.every((r) => r.status === 401)).toBe(true);
		expect(readsOf(results)).toBeLessThanOrEqual(span / REREAD_EVERY_MS + span / MAX_AGE_MS + 1);
		// Genuine deliveries still pass all along.
		expect((await deliver('wf-flood-2', { at: T0 + span })).status).toBe(200);
	});

	it('a secret replaced in the credential during a flood of forgeries is accepted at most REREAD_EVERY_MS after the last re-read', async () => {
		await deliver('wf-flood-3');
		// A forgery re-reads the credential (still the old secret) ...
		expect(await deliver('wf-flood-3', { signedWith: 'not-the-secret', at: T0 + 100 })).toEqual({
			status: 401,
			reads: 1,
		});
		// ... the secret is replaced; a delivery signed with the new one within the bound is refused
		// without reading (the cost of the bound) ...
		expect(await deliver('wf-flood-3', { signedWith: NEW, credential: NEW, at: T0 + 200 })).toEqual(
			{ status: 401, reads: 0 },
		);
		// ... and accepted once the bound has passed, while the old secret is still the kept one.
		expect(
			await deliver('wf-flood-3', {
				signedWith: NEW,
				credential: NEW,
				at: T0 + 100 + REREAD_EVERY_MS,
			}),
		).toEqual({ status: 200, reads: 1 });
		expect(REREAD_EVERY_MS).toBeLessThan(MAX_AGE_MS);
		// From then on the new secret is the kept one.
		expect(
			await deliver('wf-flood-3', {
				signedWith: NEW,
				credential: NEW,
				at: T0 + 200 + REREAD_EVERY_MS,
			}),
		).toEqual({ status: 200, reads: 0 });
	});

	it('100 CRC checks read the credential once while the kept secret is fresh, and answer correctly', async () => {
		// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets -- a CRC challenge the service would send, not a secret
		const crcToken = 'AbCdEfGhIjKlMnOpQr_123';
		const first = await Promise.all(
			Array.from({ length: 100 }, (_, i) =>
				startCrc('wf-flood-4', { at: T0 + (i % 5), token: crcToken }),
			),
		);
		expect(first.every((r) => r.status === 200 && r.token === sign(crcToken, OLD))).toBe(true);
		expect(readsOf(first)).toBe(1);
		const later = [];
		for (let at = T0 + 100; at < T0 + MAX_AGE_MS; at += 100)
			later.push(await crc('wf-flood-4', { at, token: crcToken }));
		expect(later.every((r) => r.status === 200 && r.token === sign(crcToken, OLD))).toBe(true);
		expect(readsOf(later)).toBe(0);
		// Deliveries use the secret the CRC checks read.
		expect(await deliver('wf-flood-4', { at: T0 + 200 })).toEqual({ status: 200, reads: 0 });
	});

	it('a credential without a consumer secret is not read for every forged delivery and CRC check', async () => {
		const forged = [];
		const checks = [];
		for (let at = T0; at < T0 + MAX_AGE_MS; at += 100) {
			forged.push(
				await deliver('wf-flood-5', { signedWith: 'not-the-secret', credential: '', at }),
			);
			checks.push(await crc('wf-flood-5', { credential: '', at: at + 50 }));
		}
		expect(forged.every((r) => r.status === 401)).toBe(true);
		// Never a CRC answer without the secret.
		expect(checks.every((r) => r.status === 500 && r.token === undefined)).toBe(true);
		expect(readsOf(forged) + readsOf(checks)).toBeLessThanOrEqual(1 + MAX_AGE_MS / REREAD_EVERY_MS);
	});
});

describe('Platform Trigger: a credential read that fails', () => {
	/** One delivery whose credential read fails (n8n cannot decrypt or load it): the outcome and reads. */
	async function failingRead(wf: string, at: number, signedWith = 'not-the-secret') {
		const raw = Buffer.from(JSON.stringify({ data: { event_uuid: `f-${++n}` } }));
		const built = webhookContext({
			raw,
			headers: { 'x-platform-webhooks-signature': sign(raw, signedWith) },
			workflowId: wf,
		});
		const reads = jest
			.spyOn(
				built.context as unknown as { getCredentials: (type: string) => Promise<IDataObject> },
				'getCredentials',
			)
			.mockRejectedValue(new Error('Credentials could not be decrypted'));
		const outcome = await receiveDelivery(built.context, new Date(at), 0).then(
			(result) => String(answerOf(result, built.captured).status),
			(error: Error) => error.message,
		);
		return { outcome, reads: reads.mock.calls.length };
	}

	it('twenty forged deliveries while the credential cannot be read make one read per REREAD_EVERY_MS, not twenty (issue 51)', async () => {
		const results = [];
		for (let i = 0; i < 20; i++) results.push(await failingRead('wf-failing-1', T0 + i * 100));
		// Each is refused (n8n answers the error 500), none runs, and the read failure is shared.
		expect(results.every((r) => r.outcome !== '200')).toBe(true);
		expect(readsOf(results)).toBe(1);
		// Past the bound the credential is read again (it may have been repaired).
		expect((await failingRead('wf-failing-1', T0 + 100 * 20 + REREAD_EVERY_MS)).reads).toBe(1);
	});

	it('a failed read keeps no secret and says none: the next delivery after the bound reads the repaired credential', async () => {
		const failed = await failingRead('wf-failing-2', T0);
		expect(failed.outcome).not.toContain(OLD);
		expect(await deliver('wf-failing-2', { at: T0 + REREAD_EVERY_MS })).toEqual({
			status: 200,
			reads: 1,
		});
	});
});
