import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { CREDENTIAL_TYPES } from '../shared/transport';
import { triggerKey } from './state';

/**
 * The consumer secret of each trigger, kept in this process's memory between deliveries.
 *
 * Reading a credential in a webhook call is not a plain read in n8n 2.40: besides the database read and
 * the decryption, n8n resolves the credential's fields in an expression isolate of their own, one more
 * isolate per call on top of the one n8n takes for every community webhook node. Measured with a CPU
 * profile, that was most of what a delivery to this trigger cost beyond n8n's Webhook node.
 *
 * What keeps the cached secret honest:
 *   - it belongs to one trigger (workflow and node) and one credential id: pointing the node at another
 *     credential reads that one at once;
 *   - a signature the cached secret does not verify is checked again against the credential read anew,
 *     so a secret changed in the credential is accepted from the first delivery signed with it;
 *   - it is used for at most MAX_AGE_MS (10 s) after it was read: a secret replaced in the credential
 *     stops verifying deliveries at most that long after the change, and at once when the first
 *     delivery signed with the new secret makes the trigger read the credential anew (n8n tells a node
 *     nothing when a credential is edited; reading it to find out is the cost this saves). With 1 s, a
 *     busy trigger still read the credential about 13 times per 100 deliveries (counted), and each
 *     read costs n8n an isolate (about 90 ms of CPU on 2 cores, half of what a whole run costs);
 *   - activating, re-activating or deactivating the trigger forgets it; the CRC check always reads the
 *     credential (it cannot verify its answer) and refreshes it.
 * Deliveries that find no fresh secret at the same moment share one read instead of each reading the
 * credential: when the kept secret expires under load, every delivery in flight used to miss at once,
 * and each miss costs n8n one more isolate. A delivery that finds no kept secret shares any read under
 * way. A delivery whose signature the kept secret did not verify, and a CRC check, share only a read
 * that started after they arrived: they see the credential as it was when they came in, never older.
 * Never written anywhere: not to static data, not to a log line.
 */
export const MAX_AGE_MS = 10_000;

const TYPE = CREDENTIAL_TYPES.appOnly;

interface Entry {
	credentialId: string;
	secret: string;
	readAt: number;
}

const cache = new Map<string, Entry>();

type Ctx = IWebhookFunctions | IHookFunctions;

function keyOf(ctx: Ctx): string {
	return triggerKey(ctx.getWorkflow().id, ctx.getNode().id);
}

function credentialIdOf(ctx: Ctx): string {
	return String(ctx.getNode().credentials?.[TYPE]?.id ?? '');
}

interface Read {
	secret: string;
	startedAt: number;
}

const readings = new Map<
	string,
	{ credentialId: string; startedAt: number; read: Promise<Read> }
>();

/**
 * The consumer secret as the credential holds it, kept for the next deliveries, and when the read
 * started. A read of the same trigger and credential that started at or after `notBefore` (ms) and is
 * still under way is shared rather than repeated; the default shares any read under way.
 */
async function readShared(ctx: Ctx, now: number, notBefore: number): Promise<Read> {
	const key = keyOf(ctx);
	const credentialId = credentialIdOf(ctx);
	const pending = readings.get(key);
	if (pending && pending.credentialId === credentialId && pending.startedAt >= notBefore)
		return await pending.read;
	const read = (async (): Promise<Read> => {
		const credentials = await ctx.getCredentials(TYPE);
		return { secret: String(credentials.consumerSecret ?? ''), startedAt: now };
	})();
	const entry = { credentialId, startedAt: now, read };
	readings.set(key, entry);
	try {
		const result = await read;
		// Only the newest read still under way is kept: a read that a newer one overtook, or that
		// started before the trigger was (re-)activated or deactivated, must not bring its secret back.
		if (readings.get(key) === entry) {
			if (result.secret) cache.set(key, { credentialId, secret: result.secret, readAt: now });
			else cache.delete(key);
		}
		return result;
	} finally {
		if (readings.get(key) === entry) readings.delete(key);
	}
}

/** Reads the consumer secret from the credential as it is now (CRC answers) and keeps it. */
export async function readConsumerSecret(ctx: Ctx, now = Date.now()): Promise<string> {
	return (await readShared(ctx, now, now)).secret;
}

/**
 * Whether the consumer secret verifies a delivery that arrived at `now`: the kept secret first, then
 * the credential. A read that another delivery started before this one arrived is shared, and when
 * its secret does not verify, the credential is read once more: it may have changed in between.
 */
export async function consumerSecretVerifies(
	ctx: Ctx,
	now: number,
	verifies: (secret: string) => boolean,
): Promise<boolean> {
	const kept = cachedConsumerSecret(ctx, now);
	if (kept !== undefined && verifies(kept)) return true;
	let read = await readShared(ctx, now, kept === undefined ? Number.NEGATIVE_INFINITY : now);
	if (read.startedAt < now && !(read.secret && verifies(read.secret)))
		read = await readShared(ctx, now, now);
	return !!read.secret && verifies(read.secret);
}

/** The secret read for this trigger and credential less than MAX_AGE_MS ago, if any. */
export function cachedConsumerSecret(ctx: Ctx, now = Date.now()): string | undefined {
	forgetExpiredSecrets(now);
	const entry = cache.get(keyOf(ctx));
	if (!entry || entry.credentialId !== credentialIdOf(ctx) || now - entry.readAt >= MAX_AGE_MS)
		return undefined;
	return entry.secret;
}

let lastSweep = Number.NEGATIVE_INFINITY;

/**
 * Drops every kept secret older than MAX_AGE_MS (it would not be used again), at most once per
 * MAX_AGE_MS. Webhook processes run no lifecycle hook, so a deactivated or deleted trigger's secret
 * would otherwise stay in their memory for as long as they live.
 */
function forgetExpiredSecrets(now: number): void {
	if (now - lastSweep < MAX_AGE_MS) return;
	lastSweep = now;
	for (const [key, entry] of cache) if (now - entry.readAt >= MAX_AGE_MS) cache.delete(key);
}

/** How many secrets this process keeps (for tests and diagnostics). */
export function secretsInMemory(): number {
	return cache.size;
}

/** Forgets a trigger's secret (activation, re-activation, deactivation). */
export function forgetConsumerSecret(ctx: Ctx): void {
	cache.delete(keyOf(ctx));
	readings.delete(keyOf(ctx));
}
