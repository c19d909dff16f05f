import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { checkExists } from '../../nodes/PlatformTrigger/lifecycle';
import { answerCrc, receiveDelivery } from '../../nodes/PlatformTrigger/receive';
import { MAX_AGE_MS, secretsInMemory } from '../../nodes/PlatformTrigger/secretCache';
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
		// Once read anew, the replaced secret verifies nothing more.
		expect(await deliver('wf-cache-2', { signedWith: OLD, credential: NEW, at: T0 + 20 })).toEqual({
			status: 401,
			reads: 1,
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

	it('the CRC answer always uses the credential as it is now', async () => {
		await deliver('wf-cache-7');
		const built = webhookContext({
			query: { crc_token: 'abcdefghijklmnopqrstuvwx' },
			secret: NEW,
			workflowId: 'wf-cache-7',
		});
		await answerCrc(built.context, new Date(T0 + 10), 0);
		expect((built.captured.body as IDataObject).response_token).toBe(
			sign('abcdefghijklmnopqrstuvwx', NEW),
		);
		// ... and the deliveries after it use that secret.
		expect(await deliver('wf-cache-7', { signedWith: NEW, credential: NEW, at: T0 + 20 })).toEqual({
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
