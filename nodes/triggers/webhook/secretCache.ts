import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import type { ReadCredential } from '../../shared/transport';
import { bearerCredentialOf, CREDENTIAL_TYPES } from '../../shared/transport';
import { triggerKey } from './state';

/**
 * The consumer secret of each trigger, kept in this process's memory between deliveries.
 *
 * Reading a credential in a webhook call is not a plain read in n8n 2.40: besides the database read and
 * the decryption, n8n resolves the credential's fields in an expression isolate of their own, one more
 * isolate per call on top of the one n8n takes for every community webhook node. Measured with a CPU
 * profile, that was most of what a delivery to this trigger cost beyond n8n's Webhook node.
 *
 * Every read is bounded per trigger, whoever calls: a proxy that checks no signature (the Caddy recipe)
 * passes forged deliveries and CRC checks from anyone on to n8n, and a read each would let them buy
 * about 90 ms of CPU apiece. Per trigger and process the credential is read at most
 *   - once per MAX_AGE_MS (10 s) because the kept secret expired (deliveries and CRC checks without a
 *     fresh secret at the same moment share that one read), and
 *   - once per REREAD_EVERY_MS (5 s) because a signature did not verify with the kept secret,
 * so a flood of forged calls costs at most about 0.3 reads a second, however fast it comes.
 *
 * What keeps the cached secret honest:
 *   - it belongs to one trigger (workflow and node) and one credential id: pointing the node at another
 *     credential reads that one at once;
 *   - a signature the kept secret does not verify is checked again against the credential read anew
 *     (the secret may have changed there; n8n tells a node nothing when a credential is edited), unless
 *     such a re-read started less than REREAD_EVERY_MS ago: then only a read still under way is waited
 *     for. A secret replaced in the credential is thus accepted from the first delivery signed with it
 *     when nothing was refused in the REREAD_EVERY_MS before, and at most REREAD_EVERY_MS after the
 *     change under a flood of forgeries (the re-read a forgery causes picks it up as well);
 *   - it is used for at most MAX_AGE_MS after it was read: a secret replaced in the credential stops
 *     verifying deliveries at most that long after the change. With 1 s, a busy trigger still read the
 *     credential about 13 times per 100 deliveries (counted), and each read costs n8n an isolate (about
 *     90 ms of CPU on 2 cores, half of what a whole run costs);
 *   - the CRC check, which cannot verify its answer, uses the kept secret while it is fresh too: a
 *     secret changed in the credential reaches CRC answers at most MAX_AGE_MS later (at once in the
 *     process that activates the trigger, below). A credential without a secret is kept as such, so
 *     that calls to a trigger left without one do not each read it either;
 *   - activating, re-activating or deactivating the trigger forgets it, with its re-read bound.
 * Deliveries that find no fresh secret at the same moment share one read instead of each reading the
 * credential: when the kept secret expires under load, every delivery in flight used to miss at once,
 * and each miss costs n8n one more isolate.
 * Never written anywhere: not to static data, not to a log line, not to an error.
 */
export const MAX_AGE_MS = 10_000;
/** At most one re-read of the credential per trigger this often because a signature did not verify. */
export const REREAD_EVERY_MS = 5_000;

const TYPE = CREDENTIAL_TYPES.appOnly;

interface Entry {
	credentialId: string;
	/** Empty when the credential holds no consumer secret. */
	secret: string;
	/**
	 * The same read as a bearer credential (its token not enumerable): what a delivery's own replay
	 * request sends after n8n has ended the webhook call (receive.ts, askReplayUnlessRun).
	 */
	credential: ReadCredential;
	readAt: number;
}

const cache = new Map<string, Entry>();
/** When a signature that did not verify last made each trigger read its credential anew. */
const rereads = new Map<string, { credentialId: string; at: number }>();

type Ctx = IWebhookFunctions | IHookFunctions;

function keyOf(ctx: Ctx): string {
	return triggerKey(ctx.getWorkflow().id, ctx.getNode().id);
}

function credentialIdOf(ctx: Ctx): string {
	return String(ctx.getNode().credentials?.[TYPE]?.id ?? '');
}

interface Read {
	secret: string;
	credential: ReadCredential;
	startedAt: number;
}

/**
 * When each trigger's last read of its credential failed (n8n could not load or decrypt it). Every
 * call within REREAD_EVERY_MS of that failure fails the same way without reading again: without this
 * a failing read kept nothing, and each forged delivery made one more read (twenty forgeries, twenty
 * reads). Keeps the error only, never a secret.
 */
const failures = new Map<string, { credentialId: string; at: number; read: Promise<Read> }>();

const readings = new Map<
	string,
	{ credentialId: string; startedAt: number; read: Promise<Read> }
>();

/** The read of this trigger's credential under way, if any. */
function readUnderWay(ctx: Ctx) {
	const pending = readings.get(keyOf(ctx));
	return pending && pending.credentialId === credentialIdOf(ctx) ? pending : undefined;
}

/**
 * The consumer secret as the credential holds it, kept for the next calls, and when the read started.
 * A read of the same trigger and credential that started at or after `notBefore` (ms) and is still
 * under way is shared rather than repeated; the default shares any read under way.
 */
async function readShared(
	ctx: Ctx,
	now: number,
	notBefore = Number.NEGATIVE_INFINITY,
): Promise<Read> {
	const key = keyOf(ctx);
	const credentialId = credentialIdOf(ctx);
	const pending = readUnderWay(ctx);
	if (pending && pending.startedAt >= notBefore) return await pending.read;
	const failed = failures.get(key);
	if (failed && failed.credentialId === credentialId && now - failed.at < REREAD_EVERY_MS)
		return await failed.read; // rejects with the failed read's own error
	const read = (async (): Promise<Read> => {
		const credentials = await ctx.getCredentials(TYPE);
		return {
			secret: String(credentials.consumerSecret ?? ''),
			credential: bearerCredentialOf(credentials),
			startedAt: now,
		};
	})();
	const entry = { credentialId, startedAt: now, read };
	readings.set(key, entry);
	let succeeded = false;
	try {
		const result = await read;
		succeeded = true;
		// Only the newest read still under way is kept: a read that a newer one overtook, or that
		// started before the trigger was (re-)activated or deactivated, must not bring its secret back.
		if (readings.get(key) === entry) {
			cache.set(key, {
				credentialId,
				secret: result.secret,
				credential: result.credential,
				readAt: now,
			});
			failures.delete(key);
		}
		return result;
	} finally {
		if (readings.get(key) === entry) {
			if (!succeeded) failures.set(key, { credentialId, at: now, read });
			readings.delete(key);
		}
	}
}

/** The entry read for this trigger and credential less than MAX_AGE_MS ago, if any. */
function freshEntry(ctx: Ctx, now: number): Entry | undefined {
	forgetExpiredSecrets(now);
	const entry = cache.get(keyOf(ctx));
	if (!entry || entry.credentialId !== credentialIdOf(ctx) || now - entry.readAt >= MAX_AGE_MS)
		return undefined;
	return entry;
}

/**
 * The consumer secret for a CRC answer at `now` (empty when the credential has none): the kept one
 * while it is fresh, else the credential read anew (a read under way is shared).
 */
export async function readConsumerSecret(ctx: Ctx, now = Date.now()): Promise<string> {
	const kept = freshEntry(ctx, now);
	if (kept) return kept.secret;
	return (await readShared(ctx, now)).secret;
}

/** Whether this trigger may read its credential anew now because a signature did not verify. */
function mayReread(ctx: Ctx, now: number): boolean {
	const key = keyOf(ctx);
	const credentialId = credentialIdOf(ctx);
	const last = rereads.get(key);
	if (last && last.credentialId === credentialId && now - last.at < REREAD_EVERY_MS) return false;
	rereads.set(key, { credentialId, at: now });
	return true;
}

/**
 * Whether the consumer secret verifies a delivery that arrived at `now`: the kept secret first, then
 * the credential. A read that another delivery started before this one arrived is shared, and when
 * its secret does not verify, the credential is read once more (it may have changed in between),
 * within the re-read bound; past that bound only a read still under way is waited for.
 */
export async function consumerSecretVerifies(
	ctx: Ctx,
	now: number,
	verifies: (secret: string) => boolean,
): Promise<boolean> {
	const ok = (secret: string) => !!secret && verifies(secret);
	const kept = freshEntry(ctx, now);
	if (kept) {
		if (ok(kept.secret)) return true;
	} else {
		const read = await readShared(ctx, now);
		// A read this delivery started itself is the credential as it is now: nothing newer to ask.
		if (ok(read.secret) || read.startedAt >= now) return ok(read.secret);
	}
	if (mayReread(ctx, now)) return ok((await readShared(ctx, now, now)).secret);
	const pending = readUnderWay(ctx);
	return !!pending && ok((await pending.read).secret);
}

/** The secret read for this trigger and credential less than MAX_AGE_MS ago, if it holds one. */
export function cachedConsumerSecret(ctx: Ctx, now = Date.now()): string | undefined {
	return freshEntry(ctx, now)?.secret || undefined;
}

/**
 * The bearer credential of this trigger's latest read of its credential, if it is this node's
 * credential and at most MAX_AGE_MS old: the read that verified the delivery at hand, so no read more.
 */
export function keptBearerCredential(ctx: Ctx, now = Date.now()): ReadCredential | undefined {
	return freshEntry(ctx, now)?.credential;
}

let lastSweep = Number.NEGATIVE_INFINITY;

/**
 * Drops every kept secret older than MAX_AGE_MS (it would not be used again), and every re-read time
 * older than REREAD_EVERY_MS, at most once per MAX_AGE_MS. Webhook processes run no lifecycle hook, so
 * a deactivated or deleted trigger's secret would otherwise stay in their memory for as long as they
 * live.
 */
function forgetExpiredSecrets(now: number): void {
	if (now - lastSweep < MAX_AGE_MS) return;
	lastSweep = now;
	for (const [key, entry] of cache) if (now - entry.readAt >= MAX_AGE_MS) cache.delete(key);
	for (const [key, last] of rereads) if (now - last.at >= REREAD_EVERY_MS) rereads.delete(key);
	for (const [key, failed] of failures)
		if (now - failed.at >= REREAD_EVERY_MS) failures.delete(key);
}

/** How many secrets this process keeps (for tests and diagnostics). */
export function secretsInMemory(): number {
	return cache.size;
}

/** Forgets a trigger's secret and its re-read bound (activation, re-activation, deactivation). */
export function forgetConsumerSecret(ctx: Ctx): void {
	cache.delete(keyOf(ctx));
	readings.delete(keyOf(ctx));
	rereads.delete(keyOf(ctx));
	failures.delete(keyOf(ctx));
}
