import type { IDataObject } from 'n8n-workflow';

import { APP_ONLY } from '../../../shared/authentication';
import { readStream, streamReadInput, streamReadProperties } from '../../../shared/httpStream';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { CREDENTIAL_TYPES } from '../../../shared/transport';

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
	properties: streamReadProperties(
		'Events',
		'Also return the events of up to this many minutes before the connection (0 to 5), e.g. to catch up after a gap',
	),
	authentication: APP_ONLY,
	async execute(ctx: OperationContext, itemIndex: number) {
		const { backfillMinutes, limits } = streamReadInput(ctx, itemIndex, 'Events');
		const qs: IDataObject = {};
		if (backfillMinutes > 0) qs.backfill_minutes = backfillMinutes;
		const { events } = await readStream.call(
			ctx,
			{
				path: '/2/tweets/label/stream',
				qs,
				credentialType: CREDENTIAL_TYPES.appOnly,
			},
			limits,
		);
		return events.map(labelItem);
	},
};
