import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { createSubscription, registerWebhook, resolveUserId, subscriptionIdOf } from '../shared/activity';
import { asNodeError, CREDENTIAL_TYPES, platformRequest, platformRequestFull, unwrapData } from '../shared/transport';
import { ACTIVITY_EVENT_TYPES } from './events';
import type { TriggerState } from './state';
import { clearState, replayWindow } from './state';
import { activateStream, deactivateStream, streamExists } from './stream';

const BEARER = CREDENTIAL_TYPES.appOnly;

interface Webhook extends IDataObject {
	id: string;
	url: string;
	valid?: boolean;
}

function state(ctx: IHookFunctions): TriggerState {
	return ctx.getWorkflowStaticData('node') as TriggerState;
}

function isStreamMode(ctx: IHookFunctions): boolean {
	return ctx.getNodeParameter('mode', 'activity') === 'stream';
}

function webhookUrl(ctx: IHookFunctions): string {
	return ctx.getNodeWebhookUrl('default') as string;
}

export function subscriptionTag(ctx: IHookFunctions): string {
	return `n8n:${String(ctx.getWorkflow().id ?? 'workflow')}:${ctx.getNode().id}`.slice(0, 200);
}

async function listWebhooks(ctx: IHookFunctions): Promise<Webhook[]> {
	const body = await platformRequest.call(ctx, { method: 'GET', path: '/2/webhooks', credentialType: BEARER });
	const data = unwrapData<Webhook[] | Webhook | undefined>(body);
	return Array.isArray(data) ? data : data ? [data] : [];
}

async function revalidate(ctx: IHookFunctions, id: string): Promise<void> {
	ctx.logger.info(`Platform Trigger: webhook ${id} is invalid; asking the service to re-check it (CRC)`);
	await platformRequest.call(ctx, { method: 'PUT', path: `/2/webhooks/${encodeURIComponent(id)}`, credentialType: BEARER });
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
	const saved = state(ctx);
	const url = webhookUrl(ctx);
	const hooks = await listWebhooks(ctx);
	const ours = hooks.find((h) => saved.webhookId && String(h.id) === saved.webhookId) ?? hooks.find((h) => h.url === url);
	const stream = isStreamMode(ctx);
	if (!ours || ours.url !== url || !(stream ? saved.ruleIds : saved.subscriptionIds)) return false;
	saved.webhookId = String(ours.id);
	if (ours.valid === false) await revalidate(ctx, saved.webhookId);
	if (stream && !(await streamExists(ctx, saved, saved.webhookId))) return false;
	await recoverMissedEvents(ctx);
	return true;
}

async function deleteSubscriptions(ctx: IHookFunctions, ids: string[]): Promise<void> {
	for (const id of ids) {
		await platformRequest.call(ctx, {
			method: 'DELETE',
			path: `/2/activity/subscriptions/${encodeURIComponent(id)}`,
			credentialType: BEARER,
		});
	}
}

export async function create(ctx: IHookFunctions): Promise<boolean> {
	await requireConsumerSecret(ctx);
	const saved = state(ctx);
	const url = webhookUrl(ctx);
	const existing = (await listWebhooks(ctx)).find((h) => h.url === url);
	let webhookId: string;
	if (existing) {
		webhookId = String(existing.id);
		ctx.logger.info(`Platform Trigger: adopting the registered webhook ${webhookId} with this URL`);
		if (existing.valid === false) await revalidate(ctx, webhookId);
	} else {
		webhookId = String((await registerWebhook.call(ctx, url)).id);
	}
	saved.webhookId = webhookId;
	if (isStreamMode(ctx)) {
		await activateStream(ctx, saved, webhookId);
		await recoverMissedEvents(ctx);
		return true;
	}

	const selected = ctx.getNodeParameter('events', []) as string[];
	const types = selected.includes('*')
		? [...ACTIVITY_EVENT_TYPES]
		: selected.filter((t) => (ACTIVITY_EVENT_TYPES as readonly string[]).includes(t));
	const userId = await resolveUserId(ctx, String(ctx.getNodeParameter('user', '') ?? ''));
	const keyword = String(ctx.getNodeParameter('keyword', '') ?? '').trim();
	const direction = String(ctx.getNodeParameter('direction', '') ?? '');
	const filter: IDataObject = {};
	if (userId) filter.user_id = userId;
	if (keyword) filter.keyword = keyword;

	const created: string[] = [];
	try {
		for (const eventType of types) {
			const eventFilter = { ...filter };
			if (direction && eventType.startsWith('dm.')) eventFilter.direction = direction;
			const input = { event_type: eventType, filter: eventFilter, tag: subscriptionTag(ctx), webhook_id: webhookId };
			created.push(subscriptionIdOf(await createSubscription.call(ctx, input)));
		}
	} catch (error) {
		ctx.logger.error(
			`Platform Trigger: creating subscriptions failed after ${created.length}; removing those to leave nothing half-made`,
		);
		await deleteSubscriptions(ctx, created);
		throw asNodeError(ctx, error);
	}
	saved.subscriptionIds = created;
	await recoverMissedEvents(ctx);
	return true;
}

export async function remove(ctx: IHookFunctions): Promise<boolean> {
	const saved = state(ctx);
	if (saved.ruleIds || isStreamMode(ctx)) await deactivateStream(ctx, saved);
	await deleteSubscriptions(ctx, saved.subscriptionIds ?? []);
	if (saved.webhookId) {
		const response = await platformRequestFull.call(ctx, {
			method: 'GET',
			path: '/2/webhooks',
			credentialType: BEARER,
		});
		const hooks = unwrapData<Webhook[]>(response.body) ?? [];
		if (Array.isArray(hooks) && hooks.some((h) => String(h.id) === saved.webhookId)) {
			await platformRequest.call(ctx, {
				method: 'DELETE',
				path: `/2/webhooks/${encodeURIComponent(saved.webhookId)}`,
				credentialType: BEARER,
			});
		} else {
			ctx.logger.info(`Platform Trigger: webhook ${saved.webhookId} was already gone`);
		}
	}
	clearState(saved);
	return true;
}

/**
 * After downtime, asks the service to re-deliver what was sent since the last delivery (within its
 * 24-hour window, minute granularity). Duplicates are dropped by event id when they arrive.
 */
export async function recoverMissedEvents(
	ctx: IHookFunctions | IWebhookFunctions,
	now = new Date(),
): Promise<string | undefined> {
	const saved = ctx.getWorkflowStaticData('node') as TriggerState;
	const enabled = ctx.getNodeParameter('options.recoverMissedEvents', true) as boolean;
	if (!enabled || !saved.lastReceivedAt || !saved.webhookId) return undefined;
	const window = replayWindow(new Date(saved.lastReceivedAt), now);
	if (!window) return undefined;
	const response = await platformRequestFull
		.call(ctx, {
			method: 'POST',
			path: '/2/webhooks/replay',
			body: { webhook_id: saved.webhookId, ...window },
			credentialType: BEARER,
		})
		.catch((error: Error & { httpCode?: string; message: string }) => {
			if (/replay job is already running/.test(error.message)) {
				ctx.logger.info('Platform Trigger: a replay job is already running; its events will arrive as usual');
				return undefined;
			}
			throw error;
		});
	if (!response) return undefined;
	const job = unwrapData<IDataObject>(response.body);
	ctx.logger.info(`Platform Trigger: replay job ${String(job?.job_id)} requested for ${window.from_date}-${window.to_date}`);
	return String(job?.job_id ?? '');
}
