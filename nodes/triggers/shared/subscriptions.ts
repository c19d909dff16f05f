import type {
	IDataObject,
	IHookFunctions,
	ITriggerFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import type { SubscriptionInput } from '../../shared/activity';
import { createSubscription, resolveUserId, subscriptionIdOf } from '../../shared/activity';
import { refuseEngineV2 } from '../../shared/engine';
import { asNodeError } from '../../shared/errors';
import type {
	PlatformContext,
	PlatformCredentialType,
	PlatformRequest,
} from '../../shared/transport';
import { CREDENTIAL_TYPES, platformRequest } from '../../shared/transport';
import type { SendRequest } from '../../shared/users';
import { validateInput } from '../../shared/validation';
import {
	ACTIVITY_EVENT_TYPES,
	needsUserContext,
	USER_CREDENTIAL_TYPES,
	wireEventType,
} from './events';

/**
 * The Activity API subscriptions of the Platform Trigger (delivered to its webhook) and of the
 * Activity Stream Trigger (delivered to the app's stream): the same fields, the same refusals before
 * any request, the same subscriptions made and removed.
 */

const BEARER = CREDENTIAL_TYPES.appOnly;

/** Activation of the webhook modes (n8n's webhook methods) or of the activity stream (a trigger). */
export type SetupContext = IHookFunctions | ITriggerFunctions;

/** The trigger's requests: the transport's defaults (the lifecycle sets no item or Options wait). */
export function send(ctx: SetupContext | IWebhookFunctions): SendRequest {
	return async (request) =>
		await platformRequest.call<PlatformContext, [PlatformRequest], Promise<IDataObject>>(
			ctx,
			request,
		);
}

export function subscriptionTag(ctx: SetupContext): string {
	return `n8n:${String(ctx.getWorkflow().id ?? 'workflow')}:${ctx.getNode().id}`.slice(0, 200);
}

type Mode = 'activity' | 'accountActivity' | 'stream';

export function modeOf(ctx: SetupContext | IWebhookFunctions): Mode {
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
export function requireUserCredential(ctx: SetupContext, why: string): PlatformCredentialType {
	const type = userCredentialType(ctx);
	if (type) return type;
	throw new NodeOperationError(ctx.getNode(), `${why} need a user credential`, {
		description:
			'The service accepts these subscriptions only with a user-context token of the account (an app-only bearer token is refused). Set "User Credential" to OAuth2, OAuth1 Keys or OAuth1 Connect Account and pick a credential of that account; the app-only bearer credential stays for the webhook itself.',
	});
}

/**
 * Activity API types to subscribe to (the service's names), each with the credential that may
 * create it.
 */
function plannedSubscriptions(
	ctx: SetupContext,
	allEvents: readonly string[],
): Array<{ eventType: string; credentialType: PlatformCredentialType }> {
	const selected = selectedEventTypes(ctx);
	const types = (
		selected.includes('*')
			? [...allEvents]
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
export function refuseEarly(ctx: SetupContext, allEvents: readonly string[]) {
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
		planned: mode === 'activity' ? plannedSubscriptions(ctx, allEvents) : [],
		accountCredential:
			mode === 'accountActivity'
				? requireUserCredential(ctx, 'Account Activity subscriptions')
				: undefined,
	};
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
