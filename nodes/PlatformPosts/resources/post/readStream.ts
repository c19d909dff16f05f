import type { IDataObject } from 'n8n-workflow';

import { APP_ONLY } from '../../../shared/authentication';
import { readStream, streamReadInput, streamReadProperties } from '../../../shared/httpStream';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { CREDENTIAL_TYPES } from '../../../shared/transport';
import { normalizeStreamDelivery } from '../../../triggers/shared/events';
import { fieldProperties, fieldQuery } from '../../fields';

/**
 * The filtered stream read for a while: the posts matching the app's stream rules (Admin → Add Stream
 * Rules) as they are published. Each post comes as the Platform Trigger's stream mode emits it (a
 * `post.match` item with the post, its includes and the rules it matched), so that a workflow can move
 * between the two without remapping. A message of the service on the stream is an item as it came.
 */
export const readFilteredStream: ItemOperation = {
	option: {
		name: 'Read Filtered Stream',
		value: 'readFilteredStream',
		description:
			"Read the posts matching the app's stream rules as they are published, for a bounded time or number of posts",
		action: 'Read the filtered stream of posts',
	},
	properties: [
		...streamReadProperties(
			'Posts',
			'Also return the matches of up to this many minutes before the connection (0 to 5), e.g. to catch up after a gap',
		),
		// The stream's items always carry the post with its includes: no raw output to choose.
		...fieldProperties.filter((p) => p.name !== 'output'),
	],
	authentication: APP_ONLY,
	async execute(ctx: OperationContext, itemIndex: number) {
		const { backfillMinutes, limits } = streamReadInput(ctx, itemIndex, 'Posts');
		const qs: IDataObject = fieldQuery(ctx, itemIndex);
		if (backfillMinutes > 0) qs.backfill_minutes = backfillMinutes;
		const { events } = await readStream.call(
			ctx,
			{ path: '/2/tweets/search/stream', qs, credentialType: CREDENTIAL_TYPES.appOnly },
			limits,
		);
		return events.map((line) => normalizeStreamDelivery(line, new Date()) ?? line);
	},
};
