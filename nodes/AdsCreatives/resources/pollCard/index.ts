import type { Resource } from '../../../shared/router';
import { accountLocator } from '../../account';
import { create } from './create';
import { deletePollCard } from './delete';
import { get } from './get';
import { getMany } from './getMany';

export const pollCard: Resource = {
	option: { name: 'Poll Card', value: 'pollCard' },
	defaultOperation: 'create',
	properties: [accountLocator('pollCard')],
	operations: { create, get, getMany, delete: deletePollCard },
};
