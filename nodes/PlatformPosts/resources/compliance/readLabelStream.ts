import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { APP_ONLY } from '../../../shared/authentication';
import { readStream } from '../../../shared/httpStream';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { CREDENTIAL_TYPES } from '../../../shared/transport';
import { validateInput } from '../../../shared/validation';

const schema = z.object({
	backfillMinutes: z
		.number()
		.int('must be a whole number')
		.min(0, 'at least 0')
		.max(5, 'at most 5'),
	maxEvents: z
		.number()
		.int('must be a whole number')
		.min(1, 'at least 1')
		.max(10000, 'at most 10,000'),
	maxSeconds: z.number().int('must be a whole number').min(1, 'at least 1').max(600, 'at most 600'),
});

/**
 * One item per event: the label's own fields beside `label_kind`, the key the service wraps it in
 * (public_tweet_notice: a notice shown on the post; public_tweet_unviewable: the post can no longer be
 * viewed). A message of the service on the stream (an `errors` line) is an item with `errors`.
 */
function labelItem(event: IDataObject): IDataObject {
	const data = event.data as IDataObject | undefined;
	if (!data || typeof data !== 'object') return event;
	const [kind] = Object.keys(data);
	const label = kind ? (data[kind] as IDataObject | undefined) : undefined;
	if (!label || typeof label !== 'object') return event;
	return { label_kind: kind, ...label };
}

export const readLabelStream: ItemOperation = {
	option: {
		name: 'Read Label Stream',
		value: 'readLabelStream',
		description:
			'Read the labels applied to or removed from posts, as they happen, for a bounded time or number of events',
		action: 'Read the post label stream',
	},
	properties: [
		{
			displayName: 'Backfill Minutes',
			name: 'backfillMinutes',
			type: 'number',
			default: 0,
			typeOptions: { minValue: 0, maxValue: 5 },
			description:
				'Also return the events of up to this many minutes before the connection (0 to 5), e.g. to catch up after a gap',
		},
		{
			displayName: 'Max Events',
			name: 'maxEvents',
			type: 'number',
			default: 100,
			typeOptions: { minValue: 1, maxValue: 10000 },
			description: 'Stop reading after this many events',
		},
		{
			displayName: 'Max Duration (Seconds)',
			name: 'maxSeconds',
			type: 'number',
			default: 10,
			typeOptions: { minValue: 1, maxValue: 600 },
			description:
				'Stop reading after this many seconds, however many events came (the node waits this long when fewer events come)',
		},
	],
	authentication: APP_ONLY,
	async execute(ctx: OperationContext, itemIndex: number) {
		const input = validateInput(
			ctx.getNode(),
			schema,
			{
				backfillMinutes: Number(ctx.getNodeParameter('backfillMinutes', itemIndex, 0)),
				maxEvents: Number(ctx.getNodeParameter('maxEvents', itemIndex, 100)),
				maxSeconds: Number(ctx.getNodeParameter('maxSeconds', itemIndex, 10)),
			},
			itemIndex,
			{
				backfillMinutes: 'Backfill Minutes',
				maxEvents: 'Max Events',
				maxSeconds: 'Max Duration (Seconds)',
			},
		);
		const qs: IDataObject = {};
		if (input.backfillMinutes > 0) qs.backfill_minutes = input.backfillMinutes;
		const { events } = await readStream.call(
			ctx,
			{
				path: '/2/tweets/label/stream',
				qs,
				credentialType: CREDENTIAL_TYPES.appOnly,
			},
			{ maxEvents: input.maxEvents, maxSeconds: input.maxSeconds },
		);
		return events.map(labelItem);
	},
};
