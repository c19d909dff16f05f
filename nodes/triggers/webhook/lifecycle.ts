import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Webhook } from '../../shared/activity';
import { registerWebhook } from '../../shared/activity';
import type { PlatformCredentialType, ReadCredential } from '../../shared/transport';
import { asNodeError, errorInfo } from '../../shared/errors';
import {
	CREDENTIAL_TYPES,
	platformRequest,
	platformRequestFull,
	listOf,
	unwrapData,
} from '../../shared/transport';
import {
	createSubscriptions,
	deleteSubscriptions,
	modeOf,
	refuseEarly,
	requireUserCredential,
	send,
	subscriptionInputs,
	subscriptionTag,
} from '../shared/subscriptions';
import { allEventTypes } from './outputs';
import type { TriggerState } from './state';
import { clearState, processMemory, replayWindow, triggerKey } from './state';
import { forgetConsumerSecret } from './secretCache';
import { activateStream, deactivateStream, streamExists } from './filteredStream';

const BEARER = CREDENTIAL_TYPES.appOnly;

function state(ctx: IHookFunctions): TriggerState {
	return ctx.getWorkflowStaticData('node') as TriggerState;
}

function isStreamMode(ctx: IHookFunctions): boolean {
	return ctx.getNodeParameter('mode', 'activity') === 'stream';
}

function webhookUrl(ctx: IHookFunctions): string {
	return ctx.getNodeWebhookUrl('default') as string;
}

async function listWebhooks(ctx: IHookFunctions): Promise<Webhook[]> {
	const body = await platformRequest.call(ctx, {
		method: 'GET',
		path: '/2/webhooks',
		credentialType: BEARER,
	});
	return listOf(body) as unknown as Webhook[];
}

async function revalidate(ctx: IHookFunctions, id: string): Promise<void> {
	ctx.logger.info(
		`Platform Trigger: webhook ${id} is invalid; asking the service to re-check it (CRC)`,
	);
	await platformRequest.call(ctx, {
		method: 'PUT',
		path: `/2/webhooks/${encodeURIComponent(id)}`,
		credentialType: BEARER,
	});
}

export async function requireConsumerSecret(ctx: IHookFunctions): Promise<void> {
	const credentials = await ctx.getCredentials(BEARER);
	if (!String(credentials.consumerSecret ?? '')) {
		throw new NodeOperationError(ctx.getNode(), 'The credential has no Consumer Secret', {
			description:
				"The trigger answers the service's CRC checks and verifies every delivery with the app's consumer secret (API Key Secret). Add it to the Platform App-Only Bearer credential.",
		});
	}
}

/** Our webhook exists (by stored id, else by exact URL) and our subscriptions are recorded. */
export async function checkExists(ctx: IHookFunctions): Promise<boolean> {
	// (Re-)activation: deliveries read the credential anew.
	forgetConsumerSecret(ctx);
	refuseEarly(ctx, allEventTypes(ctx.getNode().typeVersion));
	const saved = state(ctx);
	const url = webhookUrl(ctx);
	const hooks = await listWebhooks(ctx);
	const ours =
		hooks.find((h) => saved.webhookId && String(h.id) === saved.webhookId) ??
		hooks.find((h) => h.url === url);
	const mode = modeOf(ctx);
	const recorded =
		mode === 'stream'
			? saved.ruleIds
			: mode === 'accountActivity'
				? saved.accountUserId
				: saved.subscriptionIds;
	if (!ours || ours.url !== url || !recorded) return false;
	saved.webhookId = String(ours.id);
	if (ours.valid === false) await revalidate(ctx, saved.webhookId);
	if (mode === 'stream' && !(await streamExists(ctx, saved, saved.webhookId))) return false;
	if (mode === 'accountActivity' && !(await accountSubscribed(ctx, saved.webhookId))) return false;
	await recoverMissedEvents(ctx);
	return true;
}

function accountPath(webhookId: string): string {
	return `/2/account_activity/webhooks/${encodeURIComponent(webhookId)}/subscriptions/all`;
}

/** Whether the user credential's account is subscribed to the webhook (user context). */
async function accountSubscribed(ctx: IHookFunctions, webhookId: string): Promise<boolean> {
	const type = requireUserCredential(ctx, 'Account Activity subscriptions');
	const body = await platformRequest.call(ctx, {
		method: 'GET',
		path: accountPath(webhookId),
		credentialType: type,
	});
	return unwrapData<IDataObject>(body)?.subscribed === true;
}

/** Subscribes the user credential's account to the webhook; returns the account's user id. */
async function subscribeAccount(
	ctx: IHookFunctions,
	webhookId: string,
	type: PlatformCredentialType,
): Promise<string> {
	const me = unwrapData<IDataObject>(
		await platformRequest.call(ctx, { method: 'GET', path: '/2/users/me', credentialType: type }),
	);
	try {
		await platformRequest.call(ctx, {
			method: 'POST',
			path: accountPath(webhookId),
			credentialType: type,
		});
	} catch (error) {
		// 409: this account is already subscribed to this webhook (an earlier activation): that is the goal.
		if (errorInfo(error).httpStatus !== 409) throw asNodeError(ctx, error);
		ctx.logger.info(
			`Platform Trigger: account ${String(me?.id)} was already subscribed to webhook ${webhookId}`,
		);
	}
	return String(me?.id ?? '');
}

async function unsubscribeAccount(
	ctx: IHookFunctions,
	webhookId: string,
	userId: string,
): Promise<void> {
	try {
		await platformRequest.call(ctx, {
			method: 'DELETE',
			path: `/2/account_activity/webhooks/${encodeURIComponent(webhookId)}/subscriptions/${encodeURIComponent(userId)}/all`,
			credentialType: BEARER,
		});
	} catch (error) {
		// 404: the account is no longer subscribed (removed outside n8n): nothing left to remove.
		if (errorInfo(error).httpStatus !== 404) throw asNodeError(ctx, error);
	}
}

async function deleteWebhook(ctx: IHookFunctions, webhookId: string): Promise<void> {
	await platformRequest.call(ctx, {
		method: 'DELETE',
		path: `/2/webhooks/${encodeURIComponent(webhookId)}`,
		credentialType: BEARER,
	});
}

export async function create(ctx: IHookFunctions): Promise<boolean> {
	forgetConsumerSecret(ctx);
	await requireConsumerSecret(ctx);
	const mode = modeOf(ctx);
	const { planned, accountCredential } = refuseEarly(ctx, allEventTypes(ctx.getNode().typeVersion));
	const saved = state(ctx);
	const url = webhookUrl(ctx);
	const existing = (await listWebhooks(ctx)).find((h) => h.url === url);
	let webhookId: string;
	if (existing) {
		webhookId = String(existing.id);
		ctx.logger.info(`Platform Trigger: adopting the registered webhook ${webhookId} with this URL`);
		if (existing.valid === false) await revalidate(ctx, webhookId);
	} else {
		webhookId = String((await registerWebhook(send(ctx), url)).id);
	}
	saved.webhookId = webhookId;
	/** Leaves nothing half-made: a webhook this activation registered goes when a later step fails. */
	const undoWebhook = async () => {
		if (existing) return;
		await deleteWebhook(ctx, webhookId).catch(() => undefined);
		delete saved.webhookId;
	};
	if (mode === 'stream') {
		await activateStream(ctx, saved, webhookId);
		await recoverMissedEvents(ctx);
		return true;
	}
	if (mode === 'accountActivity') {
		try {
			saved.accountUserId = await subscribeAccount(ctx, webhookId, accountCredential!);
		} catch (error) {
			await undoWebhook();
			throw asNodeError(ctx, error);
		}
		await recoverMissedEvents(ctx);
		return true;
	}

	try {
		saved.subscriptionIds = await createSubscriptions(
			ctx,
			await subscriptionInputs(ctx, planned, { tag: subscriptionTag(ctx), webhookId }),
		);
	} catch (error) {
		await undoWebhook();
		throw asNodeError(ctx, error);
	}
	await recoverMissedEvents(ctx);
	return true;
}

export async function remove(ctx: IHookFunctions): Promise<boolean> {
	forgetConsumerSecret(ctx);
	const saved = state(ctx);
	if (saved.ruleIds || isStreamMode(ctx)) await deactivateStream(ctx, saved);
	await deleteSubscriptions(ctx, saved.subscriptionIds ?? []);
	if (saved.webhookId && saved.accountUserId)
		await unsubscribeAccount(ctx, saved.webhookId, saved.accountUserId);
	if (saved.webhookId) {
		if ((await listWebhooks(ctx)).some((h) => String(h.id) === saved.webhookId)) {
			await deleteWebhook(ctx, saved.webhookId);
		} else {
			ctx.logger.info(`Platform Trigger: webhook ${saved.webhookId} was already gone`);
		}
	}
	clearState(saved);
	processMemory.forgetTrigger(triggerKey(ctx.getWorkflow().id, ctx.getNode().id));
	return true;
}

/**
 * After downtime, asks the service to re-deliver what was sent since the last delivery (within its
 * 24-hour window, minute granularity). Duplicates are dropped by event id when they arrive.
 */
export async function recoverMissedEvents(
	ctx: IHookFunctions | IWebhookFunctions,
	now = new Date(),
	known: {
		since?: string;
		webhookId?: string;
		timeoutMs?: number;
		maxRateLimitWait?: number;
		/** The bearer credential read already: the request then needs nothing of n8n's webhook call. */
		credential?: ReadCredential;
		/**
		 * A job already running (the service's conflict) is taken as covering this gap, or thrown to a
		 * caller whose gap it may not cover (it asks again later).
		 */
		onConflict?: 'covered' | 'throw';
	} = {},
): Promise<string | undefined> {
	const saved = ctx.getWorkflowStaticData('node') as TriggerState;
	const since = known.since ?? saved.lastReceivedAt;
	const webhookId = known.webhookId ?? saved.webhookId;
	const enabled = ctx.getNodeParameter('options.recoverMissedEvents', true) as boolean;
	if (!enabled || !since || !webhookId) return undefined;
	const window = replayWindow(new Date(since), now);
	if (!window) return undefined;
	const response = await platformRequestFull
		.call(ctx, {
			method: 'POST',
			path: '/2/webhooks/replay',
			body: { webhook_id: webhookId, ...window },
			credentialType: BEARER,
			credential: known.credential,
			timeoutMs: known.timeoutMs,
			maxRateLimitWait: known.maxRateLimitWait,
		})
		.catch((error: unknown) => {
			// The service's "conflict" problem: a replay job is already running for the webhook.
			if (errorInfo(error).type === 'conflict' && known.onConflict !== 'throw') {
				ctx.logger.info(
					'Platform Trigger: a replay job is already running; its events will arrive as usual',
				);
				return undefined;
			}
			throw error;
		});
	if (!response) return undefined;
	const job = unwrapData<IDataObject>(response.body);
	ctx.logger.info(
		`Platform Trigger: replay job ${String(job?.job_id)} requested for ${window.from_date}-${window.to_date}`,
	);
	return String(job?.job_id ?? '');
}
