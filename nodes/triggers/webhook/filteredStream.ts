import type { IDataObject, IHookFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { StreamRule } from '../../shared/streamRules';
import {
	readRules as readRuleEntries,
	RULES_PATH,
	ruleError,
	rulesProperty,
} from '../../shared/streamRules';
import type { PlatformContext, PlatformRequest } from '../../shared/transport';
import { asNodeError } from '../../shared/errors';
import { CREDENTIAL_TYPES, platformRequest, unwrapData } from '../../shared/transport';
import type { TriggerState } from './state';

/**
 * The "Posts matching search rules" mode (filtered-stream webhooks): on activation our
 * rules are added (checked with a dry run first) and the webhook is linked to the stream; on
 * deactivation the link and only our rules are removed. Each delivery is one post.
 */

const BEARER = CREDENTIAL_TYPES.appOnly;
const LINK_PATH = '/2/tweets/search/webhooks';

const showStream = { show: { mode: ['stream'] } };

async function bearerRequest(
	ctx: IHookFunctions,
	request: Omit<PlatformRequest, 'credentialType'>,
): Promise<IDataObject> {
	return await platformRequest.call<PlatformContext, [PlatformRequest], Promise<IDataObject>>(ctx, {
		...request,
		credentialType: BEARER,
	});
}

export const streamProperties: INodeProperties[] = [
	rulesProperty(
		showStream,
		'Posts matching any rule start the workflow. Each item carries the matching rules and their tags, so the workflow can branch by tag.',
	),
	{
		displayName: 'Post Fields',
		name: 'postFields',
		type: 'string',
		default: 'created_at,author_id,entities,conversation_id',
		displayOptions: showStream,
		description: 'Comma-separated post fields to deliver (tweet.fields)',
	},
	{
		displayName: 'Expansions',
		name: 'expansions',
		type: 'string',
		default: 'author_id',
		displayOptions: showStream,
		description:
			'Comma-separated expansions delivered in includes (e.g. author_id, attachments.media_keys)',
	},
	{
		displayName: 'User Fields',
		name: 'userFields',
		type: 'string',
		default: 'username,name',
		displayOptions: showStream,
		description: 'Comma-separated user fields of expanded users (user.fields)',
	},
];

/** The rules entered in the node, checked before any request. */
export function readRules(ctx: IHookFunctions): StreamRule[] {
	return readRuleEntries(
		ctx.getNodeParameter('rules', {}),
		(message) => new NodeOperationError(ctx.getNode(), message),
	);
}

function list(value: unknown): string | undefined {
	const text = String(value ?? '')
		.split(',')
		.map((v) => v.trim())
		.filter(Boolean)
		.join(',');
	return text || undefined;
}

/** Adds the rules (dry run first: nothing is added when any is refused) and returns their ids. */
export async function addRules(ctx: IHookFunctions, rules: StreamRule[]): Promise<string[]> {
	const body = { add: rules };
	const check = await bearerRequest(ctx, {
		method: 'POST',
		path: RULES_PATH,
		qs: { dry_run: true },
		body,
		retryTransient: true,
	});
	const refused = ruleError(
		ctx.getNode(),
		check,
		'The search rules were refused, nothing was added',
	);
	if (refused) throw refused;
	const response = await bearerRequest(ctx, {
		method: 'POST',
		path: RULES_PATH,
		body,
		unsafeFailureHint:
			'The rules may have been added: check Platform Posts → Admin (App-Only) → List Stream Rules.',
	});
	const created = (Array.isArray(response.data) ? response.data : []) as IDataObject[];
	const partial = ruleError(ctx.getNode(), response, 'The service refused search rules');
	if (partial) {
		// Nothing half-made: remove what was added before failing.
		await deleteRules(
			ctx,
			created.map((r) => String(r.id)),
		);
		throw partial;
	}
	return created.map((r) => String(r.id));
}

export async function deleteRules(ctx: IHookFunctions, ids: string[]): Promise<void> {
	if (!ids.length) return;
	const response = await bearerRequest(ctx, {
		method: 'POST',
		path: RULES_PATH,
		body: { delete: { ids } },
		// Deleting the same ids twice changes nothing.
		retryTransient: true,
	});
	const refused = ruleError(ctx.getNode(), response, 'Removing our search rules failed');
	if (refused) throw refused;
}

/** The ids among `ids` that the service still has. */
export async function existingRuleIds(ctx: IHookFunctions, ids: string[]): Promise<string[]> {
	if (!ids.length) return [];
	const body = await bearerRequest(ctx, {
		method: 'GET',
		path: RULES_PATH,
		qs: { ids: ids.join(',') },
	});
	const rules = (Array.isArray(body.data) ? body.data : []) as IDataObject[];
	return rules.map((r) => String(r.id)).filter((id) => ids.includes(id));
}

export async function linkWebhook(ctx: IHookFunctions, webhookId: string): Promise<void> {
	const qs: IDataObject = {};
	const fields = list(ctx.getNodeParameter('postFields', ''));
	const expansions = list(ctx.getNodeParameter('expansions', ''));
	const userFields = list(ctx.getNodeParameter('userFields', ''));
	if (fields) qs['tweet.fields'] = fields;
	if (expansions) qs.expansions = expansions;
	if (userFields) qs['user.fields'] = userFields;
	await bearerRequest(ctx, {
		method: 'POST',
		path: `${LINK_PATH}/${encodeURIComponent(webhookId)}`,
		qs,
		// Linking the same webhook again is harmless.
		retryTransient: true,
	});
}

export async function isLinked(ctx: IHookFunctions, webhookId: string): Promise<boolean> {
	const body = await bearerRequest(ctx, { method: 'GET', path: LINK_PATH });
	const data = unwrapData<IDataObject | IDataObject[]>(body);
	const links = (
		Array.isArray(data) ? data : ((data?.links as IDataObject[] | undefined) ?? [])
	) as IDataObject[];
	return links.some((l) => String(l.webhook_id) === webhookId);
}

export async function unlinkWebhook(ctx: IHookFunctions, webhookId: string): Promise<void> {
	if (!(await isLinked(ctx, webhookId))) return;
	await bearerRequest(ctx, {
		method: 'DELETE',
		path: `${LINK_PATH}/${encodeURIComponent(webhookId)}`,
	});
}

/** Activation of the stream mode once the webhook is registered: rules, then the link. */
export async function activateStream(
	ctx: IHookFunctions,
	saved: TriggerState,
	webhookId: string,
): Promise<void> {
	const rules = readRules(ctx);
	const ids = await addRules(ctx, rules);
	saved.ruleIds = ids;
	try {
		await linkWebhook(ctx, webhookId);
	} catch (error) {
		ctx.logger.error(
			'Platform Trigger: linking the webhook to the stream failed; removing the rules just added',
		);
		await deleteRules(ctx, ids);
		delete saved.ruleIds;
		throw asNodeError(ctx, error);
	}
}

/** Whether our rules and link are all still there (n8n restarts call only checkExists). */
export async function streamExists(
	ctx: IHookFunctions,
	saved: TriggerState,
	webhookId: string,
): Promise<boolean> {
	const ids = saved.ruleIds ?? [];
	if (!ids.length) return false;
	const present = await existingRuleIds(ctx, ids);
	if (present.length !== ids.length) {
		ctx.logger.info(
			'Platform Trigger: some of our search rules are gone; setting the stream up again',
		);
		await deleteRules(ctx, present);
		delete saved.ruleIds;
		return false;
	}
	if (!(await isLinked(ctx, webhookId))) await linkWebhook(ctx, webhookId);
	return true;
}

export async function deactivateStream(ctx: IHookFunctions, saved: TriggerState): Promise<void> {
	if (saved.webhookId) await unlinkWebhook(ctx, saved.webhookId);
	await deleteRules(ctx, saved.ruleIds ?? []);
	delete saved.ruleIds;
}
