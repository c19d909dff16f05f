import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { AuthenticationRule, AuthenticationSpec } from './authentication';
import { authenticationNotices, requireDeclaredKind } from './authentication';
import { optionsCollection, readOptions } from './descriptions';
import type { Api, CredentialKind, PaginateOptions, PlatformRequest } from './transport';
import { asNodeError } from './errors';
import { paginate, platformRequest } from './transport';

/**
 * node → resource → operation. Each operation lives in its own file and declares its option, its
 * own fields (without the resource / operation displayOptions, which the router adds), the extra
 * entries of its Options collection, the credential kinds the service accepts for it
 * (`authentication`, see authentication.ts), and `execute(ctx, itemIndex)`. The router shows the
 * fields for their resource and operation, ends every operation with the one Options collection
 * (Max Rate Limit Wait plus the operation's own entries), refuses a credential kind the operation
 * does not accept, runs the operation per item, or once for all items (batched operations), and
 * pairs every output item with its input item.
 */

/** State shared by the items of one execution (e.g. the authenticated user's id, looked up once). */
export type ExecutionState = Map<string, unknown>;

/** A request of an operation: the API, item index and rate-limit wait come from the context. */
export type OperationRequest = Omit<PlatformRequest, 'itemIndex'>;

/**
 * n8n's execution functions for one item, plus requests that carry that item's index, the node's
 * API and the Max Rate Limit Wait of the item's Options collection.
 */
export interface OperationContext extends IExecuteFunctions {
	readonly itemIndex: number;
	readonly state: ExecutionState;
	/** The item's Options collection. */
	readonly options: IDataObject;
	request<T = IDataObject>(request: OperationRequest): Promise<T>;
	paginate(request: OperationRequest, options: PaginateOptions): Promise<IDataObject[]>;
}

/** The context of a batched operation: its parameters are read from the first item. */
export interface BatchContext extends IExecuteFunctions {
	readonly state: ExecutionState;
	/** The context of one item (its requests carry that item's index). */
	forItem(itemIndex: number): OperationContext;
}

interface OperationBase {
	option: INodePropertyOptions;
	/** The operation's own fields; the router shows them for its resource and operation. */
	properties: INodeProperties[];
	/** Entries of the Options collection besides Max Rate Limit Wait. */
	options?: INodeProperties[];
	/** A notice shown first, above the fields the resource shares (e.g. that a delete is permanent). */
	notice?: INodeProperties;
	/**
	 * The credential kinds the service accepts for every request the operation sends. The router
	 * refuses any other kind chosen in the Authentication field before the first request, and the
	 * editor shows a notice under the operation while one is chosen. Absent: every kind the node offers
	 * (the Ads API publishes no such rule).
	 */
	authentication?: readonly CredentialKind[];
	/** Narrower kinds while some fields have some values (e.g. Full Archive: the app-only bearer). */
	authenticationRules?: readonly AuthenticationRule[];
}

export interface ItemOperation extends OperationBase {
	execute(
		ctx: OperationContext,
		itemIndex: number,
	): Promise<IDataObject | IDataObject[] | INodeExecutionData[]>;
}

export interface BatchOperation extends OperationBase {
	/** Handles all items at once; must set pairedItem on every output item. */
	executeBatch(ctx: BatchContext, items: INodeExecutionData[]): Promise<INodeExecutionData[]>;
}

export type Operation = ItemOperation | BatchOperation;

export interface Resource {
	option: INodePropertyOptions;
	operations: Record<string, Operation>;
	defaultOperation: string;
	/** Fields every operation of the resource shows, right below the Operation field. */
	properties?: INodeProperties[];
	/** The credential kinds of an operation that declares none of its own (see OperationBase). */
	authentication?: readonly CredentialKind[];
}

/** The Max Rate Limit Wait of an item's Options (undefined: the transport default). */
function maxRateLimitWait(options: IDataObject): number | undefined {
	const value = options.maxRateLimitWait;
	return value === undefined || value === '' ? undefined : Number(value);
}

/**
 * The execution functions themselves are the prototype, so that everything n8n offers stays
 * available (and helpers written for IExecuteFunctions accept the context as it is).
 */
function operationContext(
	fn: IExecuteFunctions,
	api: Api,
	itemIndex: number,
	state: ExecutionState,
	optionsIndex = itemIndex,
): OperationContext {
	let options: IDataObject | undefined;
	// Read when first needed, as the operation would read it itself.
	const readItemOptions = () => (options ??= readOptions(fn, optionsIndex));
	const full = (request: OperationRequest): PlatformRequest => ({
		api,
		maxRateLimitWait: maxRateLimitWait(readItemOptions()),
		...request,
		itemIndex,
	});
	const ctx = Object.create(fn, {
		options: { get: readItemOptions, enumerable: true },
	}) as OperationContext;
	return Object.assign(ctx, {
		itemIndex,
		state,
		request: async <T>(request: OperationRequest) =>
			await platformRequest.call<typeof ctx, [PlatformRequest], Promise<T>>(ctx, full(request)),
		paginate: async (request: OperationRequest, paging: PaginateOptions) =>
			await paginate.call(ctx, full(request), paging),
	});
}

function batchContext(fn: IExecuteFunctions, api: Api, state: ExecutionState): BatchContext {
	const ctx = Object.create(fn) as BatchContext;
	return Object.assign(ctx, {
		state,
		forItem: (itemIndex: number) => operationContext(fn, api, itemIndex, state, 0),
	});
}

export function resourceProperty(
	resources: Record<string, Resource>,
	defaultResource: string,
): INodeProperties {
	return {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: Object.values(resources).map((r) => r.option),
		default: defaultResource,
	};
}

/** What the node creator lists for an operation ("Create a scheduled post"). */
function actionOf(resource: Resource, op: Operation): string {
	return op.option.action ?? `${op.option.name} ${resource.option.name.toLowerCase()}`;
}

/**
 * The node's subtitle on the canvas: the chosen operation's action without its articles ("Create
 * scheduled post", "Push products") instead of raw values ("create: scheduledPost"). Built from the
 * same actions the node creator lists, so the two never disagree.
 */
export function operationSubtitle(resources: Record<string, Resource>): string {
	const byKey: Record<string, string> = {};
	for (const [resourceName, resource] of Object.entries(resources)) {
		for (const [operationName, op] of Object.entries(resource.operations)) {
			byKey[`${resourceName}:${operationName}`] = actionOf(resource, op).replace(
				/ (a|an|the) /g,
				' ',
			);
		}
	}
	return `={{ (${JSON.stringify(byKey)})[$parameter["resource"] + ":" + $parameter["operation"]] }}`;
}

/** What an operation declares about credential kinds, or undefined when it accepts any. */
function authenticationOf(resource: Resource, op: Operation): AuthenticationSpec | undefined {
	const kinds = op.authentication ?? resource.authentication;
	if (!kinds && !op.authenticationRules) return undefined;
	return {
		kinds: kinds ?? ['appOnly', 'pkce', 'hmac', 'connect'],
		rules: op.authenticationRules,
		what: actionOf(resource, op),
	};
}

/** The defaults of the fields an operation shows (what n8n fills in for a field the user left alone). */
function fieldDefaults(resource: Resource, op: Operation): Record<string, unknown> {
	return Object.fromEntries(
		[...(resource.properties ?? []), ...op.properties].map((p) => [p.name, p.default]),
	);
}

/**
 * The Operation field of each resource, followed by every operation's own fields. `offered`: the
 * credential kinds the node's Authentication field offers (for the notices of operations that accept
 * fewer).
 */
export function operationProperties(
	resources: Record<string, Resource>,
	offered: readonly CredentialKind[] = [],
): INodeProperties[] {
	const out: INodeProperties[] = [];
	for (const [resourceName, resource] of Object.entries(resources)) {
		const operation: INodeProperties = {
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resourceName] } },
			options: Object.values(resource.operations).map((op) => ({
				...op.option,
				action: actionOf(resource, op),
			})),
			default: '',
		};
		operation.default = resource.defaultOperation;
		out.push(operation);
		for (const [operationName, op] of Object.entries(resource.operations)) {
			const show = { resource: [resourceName], operation: [operationName] };
			const authentication = authenticationOf(resource, op);
			if (authentication) out.push(...authenticationNotices(authentication, offered, show));
			if (op.notice) out.push(shownFor(op.notice, show));
		}
		out.push(...(resource.properties ?? []).map((p) => shownFor(p, { resource: [resourceName] })));
		for (const [operationName, op] of Object.entries(resource.operations)) {
			const show = { resource: [resourceName], operation: [operationName] };
			out.push(...op.properties.map((p) => shownFor(p, show)));
			out.push(shownFor(optionsCollection(op.options), show));
		}
	}
	return out;
}

/**
 * A field shown for its resource (and operation); conditions of its own (on other fields) are kept,
 * and so are a resource or operation list it names itself (a field shared by two operations).
 */
function shownFor(property: INodeProperties, show: Record<string, string[]>): INodeProperties {
	return {
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...show, ...(property.displayOptions?.show ?? {}) },
		},
	};
}

function toItems(
	result: IDataObject | IDataObject[] | INodeExecutionData[],
	itemIndex: number,
): INodeExecutionData[] {
	const list = Array.isArray(result) ? result : [result];
	return list.map((entry) => {
		const isExecutionData =
			entry &&
			typeof entry === 'object' &&
			'json' in entry &&
			typeof (entry as INodeExecutionData).json === 'object';
		if (isExecutionData)
			return { ...(entry as INodeExecutionData), pairedItem: { item: itemIndex } };
		return { json: entry as IDataObject, pairedItem: { item: itemIndex } };
	});
}

export async function routeExecution(
	this: IExecuteFunctions,
	resources: Record<string, Resource>,
	api: Api,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const state: ExecutionState = new Map();
	const resourceName = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = resources[resourceName]?.operations[operationName];
	if (!operation) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" of "${resourceName}" is not known`,
		);
	}
	const resource = resources[resourceName];
	const authentication = authenticationOf(resource, operation);
	const defaults = fieldDefaults(resource, operation);
	if ('executeBatch' in operation) {
		// A batch reads its parameters from the first item.
		if (authentication) requireDeclaredKind(this, 0, authentication, defaults);
		return [await operation.executeBatch(batchContext(this, api, state), items)];
	}
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			// Before any request: a kind the service refuses for this operation (or these field values).
			if (authentication) requireDeclaredKind(this, itemIndex, authentication, defaults);
			const ctx = operationContext(this, api, itemIndex, state);
			const result = await operation.execute(ctx, itemIndex);
			output.push(...toItems(result, itemIndex));
		} catch (error) {
			if (this.continueOnFail()) {
				output.push({
					json: {
						error: (error as Error).message,
						description: (error as { description?: string }).description,
					},
					pairedItem: { item: itemIndex },
				});
				continue;
			}
			throw asNodeError(this, error, itemIndex);
		}
	}
	return [output];
}

/** What every Delete returns: the id, `deleted: true`, and what the service answered. */
export function deletedResult(id: string, answer: IDataObject | undefined): IDataObject {
	return { id, deleted: true, ...(answer ?? {}) };
}
