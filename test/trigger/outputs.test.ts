import type { IDataObject, INode, INodeParameters, INodeTypes } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { receiveDelivery } from '../../nodes/triggers/webhook/receive';
import { PlatformTriggerPosts } from '../../nodes/PlatformTriggerPosts/PlatformTriggerPosts.node';
import { signedDelivery } from './helpers';

const STATUS = {
	replay_job_status: {
		webhook_id: '1',
		job_state: 'Complete',
		job_state_description: 'Job completed successfully',
		job_id: '77',
	},
};
const INCOMPLETE = {
	replay_job_status: {
		webhook_id: '1',
		job_state: 'Incomplete',
		job_state_description: '2 events could not be delivered',
		job_id: '78',
	},
};
const POST = {
	data: {
		event_uuid: '555',
		event_type: 'post.create',
		filter: { user_id: '1' },
		payload: { id: '9', text: 'hello', author_id: '1' },
	},
};

async function deliver(body: IDataObject, typeVersion: number, parameters: IDataObject = {}) {
	const { context } = signedDelivery(body, {
		typeVersion,
		parameters: { events: ['post.create'], options: {}, ...parameters },
	});
	return (await receiveDelivery(context)).workflowData;
}

const types = (items: Array<{ json: IDataObject }> | undefined) =>
	(items ?? []).map((i) => i.json.event_type);

/** n8n's own view of a node of this type: its outputs and its parameters with defaults applied. */
function inN8n(typeVersion: number, parameters: INodeParameters = {}) {
	const type = new PlatformTriggerPosts();
	const nodeTypes: INodeTypes = {
		getByName: () => type,
		getByNameAndVersion: () => type,
		getKnownTypes: () => ({}),
	};
	const node: INode = {
		id: 'n1',
		name: 'Platform Trigger',
		type: 'n8n-nodes-platform.platformTriggerPosts',
		typeVersion,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const outputs = NodeHelpers.getNodeOutputs(workflow, node, type.description);
	const resolved = NodeHelpers.getNodeParameters(
		type.description.properties,
		parameters,
		true,
		false,
		node,
		type.description,
	);
	return { outputs, resolved };
}

describe('Platform Trigger outputs by version', () => {
	it('is versioned: 1, 2 and 3, new nodes get 3', () => {
		const { description } = new PlatformTriggerPosts();
		expect(description.version).toEqual([1, 2, 3]);
		expect(description.defaultVersion).toBe(3);
	});

	it('n8n computes one output for version 1 and Events + Status for version 2', () => {
		expect(inN8n(1).outputs).toEqual(['main']);
		expect(inN8n(2).outputs).toEqual([
			{ type: 'main', displayName: 'Events' },
			{ type: 'main', displayName: 'Status' },
		]);
	});

	it('version 1 emits replay statuses among the events on its only output, as before', async () => {
		const data = await deliver(STATUS, 1);
		expect(data).toHaveLength(1);
		expect(types(data?.[0])).toEqual(['replay.complete']);
		expect(types((await deliver(INCOMPLETE, 1))?.[0])).toEqual(['replay.incomplete']);
		expect(types((await deliver(POST, 1))?.[0])).toEqual(['post.create']);
		expect(await deliver(STATUS, 1, { options: { replayStatus: 'drop' } })).toBeUndefined();
	});

	it('version 2 sends activity to Events and replay statuses to Status by default', async () => {
		const post = await deliver(POST, 2);
		expect(post).toHaveLength(2);
		expect(types(post?.[0])).toEqual(['post.create']);
		expect(post?.[1]).toEqual([]);
		const status = await deliver(STATUS, 2);
		expect(status?.[0]).toEqual([]);
		expect(types(status?.[1])).toEqual(['replay.complete']);
		expect(types((await deliver(INCOMPLETE, 2))?.[1])).toEqual(['replay.incomplete']);
	});

	it('version 2 can put statuses among the events, or drop them', async () => {
		const mixed = await deliver(STATUS, 2, { options: { replayStatus: 'emit' } });
		expect(types(mixed?.[0])).toEqual(['replay.complete']);
		expect(mixed?.[1]).toEqual([]);
		expect(await deliver(STATUS, 2, { options: { replayStatus: 'drop' } })).toBeUndefined();
		// Dropping statuses leaves the activity alone.
		const post = await deliver(POST, 2, { options: { replayStatus: 'drop' } });
		expect(types(post?.[0])).toEqual(['post.create']);
	});

	it('in stream mode, version 2 sends replay statuses to Status too', async () => {
		const data = await deliver(STATUS, 2, {
			mode: 'stream',
			rules: { rule: [{ value: 'autumn', tag: 'a' }] },
		});
		expect(data?.[0]).toEqual([]);
		expect(types(data?.[1])).toEqual(['replay.complete']);
	});

	it("each version's editor shows its own Replay Status Events choices", () => {
		const { description } = new PlatformTriggerPosts();
		const collections = description.properties.filter((p) => p.name === 'options');
		expect(collections).toHaveLength(2);
		const choices = collections.map((c) =>
			(
				(c.options as Array<{ name: string; options?: Array<{ value: string }>; default?: string }>)
					.find((o) => o.name === 'replayStatus')
					?.options?.map((o) => o.value) ?? []
			).join(','),
		);
		expect(choices).toEqual(['emit,drop', 'output,emit,drop']);
		// n8n keeps the collection of the node's own version (one `options` value either way).
		expect(inN8n(1, { options: { replayStatus: 'drop' } }).resolved?.options).toEqual({
			replayStatus: 'drop',
		});
		expect(inN8n(2, { options: { replayStatus: 'output' } }).resolved?.options).toEqual({
			replayStatus: 'output',
		});
	});
});
