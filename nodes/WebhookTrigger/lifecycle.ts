import type {
	IDataObject,
	IHookFunctions,
	ITriggerFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import type { SubscriptionInput, Webhook } from '../shared/activity';
import type { SendRequest } from '../shared/users';
import {
	createSubscription,
	registerWebhook,
	resolveUserId,
	subscriptionIdOf,
} from '../shared/activity';
import type {
	PlatformContext,
	PlatformCredentialType,
	PlatformRequest,
	ReadCredential,
} from '../shared/transport';
import { refuseEngineV2 } from '../shared/engine';
import { asNodeError, errorInfo } from '../shared/errors';
import { validateInput } from '../shared/validation';
import {
	CREDENTIAL_TYPES,
	platformRequest,
	platformRequestFull,
	listOf,
	unwrapData,
} from '../shared/transport';
import {
	ACTIVITY_EVENT_TYPES,
	LEGACY_ACTIVITY_EVENT_TYPES,
	needsUserContext,
	USER_CREDENTIAL_TYPES,
	wireEventType,
} from '../shared/triggers/events';
import { ALL_EVENTS_VERSION } from './outputs';
import type { TriggerState } from './state';
import { clearState, forgetTrigger, replayWindow, triggerKey } from './state';
import { forgetConsumerSecret } from './secretCache';
import { activateStream, deactivateStream, streamExists } from './filteredStream';

/** Activation of the webhook modes (n8n's webhook methods) or of the activity stream (a trigger). */
export type SetupContext = IHookFunctions | ITriggerFunctions;

/** The trigger's requests: the transport's defaults (the lifecycle sets no item or Options wait). */
function send(ctx: SetupContext | IWebhookFunctions): SendRequest {
	return async (request) =>
		await platformRequest.call<PlatformContext, [PlatformRequest], Promise<IDataObject>>(
			ctx,
			request,
		);
}

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

export function subscriptionTag(ctx: SetupContext): string {
	return `n8n:${String(ctx.getWorkflow().id ?? 'workflow')}:${ctx.getNode().id}`.slice(0, 200);
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

type Mode = 'activity' | 'accountActivity' | 'stream';

function modeOf(ctx: SetupContext | IWebhookFunctions): Mode {
	return ctx.getNodeParameter('mode', 'activity') as Mode;
}

/** The event types the user chose for the current mode ('*' for all). */
export function selectedEventTypes(ctx: SetupContext | IWebhookFunctions): string[] {
	const name = modeOf(ctx) === 'accountActivity' ? 'accountEvents' : 'events';
	return ctx.getNodeParameter(name, []) as string[];
}

/** The user-context credential chosen beside the bearer, or undefined for none. */
function userCredentialType(ctx: SetupContext): PlatformCredentialType | undefined {
	const chosen = String(ctx.getNodeParameter('userAuthentication', 'none') ?? 'none');
	return (USER_CREDENTIAL_TYPES as readonly string[]).includes(chosen)
		? (chosen as PlatformCredentialType)
		: undefined;
}

/**
 * The user credential, or an error raised before any request: the service accepts DM and chat
 * subscriptions, and Account Activity subscriptions, only with a user-context token.
 */
function requireUserCredential(ctx: SetupContext, why: string): PlatformCredentialType {
	const type = userCredentialType(ctx);
	if (type) return type;
	throw new NodeOperationError(ctx.getNode(), `${why} need a user credential`, {
		description:
			'The service accepts these subscriptions only with a user-context token of the account (an app-only bearer token is refused). Set "User Credential" to OAuth2, OAuth1 Keys or OAuth1 Connect Account and pick a credential of that account; the app-only bearer credential stays for the webhook itself.',
	});
}

/**
 * The event types "All Events" stands for: from version 3 every type the Events field offers;
 * versions 1 and 2 keep the twelve they subscribed to, so a saved workflow makes the same
 * subscriptions as before.
 */
export function allEventTypes(version: number): readonly string[] {
	return version >= ALL_EVENTS_VERSION ? ACTIVITY_EVENT_TYPES : LEGACY_ACTIVITY_EVENT_TYPES;
}

/**
 * Activity API types to subscribe to (the service's names), each with the credential that may
 * create it.
 */
function plannedSubscriptions(
	ctx: SetupContext,
): Array<{ eventType: string; credentialType: PlatformCredentialType }> {
	const selected = selectedEventTypes(ctx);
	const types = (
		selected.includes('*')
			? [...allEventTypes(ctx.getNode().typeVersion)]
			: selected.filter((t) => (ACTIVITY_EVENT_TYPES as readonly string[]).includes(t))
	).map(wireEventType);
	const private_ = types.filter(needsUserContext);
	const user = private_.length
		? requireUserCredential(
				ctx,
				`${selected.includes('*') ? `All Events include direct message${private_.some((t) => t.startsWith('chat.')) ? ' and chat' : ''} events, which` : `The events ${private_.join(', ')}`}`,
			)
		: undefined;
	return types.map((eventType) => ({
		eventType,
		credentialType: needsUserContext(eventType) ? user! : BEARER,
	}));
}

/** The service's limit of a subscription's keyword (empty: no keyword). */
const filterSchema = z.object({ keyword: z.string().max(150, 'at most 150 characters') });

/**
 * Refuses, before the first request, what the service would refuse anyway: subscriptions that need a
 * user credential when none is chosen, and a workflow set to Engine 2.0 (shared/engine.ts). n8n calls
 * checkExists before create, so both start with it; the Activity Stream Trigger starts with it too.
 */
export function refuseEarly(ctx: SetupContext) {
	refuseEngineV2(ctx);
	const mode = modeOf(ctx);
	// Every activity subscription filters by a user or by a keyword; the service refuses one with neither.
	// (A field n8n marks required would also block "Execute step" for Keyword-only triggers.)
	if (
		mode === 'activity' &&
		!String(ctx.getNodeParameter('user', '') ?? '').trim() &&
		!String(ctx.getNodeParameter('keyword', '') ?? '').trim()
	) {
		throw new NodeOperationError(ctx.getNode(), 'Set "User" or "Keyword"', {
			description:
				'Activity subscriptions filter by an account (user ID or @username) or by a keyword; fill in at least one.',
		});
	}
	if (mode === 'activity')
		validateInput(
			ctx.getNode(),
			filterSchema,
			{ keyword: String(ctx.getNodeParameter('keyword', '') ?? '').trim() },
			0,
			{ keyword: 'Keyword' },
		);
	return {
		planned: mode === 'activity' ? plannedSubscriptions(ctx) : [],
		accountCredential:
			mode === 'accountActivity'
				? requireUserCredential(ctx, 'Account Activity subscriptions')
				: undefined,
	};
}

/** Our webhook exists (by stored id, else by exact URL) and our subscriptions are recorded. */
export async function checkExists(ctx: IHookFunctions): Promise<boolean> {
	// (Re-)activation: deliveries read the credential anew.
	forgetConsumerSecret(ctx);
	refuseEarly(ctx);
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

export async function deleteSubscriptions(ctx: SetupContext, ids: string[]): Promise<void> {
	for (const id of ids) {
		await platformRequest.call(ctx, {
			method: 'DELETE',
			path: `/2/activity/subscriptions/${encodeURIComponent(id)}`,
			credentialType: BEARER,
		});
	}
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
	const { planned, accountCredential } = refuseEarly(ctx);
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

/** One planned subscription: what to send, and the credential that may create it. */
export interface PlannedSubscription {
	input: IDataObject;
	credentialType: PlatformCredentialType;
}

/**
 * The subscriptions of the Activity settings (User, Keyword, Direction), one per planned event type,
 * delivered to `webhookId` or, without one, to the app's activity stream.
 */
export async function subscriptionInputs(
	ctx: SetupContext,
	planned: Array<{ eventType: string; credentialType: PlatformCredentialType }>,
	{ tag, webhookId }: { tag: string; webhookId?: string },
): Promise<PlannedSubscription[]> {
	const userId = await resolveUserId(ctx, String(ctx.getNodeParameter('user', '') ?? ''));
	const keyword = String(ctx.getNodeParameter('keyword', '') ?? '').trim();
	const direction = String(ctx.getNodeParameter('direction', '') ?? '');
	const filter: IDataObject = {};
	if (userId) filter.user_id = userId;
	if (keyword) filter.keyword = keyword;
	return planned.map(({ eventType, credentialType }) => {
		const eventFilter = { ...filter };
		if (direction && needsUserContext(eventType)) eventFilter.direction = direction;
		const input: IDataObject = { event_type: eventType, filter: eventFilter, tag };
		if (webhookId) input.webhook_id = webhookId;
		return { input, credentialType };
	});
}

/** Creates the subscriptions; when one fails, those already made are removed (nothing half-made). */
export async function createSubscriptions(
	ctx: SetupContext,
	planned: PlannedSubscription[],
): Promise<string[]> {
	const created: string[] = [];
	try {
		for (const { input, credentialType } of planned) {
			created.push(
				subscriptionIdOf(
					await createSubscription(send(ctx), input as SubscriptionInput, { credentialType }),
				),
			);
		}
	} catch (error) {
		ctx.logger.error(
			`Platform Trigger: creating subscriptions failed after ${created.length}; removing those to leave nothing half-made`,
		);
		await deleteSubscriptions(ctx, created).catch(() => undefined);
		throw asNodeError(ctx, error);
	}
	return created;
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
	forgetTrigger(triggerKey(ctx.getWorkflow().id, ctx.getNode().id));
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
