import type { Resource } from '../../../shared/router';
import { accountLocator } from '../../account';
import { deleteAccountMedia } from './delete';
import { get } from './get';
import { getMany } from './getMany';

export const accountMedia: Resource = {
	option: { name: 'Account Media', value: 'accountMedia' },
	defaultOperation: 'getMany',
	properties: [accountLocator('accountMedia')],
	operations: { get, getMany, delete: deleteAccountMedia },
};
