import type { IDataObject, INode } from 'n8n-workflow';
import { unwrapData } from '../../../shared/transport';
import { NodeOperationError } from 'n8n-workflow';

import { checkProduct, normalizeProduct, variantProblems } from '../../productSchema';
import { PushPace } from './pushPace';

/** The service takes at most 25 products per PUT. */
export const BATCH_SIZE = 25;
export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 10;

/** The result of one input item. */
export interface ItemResult {
	json: IDataObject;
	failed: boolean;
}

/** What a push run is told once and never changes. */
export interface PushSettings {
	node: INode;
	/** Continue mode: send the valid products and report every item; otherwise stop at the first problem. */
	keepGoing: boolean;
	/** How many batches are in flight at the same time (fixed, or adapted to the rate-limit window). */
	pace: PushPace;
	/**
	 * Sends one batch (the PUT of at most BATCH_SIZE products); `itemIndex` is its first item. It tells
	 * `pace` the rate-limit window of every answer; retries (429 after the reset, 5xx) happen inside it.
	 */
	send: (products: IDataObject[], itemIndex: number) => Promise<IDataObject>;
}

/** Everything a push run changes while it goes, in one place. */
export interface PushState {
	readonly n: number;
	/** Each item's product as read (undefined when it could not be read). */
	readonly raws: Array<IDataObject | undefined>;
	/** Results known before the zod check: unreadable items, repeated ids. */
	readonly preset: Map<number, ItemResult>;
	/** Each item's result, filled as it is checked or sent. */
	readonly results: Array<ItemResult | undefined>;
	/** Each valid item's request body, dropped once its batch is answered. */
	readonly products: Array<IDataObject | undefined>;
	/** Variant problems found across items (missing item_group_id). */
	readonly variants: Map<number, string>;
	/** The next item to put in a batch; only moves forward, so each product is in exactly one batch. */
	cursor: number;
	/** How many products the service accepted so far. */
	pushed: number;
	/** Set at the first failure in Stop mode: no new batch starts after it. */
	stopError?: NodeOperationError;
}

/**
 * The pace of a push. Version 1 of the node: always the Concurrency option (default 4). Version 2: the
 * Concurrency option when it is set; without it the pace starts at 4 and adapts to the rate-limit
 * headers of the answers (see PushPace).
 */
export function pushPace(typeVersion: number, concurrency: unknown): PushPace {
	const adaptive = typeVersion >= 2 && (concurrency === undefined || concurrency === null);
	return new PushPace(clampConcurrency(concurrency), adaptive);
}

export function clampConcurrency(value: unknown): number {
	return Math.min(
		MAX_CONCURRENCY,
		Math.max(1, Math.floor(Number(value ?? DEFAULT_CONCURRENCY) || DEFAULT_CONCURRENCY)),
	);
}

function idOf(raw: IDataObject | undefined): string | undefined {
	const value = raw?.id;
	if (value === undefined || value === null) return undefined;
	const id = String(value).trim();
	return id === '' ? undefined : id;
}

function failure(
	id: unknown,
	status: string,
	errors: string[],
	extra: IDataObject = {},
): ItemResult {
	return {
		failed: true,
		json: {
			id: id === undefined || id === null ? null : String(id),
			product_key: null,
			status,
			errors,
			warnings: [],
			error: errors[0],
			...extra,
		},
	};
}

/**
 * A cheap pass over all items: read them, find repeated ids and variants without item_group_id.
 * `read(i)` returns item i's product attributes or throws when they cannot be read.
 */
export function startPush(n: number, read: (index: number) => IDataObject): PushState {
	const raws: Array<IDataObject | undefined> = new Array(n);
	const preset = new Map<number, ItemResult>();
	for (let i = 0; i < n; i++) {
		try {
			raws[i] = read(i);
		} catch (error) {
			preset.set(
				i,
				failure(undefined, 'INVALID', [
					`the product fields could not be read: ${(error as Error).message}`,
				]),
			);
		}
	}
	const byId = new Map<string, number[]>();
	raws.forEach((raw, i) => {
		const id = idOf(raw);
		if (id === undefined) return;
		const list = byId.get(id);
		if (list) list.push(i);
		else byId.set(id, [i]);
	});
	for (const [id, indexes] of byId) {
		if (indexes.length < 2) continue;
		// The service ignores every instance of a repeated id, so none is sent.
		const message = `id "${id}" appears in items ${indexes.map((i) => i + 1).join(', ')}: the service ignores every instance of a repeated id, so none was sent`;
		for (const i of indexes) preset.set(i, failure(id, 'DUPLICATE_ID', [message]));
	}
	return {
		n,
		raws,
		preset,
		results: new Array(n),
		products: new Array(n),
		variants: variantProblems(raws),
		cursor: 0,
		pushed: 0,
	};
}

/** The zod check of one item: records its request body, or its result when it cannot be sent. */
function checkItem(state: PushState, i: number): boolean {
	const known = state.preset.get(i);
	if (known) {
		state.results[i] = known;
		return false;
	}
	const { product } = normalizeProduct(state.raws[i] ?? {});
	const { data, errors } = checkProduct(product);
	const variant = state.variants.get(i);
	if (variant) errors.push(variant);
	if (errors.length) {
		state.results[i] = failure(product.id, 'INVALID', errors);
		return false;
	}
	state.products[i] = data;
	return true;
}

/** Stop mode: every item is checked before anything is sent; one invalid item fails the node. */
function checkAll(state: PushState, node: INode): void {
	let first = -1;
	let bad = 0;
	for (let i = 0; i < state.n; i++) {
		if (!checkItem(state, i)) {
			bad++;
			if (first === -1) first = i;
		}
	}
	if (first === -1) return;
	const json = state.results[first]?.json ?? {};
	const errors = (json.errors as string[]) ?? [];
	throw new NodeOperationError(
		node,
		`Invalid product in item ${first + 1}${json.id ? ` (id "${String(json.id)}")` : ''}: ${errors[0]}`,
		{
			itemIndex: first,
			description: `${errors.join('\n')}\n\n${bad} of ${state.n} items are invalid; nothing was sent. Fix them, or set Options > When Products Are Rejected to Continue to send the valid products and get one result per item.`,
		},
	);
}

/**
 * The next batch of at most 25 valid products in input order, assembled as workers ask for it (in
 * Continue mode the check runs just ahead of sending). Retries of a batch (429, 5xx) happen in
 * `send` and re-send that batch only.
 */
function takeBatch(state: PushState, keepGoing: boolean): number[] | undefined {
	const batch: number[] = [];
	while (batch.length < BATCH_SIZE && state.cursor < state.n) {
		const i = state.cursor++;
		if (keepGoing ? checkItem(state, i) : state.products[i] !== undefined) batch.push(i);
	}
	return batch.length ? batch : undefined;
}

/** Every item of a batch whose request failed gets that error as its result. */
function recordBatchFailure(
	state: PushState,
	settings: PushSettings,
	batch: number[],
	error: unknown,
): void {
	const e = error as Error & { description?: string; httpCode?: string };
	for (const i of batch) {
		state.results[i] = failure(state.products[i]!.id, 'ERROR', [e.message], {
			description: e.description ?? null,
			httpCode: e.httpCode ?? null,
		});
	}
	if (!settings.keepGoing && !state.stopError) {
		state.stopError = new NodeOperationError(
			settings.node,
			`The batch with items ${batch[0] + 1}-${batch[batch.length - 1] + 1} failed: ${e.message}`,
			{
				itemIndex: batch[0],
				description:
					`${e.description ?? ''} ${state.pushed} products were pushed before the node stopped.`.trim(),
			},
		);
	}
}

/** One product's result as the service reported it (matched by id, else by position). */
function productResult(id: string, result: IDataObject | undefined): ItemResult {
	if (!result) return failure(id, 'ERROR', ['The service returned no result for this product']);
	const errors = Array.isArray(result.errors) ? result.errors : [];
	const warnings = Array.isArray(result.warnings) ? result.warnings : [];
	const failed = result.status === 'ERROR';
	return {
		failed,
		json: {
			id: result.id ?? id,
			product_key: result.product_key ?? null,
			status: result.status ?? null,
			errors,
			warnings,
			...(failed
				? {
						error: errors.length
							? errors.map(String).join('; ')
							: 'The service refused the product',
					}
				: {}),
		},
	};
}

function recordBatchAnswer(
	state: PushState,
	settings: PushSettings,
	batch: number[],
	body: IDataObject,
): void {
	const data = unwrapData<IDataObject>(body);
	const list = Array.isArray(data?.products_response)
		? (data.products_response as IDataObject[])
		: [];
	const byResultId = new Map<string, IDataObject>();
	for (const r of list)
		if (r && r.id !== undefined && r.id !== null) byResultId.set(String(r.id), r);
	batch.forEach((i, position) => {
		const id = String(state.products[i]!.id);
		const result = productResult(
			id,
			byResultId.get(id) ?? (list.length === batch.length ? list[position] : undefined),
		);
		state.results[i] = result;
		if (result.failed && !settings.keepGoing && !state.stopError) {
			state.stopError = new NodeOperationError(
				settings.node,
				`The service refused the product in item ${i + 1} (id "${id}"): ${String(result.json.error)}`,
				{
					itemIndex: i,
					description: `The batch's other products were processed; no new batch was started. Set Options > When Products Are Rejected to Continue to push the others and get one result per item.`,
				},
			);
		}
		if (!result.failed) state.pushed++;
	});
}

async function runBatch(state: PushState, settings: PushSettings, batch: number[]): Promise<void> {
	let body: IDataObject;
	try {
		body = await settings.send(
			batch.map((i) => state.products[i]!),
			batch[0],
		);
	} catch (error) {
		recordBatchFailure(state, settings, batch, error);
		return;
	}
	recordBatchAnswer(state, settings, batch, body);
	// The request bodies are not needed any more: let them go while the other batches run.
	for (const i of batch) state.products[i] = undefined;
}

/**
 * Checks and sends the products of `state` in batches, `settings.concurrency` at a time, and
 * returns one result per item in input order. Throws in Stop mode at the first invalid or refused
 * product (after the batches in flight are answered).
 */
export async function runPush(state: PushState, settings: PushSettings): Promise<IDataObject[]> {
	if (!settings.keepGoing) checkAll(state, settings.node);
	const pace = settings.pace;
	const worker = async () => {
		while (!state.stopError) {
			await pace.acquire();
			// Taken only once the pace allows sending it: a batch never waits assembled.
			const batch = state.stopError ? undefined : takeBatch(state, settings.keepGoing);
			try {
				if (!batch) return;
				await runBatch(state, settings, batch);
			} finally {
				pace.release();
			}
		}
	};
	await Promise.all(Array.from({ length: pace.workers }, worker));
	if (state.stopError) throw state.stopError;
	return state.results.map(
		(result) => result?.json ?? failure(undefined, 'ERROR', ['not processed']).json,
	);
}
