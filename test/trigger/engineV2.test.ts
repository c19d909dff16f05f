/**
 * A workflow set to n8n's Engine 2.0 (settings.engineType 'v2') cannot keep "each event runs once, none
 * lost" for any of the three triggers (nodes/shared/engine.ts says why, from n8n's source): each refuses
 * to start there, before any request, with what to change; any other setting starts as before.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { PlatformTriggerPosts } from '../../nodes/PlatformTriggerPosts/PlatformTriggerPosts.node';
import { PlatformPostTriggers } from '../../nodes/PlatformPostTriggers/PlatformPostTriggers.node';
import { PlatformPostsTrigger } from '../../nodes/PlatformPostsTrigger/PlatformPostsTrigger.node';
import { createContext } from '../helpers/context';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

type Start = (context: never) => Promise<unknown>;

const TRIGGERS: Array<[string, IDataObject, Start]> = [
	[
		'Platform Trigger (publishing: checkExists)',
		{ events: ['post.create'], user: '12', keyword: '', direction: '', options: {} },
		async (context) =>
			await new PlatformTriggerPosts().webhookMethods.default.checkExists.call(context),
	],
	[
		'Activity Stream Trigger (trigger)',
		{ events: ['post.create'], user: '12', options: {} },
		async (context) => await new PlatformPostTriggers().trigger.call(context),
	],
	[
		'Platform Poll Trigger (every poll, activation included)',
		{ event: 'userPosts', user: '12', maxItems: 100, options: {}, query: '' },
		async (context) => await new PlatformPostsTrigger().poll.call(context),
	],
];

function contextFor(parameters: IDataObject, settings: IDataObject | undefined) {
	return createContext({
		parameters,
		extra: {
			getNodeWebhookUrl: () => 'https://n8n.example.com/webhook/abc/webhook',
			getMode: () => 'trigger',
			getActivationMode: () => 'activate',
			emit: () => undefined,
			emitError: () => undefined,
			...(settings === undefined ? {} : { getWorkflowSettings: () => settings }),
		},
	});
}

describe('a workflow set to Engine 2.0', () => {
	it.each(TRIGGERS)('%s refuses before any request, naming the setting', async (_n, p, start) => {
		const { context, requests } = contextFor(p, { engineType: 'v2' });
		const error = await start(context).then(
			() => undefined,
			(e: unknown) => e,
		);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toMatch(/cannot run in a workflow set to Engine 2\.0/);
		expect((error as Error).message).toMatch(/remove "engineType" from the workflow's settings/);
		expect((error as NodeOperationError).description).toMatch(/download the workflow/);
		expect(requests).toHaveLength(0);
	});

	it.each(TRIGGERS)(
		'%s starts as before with the classic engine or no setting',
		async (_n, p, start) => {
			for (const settings of [{ engineType: 'v1' }, {}, undefined]) {
				const { context, requests } = contextFor(p, settings);
				// No service answers here (nock refuses the connection): what matters is that the trigger
				// went on to its first request instead of refusing.
				const error = await start(context).then(
					// The Activity Stream Trigger keeps reconnecting until it is closed, as n8n closes it.
					async (response) =>
						await (response as { closeFunction?: () => Promise<void> } | undefined)
							?.closeFunction?.()
							.then(() => undefined),
					(e: unknown) => e,
				);
				expect((error as Error | undefined)?.message ?? '').not.toMatch(/Engine 2\.0/);
				expect(requests.length).toBeGreaterThan(0);
			}
		},
	);
});
