/**
 * The Activity Stream Trigger's panel, as activityStream.ts builds it from the source: the same
 * parameters as the recorded surface (test/package/surface.json, which surface.test.ts holds against
 * the build; this holds the source, so that the mutation run's test set covers the panel), the
 * Platform Trigger's Activity fields shown without its "Trigger On" condition, and the options'
 * defaults that the trigger applies when a field is left empty.
 */
import type { INodeProperties } from 'n8n-workflow';

import {
	activityStreamProperties,
	DEFAULT_TIMINGS,
	REMOVAL_GRACE_MS,
} from '../../nodes/triggers/stream/activityStream';
import { triggerProperties } from '../../nodes/triggers/webhook/description';
import { PlatformPostTriggers } from '../../nodes/PlatformPostTriggers/PlatformPostTriggers.node';
import { describeParams, readSnapshot } from '../package/surface';

const NODE = 'n8n-nodes-platform.platformPostTriggers';
const ACTIVITY_FIELDS = ['userAuthentication', 'events', 'user', 'keyword', 'direction'];

describe("the Activity Stream Trigger's panel", () => {
	const description = new PlatformPostTriggers().description;

	it('has every parameter of the recorded surface, with its type, default and values', () => {
		const versions = readSnapshot().nodes[NODE].versions;
		for (const [version, recorded] of Object.entries(versions))
			expect(describeParams(description.properties, Number(version))).toEqual(recorded);
	});

	it("shows the Platform Trigger's Activity fields as they are there, without the Trigger On condition", () => {
		for (const name of ACTIVITY_FIELDS) {
			const original = triggerProperties.find(
				(p) => p.name === name && (p.displayOptions?.show?.mode ?? []).includes('activity'),
			)!;
			const shown = activityStreamProperties.find((p) => p.name === name)!;
			// This node has no mode: the field is shown whatever the others say (none of the five has
			// another condition), and is otherwise the same field.
			const { displayOptions, ...rest } = original;
			expect(Object.keys(displayOptions!.show!)).toEqual(['mode']);
			expect(shown).toEqual(rest);
		}
		expect(activityStreamProperties.map((p) => p.name)).toEqual([
			'notice',
			...ACTIVITY_FIELDS,
			'options',
		]);
	});

	it('labels every parameter and option, and bounds the two timings the editor accepts', () => {
		const all: INodeProperties[] = [
			...activityStreamProperties,
			...((activityStreamProperties.find((p) => p.name === 'options')?.options ??
				[]) as INodeProperties[]),
		];
		for (const p of all) expect(p.displayName.trim()).not.toBe('');
		const options = activityStreamProperties.find((p) => p.name === 'options')!;
		expect(options.placeholder).toBeTruthy();
		for (const field of options.options as INodeProperties[]) {
			expect(field.description).toBeTruthy();
			// Zero or a negative number of seconds would make the trigger fall back to its default
			// silently (0 * 1000 is falsy): the editor refuses it instead.
			expect(field.typeOptions?.minValue).toBe(1);
			expect(field.typeOptions?.maxValue).toBeGreaterThan(1);
		}
	});

	it("the options' defaults are the timings the trigger uses when they are left empty", () => {
		const options = activityStreamProperties.find((p) => p.name === 'options')!
			.options as INodeProperties[];
		const byName = Object.fromEntries(options.map((o) => [o.name, o.default]));
		expect(Number(byName.keepAliveTimeout) * 1000).toBe(DEFAULT_TIMINGS.keepAliveTimeoutMs);
		expect(Number(byName.maxBackoff) * 1000).toBe(DEFAULT_TIMINGS.maxBackoffMs);
		expect(DEFAULT_TIMINGS.removalGraceMs).toBe(REMOVAL_GRACE_MS);
		expect(DEFAULT_TIMINGS.backoffMs).toBeGreaterThan(0);
		expect(DEFAULT_TIMINGS.backoffMs).toBeLessThanOrEqual(DEFAULT_TIMINGS.maxBackoffMs);
		expect(DEFAULT_TIMINGS.rateLimitBackoffMs).toBeGreaterThan(0);
	});
});
