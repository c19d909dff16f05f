import { createHmac } from 'node:crypto';
import nock from 'nock';
import type { IDataObject, IWebhookResponseData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { BASE, createContext, TEST_SECRETS } from '../helpers/context';
import type { Clock } from '../../nodes/triggers/webhook/receive';
import type { TriggerState } from '../../nodes/triggers/webhook/state';
import { DeliveryMemory, idHash, persistedIds } from '../../nodes/triggers/webhook/state';

/**
 * The event ids a trigger's persisted record holds, in its order: the record keeps hashes only, so each
 * is named by the id among `known` it is the hash of (an entry of no known id shows as `#<hash>`).
 */
export function recordedIds(state: IDataObject, known: string[]): string[] {
	const names = new Map(known.map((id) => [idHash(id), id]));
	return persistedIds(state as TriggerState).map(([hash]) => names.get(hash) ?? `#${hash}`);
}

/** One n8n process's memory of its triggers (a restart, or another process, gets a new one). */
export type StateModule = DeliveryMemory;

/** An n8n process with empty memory (a restart, or another one). */
export function newProcess(): StateModule {
	return new DeliveryMemory();
}

export interface Captured {
	status?: number;
	body?: unknown;
}

/** The signature header value the service sends for these bytes. */
export function sign(body: string | Buffer, secret = TEST_SECRETS.consumerSecret) {
	return `sha256=${createHmac('sha256', secret).update(body).digest('base64')}`;
}

/** A webhook call: raw body, headers, query, the node's parameters and static data; the answer is captured. */
export function webhookContext(opts: {
	raw?: Buffer;
	headers?: IDataObject;
	query?: IDataObject;
	parameters?: IDataObject;
	staticData?: IDataObject;
	secret?: string;
	/** The same id for two calls = the same trigger in the same n8n process. */
	workflowId?: string;
	typeVersion?: number;
}) {
	const captured: Captured = {};
	// Calls its 'finish' listeners when a test says the answer was sent (emit), then its 'close'
	// listeners, as n8n's (express) response does; emit('close') alone is a caller that hung up.
	const listeners: Array<() => void> = [];
	const closers: Array<() => void> = [];
	const response = {
		status(code: number) {
			captured.status = code;
			return response;
		},
		json(body: unknown) {
			captured.body = body;
			return response;
		},
		once(event: string, listener: () => void) {
			if (event === 'finish') listeners.push(listener);
			if (event === 'close') closers.push(listener);
			return response;
		},
		emit(event: string) {
			if (event === 'finish') for (const listener of listeners.splice(0)) listener();
			if (event === 'finish' || event === 'close')
				for (const listener of closers.splice(0)) listener();
			return true;
		},
	};
	const built = createContext({
		parameters: { events: ['post.create'], options: {}, ...(opts.parameters ?? {}) },
		staticData: opts.staticData ?? {},
		workflowId: opts.workflowId,
		typeVersion: opts.typeVersion,
		extra: {
			getRequestObject: () => ({ rawBody: opts.raw }),
			getResponseObject: () => response,
			getHeaderData: () => opts.headers ?? {},
			getQueryData: () => opts.query ?? {},
		},
	});
	if (opts.secret !== undefined) built.credentials.platformBearerApi.consumerSecret = opts.secret;
	return { ...built, captured, response };
}

/** A correctly signed delivery of this JSON body. */
export function signedDelivery(
	body: IDataObject,
	opts: {
		parameters?: IDataObject;
		staticData?: IDataObject;
		workflowId?: string;
		typeVersion?: number;
	} = {},
) {
	const raw = Buffer.from(JSON.stringify(body));
	return webhookContext({ raw, headers: { 'x-platform-webhooks-signature': sign(raw) }, ...opts });
}

/**
 * What the caller was answered: the trigger either answers on the response object itself (refusals,
 * the CRC check, the first delivery after a restart) or hands n8n the body to send with status 200
 * once the run has started (`webhookResponse`).
 */
export function answerOf(result: IWebhookResponseData, captured: Captured): Captured {
	if (captured.status !== undefined) {
		if (result.webhookResponse !== undefined) throw new Error('answered twice');
		return { status: captured.status, body: captured.body };
	}
	if (result.noWebhookResponse) return {};
	return { status: 200, body: result.webhookResponse };
}

export interface SubscriptionMade {
	type: string;
	auth: string;
	filter: IDataObject;
}

/**
 * The service for an activation in activity mode: no webhook yet, one registered at `url`, and up to
 * `times` subscriptions, each recorded (event type, credential, filter) in the list returned.
 */
export function serveActivation(url: string, times: number): SubscriptionMade[] {
	const made: SubscriptionMade[] = [];
	// The contract's shapes: no `data` when there is no webhook, the webhook itself when one is made.
	nock(BASE)
		.get('/2/webhooks')
		.reply(200, { meta: { result_count: 0 } });
	nock(BASE).post('/2/webhooks').reply(200, { id: '111', url, valid: true });
	nock(BASE)
		.post('/2/activity/subscriptions')
		.times(times)
		.reply(function (_uri, b) {
			const body = b as IDataObject;
			made.push({
				type: String(body.event_type),
				auth: String(this.req.headers.authorization),
				filter: body.filter as IDataObject,
			});
			return [200, { data: { subscription_id: `s-${String(body.event_type)}` } }];
		});
	return made;
}

/** A clock whose sleeps end only when the test moves it on. */
export function manualClock(start: number): Clock & { advance(ms: number): Promise<void> } {
	let now = start;
	let timers: Array<{ at: number; resolve: () => void }> = [];
	return {
		now: () => now,
		sleep: async (ms) =>
			await new Promise<void>((resolve) => timers.push({ at: now + ms, resolve })),
		async advance(ms) {
			now += ms;
			const due = timers.filter((t) => t.at <= now);
			timers = timers.filter((t) => t.at > now);
			for (const t of due) t.resolve();
			for (let i = 0; i < 20; i++) await sleep(0);
		},
	};
}

/** A post.create delivery of the Activity API, event id `id`. */
export const postDelivery = (id: string): IDataObject => ({
	data: { event_uuid: id, event_type: 'post.create', payload: { id } },
});

/**
 * A signed Account Activity delivery with one favorite per id, in order, to a version 3 trigger on
 * every account event (`options`: the trigger's options, Recover Missed Events among them).
 */
export function favoritesDelivery(
	ids: string[],
	staticData: IDataObject,
	workflowId: string,
	options: IDataObject = {},
) {
	return signedDelivery(
		{
			for_user_id: '1000000001',
			favorite_events: ids.map((id) => ({ id, favorited_status: { id_str: '9' } })),
		},
		{
			parameters: {
				mode: 'accountActivity',
				accountEvents: ['*'],
				userAuthentication: 'none',
				options,
			},
			staticData,
			workflowId,
			typeVersion: 3,
		},
	);
}

/**
 * A signed delivery to a version 3 trigger on post.create with Recover Missed Events on, with the
 * trigger's static data and its workflow id (the restart-recovery and own-replay tests).
 */
export function recoveringDelivery(body: IDataObject, staticData: IDataObject, workflowId: string) {
	return signedDelivery(body, {
		parameters: {
			mode: 'activity',
			events: ['post.create'],
			options: { recoverMissedEvents: true },
		},
		staticData,
		workflowId,
		typeVersion: 3,
	});
}
