/**
 * What a delivery answers for events the node does not run: replay job statuses with Replay Status
 * Events set to drop, in activity and in stream mode. The answer counts the events run, and a dropped
 * status is not recorded as run. Found missing by mutation testing of receive.ts
 * (bench/results/mutation.md, "receive.ts").
 */
import type { IDataObject } from 'n8n-workflow';

import { receiveDelivery } from '../../nodes/triggers/webhook/receive';
import { DeliveryMemory } from '../../nodes/triggers/webhook/state';
import { answerOf, recordedIds, signedDelivery } from './helpers';

const at = new Date('2026-11-22T12:10:00Z');
const STATUS = {
	replay_job_status: {
		webhook_id: '111',
		job_state: 'Complete',
		job_state_description: 'Job completed successfully',
		job_id: '77',
	},
};
const STATUS_ID = 'replay:77:complete';

describe.each([
	['activity', { mode: 'activity', events: ['*'] }],
	['stream', { mode: 'stream', rules: { rule: [{ value: 'autumn sale', tag: 'sale' }] } }],
])('in %s mode, a replay status with Replay Status Events set to drop', (_mode, parameters) => {
	it('runs nothing, is answered with no event run, and is not recorded as run', async () => {
		const staticData: IDataObject = {};
		const built = signedDelivery(STATUS, {
			parameters: { ...parameters, options: { replayStatus: 'drop' } },
			staticData,
			workflowId: `wf-drop-${_mode}`,
			typeVersion: 3,
		});
		const result = await receiveDelivery(built.context, at, 0, new DeliveryMemory());
		expect(result.workflowData).toBeUndefined();
		expect(answerOf(result, built.captured)).toEqual({
			status: 200,
			body: { ok: true, events: 0 },
		});
		expect(recordedIds(staticData, [STATUS_ID])).toEqual([]);
	});
});
