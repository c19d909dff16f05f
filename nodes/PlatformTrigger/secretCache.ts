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
 *   - it is used for at most MAX_AGE_MS after it was read: a secret replaced in the credential stops
 *     verifying deliveries at most that long after the change (n8n tells a node nothing when a
 *     credential is edited; reading it to find out is the cost this saves);
 *   - activating, re-activating or deactivating the trigger forgets it; the CRC check always reads the
 *     credential (it cannot verify its answer) and refreshes it.
 * Never written anywhere: not to static data, not to a log line.
 */
export const MAX_AGE_MS = 1000;

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

/** Reads the consumer secret from the credential and keeps it for the next deliveries. */
export async function readConsumerSecret(ctx: Ctx, now = Date.now()): Promise<string> {
	const credentials = await ctx.getCredentials(TYPE);
	const secret = String(credentials.consumerSecret ?? '');
	if (secret) cache.set(keyOf(ctx), { credentialId: credentialIdOf(ctx), secret, readAt: now });
	else cache.delete(keyOf(ctx));
	return secret;
}

/** The secret read for this trigger and credential less than MAX_AGE_MS ago, if any. */
export function cachedConsumerSecret(ctx: Ctx, now = Date.now()): string | undefined {
	const entry = cache.get(keyOf(ctx));
	if (!entry || entry.credentialId !== credentialIdOf(ctx) || now - entry.readAt >= MAX_AGE_MS)
		return undefined;
	return entry.secret;
}

/** Forgets a trigger's secret (activation, re-activation, deactivation). */
export function forgetConsumerSecret(ctx: Ctx): void {
	cache.delete(keyOf(ctx));
}
