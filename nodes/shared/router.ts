import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from './transport';

/**
 * node → resource → operation. Each operation lives in its own file and exports its fields
 * (`properties`, with displayOptions for its resource and operation) beside the code that reads
 * them. The router runs it per item, or once for all items (batched operations), and pairs every
 * output item with its input item.
 */

/** State shared by the items of one execution (e.g. the authenticated user's id, looked up once). */
export type ExecutionState = Map<string, unknown>;

export interface ItemOperation {
	option: INodePropertyOptions;
	properties: INodeProperties[];
	execute(
		this: IExecuteFunctions,
		itemIndex: number,
		state: ExecutionState,
	): Promise<IDataObject | IDataObject[] | INodeExecutionData[]>;
}

export interface BatchOperation {
	option: INodePropertyOptions;
	properties: INodeProperties[];
	/** Handles all items at once; must set pairedItem on every output item. */
	executeBatch(this: IExecuteFunctions, items: INodeExecutionData[], state: ExecutionState): Promise<INodeExecutionData[]>;
}

export type Operation = ItemOperation | BatchOperation;

export interface Resource {
	option: INodePropertyOptions;
	operations: Record<string, Operation>;
	defaultOperation: string;
	/** Fields every operation of the resource shows, right below the Operation field. */
	properties?: INodeProperties[];
}

export function resourceProperty(resources: Record<string, Resource>, defaultResource: string): INodeProperties {
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
			byKey[`${resourceName}:${operationName}`] = actionOf(resource, op).replace(/ (a|an|the) /g, ' ');
		}
	}
	return `={{ (${JSON.stringify(byKey)})[$parameter["resource"] + ":" + $parameter["operation"]] }}`;
}

/** The Operation field of each resource, followed by every operation's own fields. */
export function operationProperties(resources: Record<string, Resource>): INodeProperties[] {
	const out: INodeProperties[] = [];
	for (const [resourceName, resource] of Object.entries(resources)) {
		const operation: INodeProperties = {
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resourceName] } },
			options: Object.values(resource.operations).map((op) => ({ ...op.option, action: actionOf(resource, op) })),
			default: '',
		};
		operation.default = resource.defaultOperation;
		out.push(operation);
		out.push(...(resource.properties ?? []));
		for (const operation of Object.values(resource.operations)) out.push(...operation.properties);
	}
	return out;
}

function toItems(result: IDataObject | IDataObject[] | INodeExecutionData[], itemIndex: number): INodeExecutionData[] {
	const list = Array.isArray(result) ? result : [result];
	return list.map((entry) => {
		const isExecutionData =
			entry && typeof entry === 'object' && 'json' in entry && typeof (entry as INodeExecutionData).json === 'object';
		if (isExecutionData) return { ...(entry as INodeExecutionData), pairedItem: { item: itemIndex } };
		return { json: entry as IDataObject, pairedItem: { item: itemIndex } };
	});
}

export async function routeExecution(
	this: IExecuteFunctions,
	resources: Record<string, Resource>,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const state: ExecutionState = new Map();
	const resourceName = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = resources[resourceName]?.operations[operationName];
	if (!operation) {
		throw new NodeOperationError(this.getNode(), `The operation "${operationName}" of "${resourceName}" is not known`);
	}
	if ('executeBatch' in operation) {
		return [await operation.executeBatch.call(this, items, state)];
	}
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const result = await operation.execute.call(this, itemIndex, state);
			output.push(...toItems(result, itemIndex));
		} catch (error) {
			if (this.continueOnFail()) {
				output.push({
					json: { error: (error as Error).message, description: (error as { description?: string }).description },
					pairedItem: { item: itemIndex },
				});
				continue;
			}
			throw asNodeError(this, error, itemIndex);
		}
	}
	return [output];
}

/** Shorthand for an operation's displayOptions. */
export function showFor(resource: string, operation: string | string[], extra: IDataObject = {}) {
	return {
		show: {
			resource: [resource],
			operation: Array.isArray(operation) ? operation : [operation],
			...extra,
		},
	} as INodeProperties['displayOptions'];
}
