import type { IDataObject } from 'n8n-workflow';
import { single } from '../../../shared/ads';
import { z } from 'zod';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath } from '../../account';
import {
	POST_LABELS,
	asUserIdProperty,
	needsTextOrMedia,
	postFields,
	postAdditionalFields,
	readPost,
	textProperty,
	toParams,
} from '../../shared/post';

/** Draft posts take no name: a Name set in a saved workflow is read no more (see postOptions). */
export const draftFields = z.object(postFields).omit({ name: true });
const schema = draftFields.strict().superRefine(needsTextOrMedia);

export const create: ItemOperation = {
	option: {
		name: 'Create',
		value: 'create',
		description: 'Create a draft post for the ad account',
		action: 'Create a draft post',
	},
	properties: [asUserIdProperty(), textProperty(), postAdditionalFields([], 'unsent')],
	async execute(ctx: OperationContext, itemIndex: number) {
		const fields = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const post = validateInput(
			ctx.getNode(),
			schema,
			readPost(ctx, itemIndex, fields, { asUserId: true, text: true, name: false }),
			itemIndex,
			POST_LABELS,
		);
		const path = accountPath(ctx, itemIndex, '/draft_tweets');
		return single(await ctx.request({ method: 'POST', path, qs: toParams(post) }));
	},
};
