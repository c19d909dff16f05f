import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { ACTIVITY_EVENT_TYPES, LEGACY_ACTIVITY_EVENT_TYPES } from '../shared/events';

/**
 * Version 2 of the trigger gives replay job statuses (replay.complete / replay.incomplete) an output
 * of their own. They are not activity: a workflow built for posts or DMs fed them into its first node
 * (an HTTP Request on `media_url`, a post's text) and failed. Version 1 keeps one output with statuses
 * among the events by default, so saved workflows behave as before.
 */
export const STATUS_OUTPUT_VERSION = 2;

/**
 * The node's outputs: one for version 1, "Events" and "Status" from version 2. An expression because
 * n8n computes a versioned node's outputs per node (`$nodeVersion`), as its Respond to Webhook node does.
 */
export const TRIGGER_OUTPUTS = `={{ $nodeVersion >= ${STATUS_OUTPUT_VERSION} ? [{ "type": "main", "displayName": "Events" }, { "type": "main", "displayName": "Status" }] : ["main"] }}`;

/** What happens to replay job statuses: `output` (the Status output, v2 only), `emit` (with the events), `drop`. */
export type ReplayStatusMode = 'output' | 'emit' | 'drop';

export function defaultReplayStatus(version: number): ReplayStatusMode {
	return version >= STATUS_OUTPUT_VERSION ? 'output' : 'emit';
}

export const isStatusEvent = (event: { event_type?: unknown }): boolean =>
	String(event.event_type ?? '').startsWith('replay.');

/**
 * The trigger's workflow data for the events of one delivery, or undefined when nothing is to run.
 * Version 1: one output. Version 2: [events, statuses]; with `emit` statuses stay among the events.
 */
export function workflowDataFor(
	version: number,
	mode: string,
	events: IDataObject[],
): INodeExecutionData[][] | undefined {
	const kept = mode === 'drop' ? events.filter((e) => !isStatusEvent(e)) : events;
	if (!kept.length) return undefined;
	const items = (list: IDataObject[]) => list.map((json) => ({ json }));
	if (version < STATUS_OUTPUT_VERSION) return [items(kept)];
	if (mode !== 'output') return [items(kept), []];
	return [
		items(kept.filter((e) => !isStatusEvent(e))),
		items(kept.filter((e) => isStatusEvent(e))),
	];
}

/**
 * From version 3, "All Events" subscribes to every event type the Events field offers (the
 * service's contract event types added to the package: profile picture, banner, location, website
 * and handle changes, follows, news, chat); versions 1 and 2 keep the twelve they subscribed to.
 */
export const ALL_EVENTS_VERSION = 3;

/**
 * The event types "All Events" stands for: from version 3 every type the Events field offers;
 * versions 1 and 2 keep the twelve they subscribed to, so a saved workflow makes the same
 * subscriptions as before.
 */
export function allEventTypes(version: number): readonly string[] {
	return version >= ALL_EVENTS_VERSION ? ACTIVITY_EVENT_TYPES : LEGACY_ACTIVITY_EVENT_TYPES;
}
