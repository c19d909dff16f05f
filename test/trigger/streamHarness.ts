/**
 * The Activity Stream Trigger's shell against the sandbox's real streaming endpoint: the sandbox's
 * shape as these tests drive it, and a trigger context whose emit answers as n8n does (a run started,
 * its donePromise settled after it; or the start refused and the donePromise rejected).
 * activityStream.test.ts and activityStreamShell.test.ts share it.
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { CREDENTIAL_TYPES } from '../../nodes/shared/transport';
import { createContext, defaultCredentials } from '../helpers/context';

/* eslint-disable @typescript-eslint/no-require-imports -- the sandbox is plain CommonJS */
export const { createSandbox } = require('../../sandbox/server') as {
	createSandbox: (o: IDataObject) => StreamSandbox;
};
/* eslint-enable @typescript-eslint/no-require-imports */

export interface StreamSandbox {
	url: string;
	keys: { bearerToken: string; oauth2UserToken: string; userId: string };
	listen(): Promise<StreamSandbox>;
	close(): Promise<void>;
	emit(input: IDataObject): Promise<Array<{ event_uuid: string }>>;
	db: { subscriptions: Map<string, IDataObject> };
	records: Array<{ path: string; method: string; query: IDataObject; status: number; at: string }>;
	faults: { rules: IDataObject[] };
	server: { prependListener(event: 'request', fn: (req: { url?: string }) => void): void };
	activityStream: {
		keepAliveMs: number;
		backlogLineMs: number;
		connects: number;
		connections: Set<{
			stalled: boolean;
			res: { destroy(): void; write(s: string): void };
			query: IDataObject;
			opened_at: string;
		}>;
		log: Array<{ at: number }>;
		slowReaderBytes: number;
		slowReaderDisconnects: number;
	};
}

export const wait = async (ms: number) => await sleep(ms);

export async function until<T>(
	what: string,
	fn: () => T | undefined | false,
	ms = 5000,
): Promise<T> {
	const end = Date.now() + ms;
	for (;;) {
		const v = fn();
		if (v) return v;
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await wait(20);
	}
}

/**
 * What n8n does with a run: starts it (its donePromise settled after it), or fails to start it and
 * rejects its donePromise ('not started': a database error; or the given error).
 */
export type StartOutcome = 'started' | 'not started' | Error;

export interface TriggerOptions {
	staticData?: IDataObject;
	workflowId?: string;
	nodeId?: string;
	parameters?: IDataObject;
	mode?: 'trigger' | 'manual';
	/** n8n's answer to each run (default: started). */
	start?: (eventId: string) => StartOutcome;
	/**
	 * A user credential beside the app's bearer (the node's "User Credential"): OAuth 2.0 with the
	 * sandbox account's token. Direct message events, and All Events, need one.
	 */
	userCredential?: boolean;
	extra?: IDataObject;
}

export const ids = (items: Array<{ json: IDataObject }>) =>
	items.map((i) => String(i.json.event_id));

/** The helpers bound to the sandbox each test starts (`sandbox()` reads the current one). */
export function streamHelpers(sandbox: () => StreamSandbox) {
	function trigger(opts: TriggerOptions = {}) {
		/** Every emit, whether n8n started its run or not. */
		const calls: Array<{ id: string; key?: string; done: boolean; at: number }> = [];
		const emitted: Array<{ json: IDataObject; key?: string }> = [];
		const errors: Error[] = [];
		const sb = sandbox();
		const credentials = defaultCredentials();
		credentials.platformBearerApi = {
			...credentials.platformBearerApi,
			baseUrl: sb.url,
			bearerToken: sb.keys.bearerToken,
		};
		if (opts.userCredential)
			credentials[CREDENTIAL_TYPES.pkce] = {
				...credentials[CREDENTIAL_TYPES.pkce],
				oauthTokenData: { access_token: sb.keys.oauth2UserToken },
				baseUrl: sb.url,
			};
		const built = createContext({
			parameters: {
				events: ['post.create'],
				user: sb.keys.userId,
				options: {},
				...(opts.userCredential ? { userAuthentication: CREDENTIAL_TYPES.pkce } : {}),
				...(opts.parameters ?? {}),
			},
			credentials,
			staticData: opts.staticData ?? {},
			workflowId: opts.workflowId,
			extra: {
				getMode: () => opts.mode ?? 'trigger',
				emit: (
					data: Array<Array<{ json: IDataObject }>>,
					_r: unknown,
					done: { resolve(v: unknown): void; reject(e: Error): void } | undefined,
					key?: string,
				) => {
					const id = String(data[0][0].json.event_id);
					calls.push({ id, key, done: !!done, at: performance.now() });
					const outcome = opts.start?.(id) ?? 'started';
					if (outcome === 'started') emitted.push({ json: data[0][0].json, key });
					// As n8n: settled after the run ended, or rejected when it could not start it.
					void Promise.resolve().then(() =>
						outcome === 'started'
							? done?.resolve({})
							: done?.reject(outcome === 'not started' ? new Error('SQLITE_BUSY') : outcome),
					);
				},
				emitError: (error: Error) => errors.push(error),
				...(opts.extra ?? {}),
			},
		});
		if (opts.nodeId) built.node.id = opts.nodeId;
		return { ...built, calls, emitted, errors };
	}

	/** The subscriptions the service holds. */
	const ours = () => [...sandbox().db.subscriptions.values()];

	async function post(text: string, count = 1): Promise<string[]> {
		const sent = await sandbox().emit({ event_type: 'post.create', text, count });
		return sent.map((e) => e.event_uuid);
	}

	return { trigger, ours, post };
}
