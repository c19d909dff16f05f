import type { IDataObject, IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { postIdFrom, postLocator, locatorValue } from '../../../shared/locators';
import type { ExecutionState, ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { asNodeError, unwrapData } from '../../../shared/transport';
import { optionsCollection, postsRequest, requireUserContext } from '../../common';
import { userLocator, userRefParameter } from '../user/get';
import { authenticatedUserId, resolveUserId } from '../user/ids';

/**
 * Likes, reposts, follows and bookmarks act as the authenticated user: `/2/users/:id/...` where
 * `:id` must be that user. Its id is looked up once per execution (router state), not per item.
 */

export interface EngagementSpec {
	name: string;
	value: string;
	action: string;
	description: string;
	target: 'post' | 'user';
	method: IHttpRequestMethods;
	path: (me: string, target: string) => string;
	body?: (target: string) => IDataObject;
	/** Present when the action was removed from the self-serve tiers: its gerund, e.g. "Liking posts". */
	tierRestricted?: string;
}

/** The plain-words explanation of a 403 on an action removed from the self-serve tiers. */
export function tierRefusal(what: string, serviceMessage: string): { message: string; description: string } {
	return {
		message: `${what} is not available to this app's access tier`,
		description:
			`The service refused the request (403). ${what} through the API was removed from all self-serve tiers (Free, Basic, Pro and pay-per-use) on 2026-04-20; only Enterprise access still allows it. ` +
			'If your app has Enterprise access, check instead that the app has Read and Write permissions and that the credential was authorised with the needed scopes. ' +
			`The service said: ${serviceMessage}`,
	};
}

export function engagementOperation(spec: EngagementSpec): ItemOperation {
	const show = showFor('engagement', spec.value);
	const targetProperty =
		spec.target === 'post'
			? postLocator('postId', 'Post', show)
			: { ...userLocator('targetUser', show), description: 'The user, by username, ID or profile URL' };
	return {
		option: { name: spec.name, value: spec.value, action: spec.action, description: spec.description },
		properties: [targetProperty, optionsCollection('engagement', spec.value)],
		async execute(this: IExecuteFunctions, itemIndex: number, state: ExecutionState) {
			requireUserContext(this, itemIndex, spec.name);
			const target =
				spec.target === 'post'
					? locatorValue(this.getNode(), this.getNodeParameter('postId', itemIndex), 'Post', itemIndex, postIdFrom)
					: await resolveUserId.call(this, itemIndex, state, userRefParameter(this, 'targetUser', itemIndex));
			const me = await authenticatedUserId.call(this, itemIndex, state, spec.name);
			let body: IDataObject;
			try {
				body = await postsRequest.call(this, itemIndex, {
					method: spec.method,
					path: spec.path(me, target),
					body: spec.body?.(target),
				});
			} catch (error) {
				const httpCode = (error as NodeApiError).httpCode;
				if (spec.tierRestricted && httpCode === '403') {
					const explained = tierRefusal(spec.tierRestricted, String((error as Error).message ?? ''));
					throw new NodeApiError(
						this.getNode(),
						{ message: String((error as Error).message ?? ''), httpCode: '403' },
						{ ...explained, httpCode: '403', itemIndex },
					);
				}
				throw asNodeError(this, error, itemIndex);
			}
			const data = unwrapData<IDataObject>(body) ?? {};
			return {
				...(typeof data === 'object' ? data : { result: data }),
				[spec.target === 'post' ? 'post_id' : 'target_user_id']: target,
				user_id: me,
			};
		},
	};
}
