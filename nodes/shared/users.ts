import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PlatformRequest } from './transport';
import { unwrapData } from './transport';

/**
 * The two user-id lookups the user reads need: the authenticated user's id (GET /2/users/me) and the
 * id behind a username. Each node sends them through its own request wrapper (its rate-limit wait,
 * its credential) and keeps the answer where it keeps state: per execution, or in static data.
 */

export type SendRequest = (
	request: Omit<PlatformRequest, 'api' | 'itemIndex'>,
) => Promise<IDataObject>;

const ID = /^\d{1,19}$/;

export async function fetchAuthenticatedUserId(
	node: INode,
	send: SendRequest,
	itemIndex = 0,
): Promise<string> {
	const body = await send({ method: 'GET', path: '/2/users/me' });
	const id = String(unwrapData<IDataObject>(body)?.id ?? '');
	if (!ID.test(id)) {
		throw new NodeOperationError(node, "The service did not return the authenticated user's ID", {
			itemIndex,
			description: 'GET /2/users/me answered without an ID. Check the credential.',
		});
	}
	return id;
}

export async function fetchUserIdByUsername(
	node: INode,
	send: SendRequest,
	username: string,
	itemIndex = 0,
): Promise<string> {
	const body = await send({
		method: 'GET',
		path: `/2/users/by/username/${encodeURIComponent(username)}`,
	});
	const id = String(unwrapData<IDataObject>(body)?.id ?? '');
	if (!ID.test(id)) {
		const errors = (Array.isArray(body?.errors) ? body.errors : []) as IDataObject[];
		const detail = errors.length ? String(errors[0].detail ?? errors[0].title ?? '') : '';
		throw new NodeOperationError(node, `The user @${username} was not found`, {
			itemIndex,
			description: detail || 'Check the username (1-15 letters, digits or _).',
		});
	}
	return id;
}
