import type { IExecuteFunctions } from 'n8n-workflow';

import type { ExecutionState } from '../../../shared/router';
import { chosenCredentialType } from '../../../shared/transport';
import { fetchAuthenticatedUserId, fetchUserIdByUsername } from '../../../shared/users';
import { postsRequest, requireUserContext } from '../../common';
import type { UserRef } from './get';

/**
 * User ids the breadth operations need: the authenticated user's id (looked up once per execution
 * and kept in the router's state map) and the id behind a username (also cached per execution).
 */

/** The authenticated user's id, from GET /2/users/me once per execution and credential. */
export async function authenticatedUserId(
	this: IExecuteFunctions,
	itemIndex: number,
	state: ExecutionState,
	what: string,
): Promise<string> {
	requireUserContext(this, itemIndex, what);
	const key = `me:${chosenCredentialType(this, itemIndex)}`;
	const cached = state.get(key);
	if (typeof cached === 'string') return cached;
	const id = await fetchAuthenticatedUserId(this.getNode(), async (request) => await postsRequest.call(this, itemIndex, request), itemIndex);
	state.set(key, id);
	return id;
}

/** The id of a user given by id or username (a username costs one lookup, cached per execution). */
export async function resolveUserId(
	this: IExecuteFunctions,
	itemIndex: number,
	state: ExecutionState,
	ref: UserRef,
): Promise<string> {
	if (ref.by === 'id') return ref.value;
	const key = `user:${ref.value.toLowerCase()}`;
	const cached = state.get(key);
	if (typeof cached === 'string') return cached;
	const id = await fetchUserIdByUsername(this.getNode(), async (request) => await postsRequest.call(this, itemIndex, request), ref.value, itemIndex);
	state.set(key, id);
	return id;
}
