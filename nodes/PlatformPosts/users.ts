import type { OperationContext } from '../shared/router';
import { chosenCredentialType } from '../shared/transport';
import { fetchAuthenticatedUserId, fetchUserIdByUsername } from '../shared/users';
import type { UserRef } from '../shared/locators';

/**
 * User ids the engagement, timeline and message operations need: the authenticated user's id
 * (looked up once per execution and kept in the router's state map) and the id behind a username
 * (also cached per execution).
 */

/** The authenticated user's id, from GET /2/users/me once per execution and credential. */
export async function authenticatedUserId(
	this: OperationContext,
	itemIndex: number,
): Promise<string> {
	const state = this.state;
	const key = `me:${chosenCredentialType(this, itemIndex)}`;
	const cached = state.get(key);
	if (typeof cached === 'string') return cached;
	const id = await fetchAuthenticatedUserId(this.getNode(), this.request, itemIndex);
	state.set(key, id);
	return id;
}

/** The id of a user given by id or username (a username costs one lookup, cached per execution). */
export async function resolveUserId(
	this: OperationContext,
	itemIndex: number,
	ref: UserRef,
): Promise<string> {
	const state = this.state;
	if (ref.by === 'id') return ref.value;
	const key = `user:${ref.value.toLowerCase()}`;
	const cached = state.get(key);
	if (typeof cached === 'string') return cached;
	const id = await fetchUserIdByUsername(this.getNode(), this.request, ref.value, itemIndex);
	state.set(key, id);
	return id;
}
