import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ExecutionState } from '../../../shared/router';
import { chosenCredentialType, unwrapData } from '../../../shared/transport';
import { postsRequest, requireUserContext } from '../../common';
import type { UserRef } from './get';

/**
 * User ids the breadth operations need: the authenticated user's id (looked up once per execution
 * and kept in the router's state map) and the id behind a username (also cached per execution).
 */

const ID = /^\d{1,19}$/;

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
	const body = await postsRequest.call(this, itemIndex, { method: 'GET', path: '/2/users/me' });
	const id = String(unwrapData<IDataObject>(body)?.id ?? '');
	if (!ID.test(id)) {
		throw new NodeOperationError(this.getNode(), "The service did not return the authenticated user's ID", {
			itemIndex,
			description: 'GET /2/users/me answered without an ID. Check the credential.',
		});
	}
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
	const body = await postsRequest.call(this, itemIndex, {
		method: 'GET',
		path: `/2/users/by/username/${encodeURIComponent(ref.value)}`,
	});
	const id = String(unwrapData<IDataObject>(body)?.id ?? '');
	if (!ID.test(id)) {
		const errors = (Array.isArray(body?.errors) ? body.errors : []) as IDataObject[];
		const detail = errors.length ? String(errors[0].detail ?? errors[0].title ?? '') : '';
		throw new NodeOperationError(this.getNode(), `The user @${ref.value} was not found`, {
			itemIndex,
			description: detail || 'Check the username (1-15 letters, digits or _).',
		});
	}
	state.set(key, id);
	return id;
}
