import type { FunctionsBase } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * n8n 2.40's Engine 2.0 is a workflow setting (`settings.engineType: 'v2'`, read by n8n's
 * engine-v2-dispatcher.service.js) that routes the workflow's runs to another engine. None of the three
 * triggers can keep "each event runs once, none lost" there yet, each for a reason in n8n's own source:
 * - the Activity Stream Trigger learns whether a run started from emit's donePromise, which Engine 2.0
 *   refuses ("cannot run a trigger that waits for its execution to finish yet",
 *   workflows/triggers/engine-v2-active-triggers.js), and Engine 2.0 ignores the deduplication key;
 * - the Poll Trigger's position is saved before the run starts on n8n's classic poll path
 *   (trigger-execution-context.factory.js, `__emit`: `void saveStaticData`, then the run), so a run
 *   Engine 2.0 refuses (its module off: "Engine 2.0 is not available") loses the poll's items with one
 *   log line, and a node cannot tell whether n8n commits the position with the run instead;
 * - the Platform Trigger's deliveries are answered 400 when Engine 2.0 refuses the run
 *   (webhooks/webhook-helpers.js turns its UserError into a BadRequestError), and media the trigger
 *   downloads is refused by Engine 2.0's payload guard ("cannot receive files from a webhook yet").
 * So each trigger refuses to start in such a workflow, with what to change, rather than lose events
 * one log line at a time. The editor of n8n 2.40.7 has no control for the setting: it is set in the
 * workflow's JSON or through n8n's API, and the message says so.
 */
export function refuseEngineV2(ctx: Pick<FunctionsBase, 'getNode' | 'getWorkflowSettings'>): void {
	const settings =
		typeof ctx.getWorkflowSettings === 'function' ? ctx.getWorkflowSettings() : undefined;
	if ((settings as { engineType?: unknown } | undefined)?.engineType !== 'v2') return;
	const node = ctx.getNode();
	// The message alone is what n8n shows for a failed publication: it carries what to change.
	throw new NodeOperationError(
		node,
		`"${node.name}" cannot run in a workflow set to Engine 2.0: remove "engineType" from the workflow's settings, then publish again`,
		{
			description:
				'This workflow\'s settings choose n8n\'s Engine 2.0 ("engineType": "v2"), which cannot yet tell this trigger whether the run of an event started, so events could be lost. Remove "engineType" from the workflow\'s settings (download the workflow, delete the line from "settings", import it again, or change it through n8n\'s API), then publish the workflow again.',
		},
	);
}
