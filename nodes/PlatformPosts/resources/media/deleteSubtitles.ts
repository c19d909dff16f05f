import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { validateInput } from '../../../shared/validation';
import {
	SUBTITLE_TARGET_LABELS,
	languageCodeProperty,
	mediaIdProperty,
	subtitleTargetInput,
	subtitleTargetSchema,
	videoCategoryProperty,
} from './fields';

const OP = 'deleteSubtitles';

const schema = z.object(subtitleTargetSchema);

/** Media → Delete Subtitles: removes the subtitles of one language from a video. */
export const deleteSubtitlesOperation: ItemOperation = {
	option: {
		name: 'Delete Subtitles',
		value: OP,
		description:
			'Remove the subtitles of one language from an uploaded video. Needs a user-context credential (OAuth2 scope media.write).',
		action: 'Delete subtitles of a video',
	},
	properties: [
		mediaIdProperty('The ID of the video whose subtitles to remove'),
		videoCategoryProperty,
		{
			...languageCodeProperty,
			description: 'The language of the subtitles to remove (EN, ES, ...)',
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const input = validateInput(
			ctx.getNode(),
			schema,
			subtitleTargetInput(ctx, itemIndex),
			itemIndex,
			SUBTITLE_TARGET_LABELS,
		);
		const body = await ctx.request({
			method: 'DELETE',
			path: '/2/media/subtitles',
			body: {
				id: input.id,
				language_code: input.language_code,
				media_category: input.media_category,
			},
		});
		return {
			media_id: input.id,
			language_code: input.language_code,
			deleted: true,
			...(unwrapData<IDataObject>(body) ?? {}),
		};
	},
};
