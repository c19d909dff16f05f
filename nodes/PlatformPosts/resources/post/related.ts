import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { CredentialKind } from '../../../shared/transport';
import { postIdParameter, postLocator } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { fieldProperties, fieldQuery } from '../../fields';
import type { PageBounds } from '../../reads';
import { pagingProperties, readPages, userListProperties, userListQuery } from '../../reads';

/**
 * The paged reads around one post: GET /2/tweets/:id/<suffix>, returning users (who liked or
 * reposted it) or posts (its reposts and quotes).
 */
export interface RelatedSpec {
	name: string;
	value: string;
	action: string;
	description: string;
	suffix: string;
	kind: 'posts' | 'users';
	page: PageBounds;
	authentication: readonly CredentialKind[];
	/** Entries of the Options collection and the query they add. */
	options?: INodeProperties[];
	optionsQuery?: (options: IDataObject) => IDataObject;
}

export function relatedOperation(spec: RelatedSpec): ItemOperation {
	return {
		option: {
			name: spec.name,
			value: spec.value,
			action: spec.action,
			description: spec.description,
		},
		properties: [
			postLocator('postId', 'Post'),
			...pagingProperties(100000),
			...(spec.kind === 'users' ? userListProperties : fieldProperties),
		],
		options: spec.options,
		authentication: spec.authentication,
		async execute(ctx: OperationContext, itemIndex: number) {
			const id = postIdParameter(ctx, 'postId', itemIndex);
			const qs: IDataObject = {
				...(spec.kind === 'users' ? userListQuery(ctx, itemIndex) : fieldQuery(ctx, itemIndex)),
				...(spec.optionsQuery?.(ctx.options) ?? {}),
			};
			return await readPages(
				ctx,
				itemIndex,
				{ method: 'GET', path: `/2/tweets/${id}/${spec.suffix}`, qs },
				spec.page,
				spec.kind,
			);
		},
	};
}
