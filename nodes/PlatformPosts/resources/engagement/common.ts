import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import {
	postLocator,
	userLocator,
	userRefParameter,
	postIdParameter,
} from '../../../shared/locators';
import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import type { CredentialKind } from '../../../shared/transport';
import { asNodeError, errorInfo, withErrorInfo } from '../../../shared/errors';
import { unwrapData } from '../../../shared/transport';
import { authenticatedUserId, resolveUserId } from '../../users';

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
	/** The credential kinds the service takes for the action (default: a user's OAuth 2.0 or OAuth 1.0a token). */
	authentication?: readonly CredentialKind[];
}

/** The plain-words explanation of a 403 on an action removed from the self-serve tiers. */
export function tierRefusal(
	what: string,
	serviceMessage: string,
): { message: string; description: string } {
	return {
		message: `${what} is not available to this app's access tier`,
		description:
			`The service refused the request (403). ${what} through the API was removed from all self-serve tiers (Free, Basic, Pro and pay-per-use) on 2026-04-20; only Enterprise access still allows it. ` +
			'If your app has Enterprise access, check instead that the app has Read and Write permissions and that the credential was authorised with the needed scopes. ' +
			`The service said: ${serviceMessage}`,
	};
}

export function engagementOperation(spec: EngagementSpec): ItemOperation {
	const targetProperty =
		spec.target === 'post'
			? postLocator('postId', 'Post')
			: {
					...userLocator('targetUser'),
					description: 'The user, by username, ID or profile URL',
				};
	return {
		option: {
			name: spec.name,
			value: spec.value,
			action: spec.action,
			description: spec.description,
		},
		properties: [targetProperty],
		// Every action acts as the authenticated user (also GET /2/users/me, which takes no app token).
		authentication: spec.authentication ?? USER_CONTEXT,
		async execute(ctx: OperationContext, itemIndex: number) {
			const target =
				spec.target === 'post'
					? postIdParameter(ctx, 'postId', itemIndex)
					: await resolveUserId.call(
							ctx,
							itemIndex,
							userRefParameter(ctx, 'targetUser', itemIndex),
						);
			const me = await authenticatedUserId.call(ctx, itemIndex);
			let body: IDataObject;
			try {
				body = await ctx.request({
					method: spec.method,
					path: spec.path(me, target),
					body: spec.body?.(target),
				});
			} catch (error) {
				const info = errorInfo(error);
				if (spec.tierRestricted && info.httpStatus === 403) {
					const explained = tierRefusal(
						spec.tierRestricted,
						String((error as Error).message ?? ''),
					);
					throw withErrorInfo(
						new NodeApiError(
							ctx.getNode(),
							{ message: String((error as Error).message ?? ''), httpCode: '403' },
							{ ...explained, httpCode: '403', itemIndex },
						),
						info,
					);
				}
				throw asNodeError(ctx, error, itemIndex);
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
