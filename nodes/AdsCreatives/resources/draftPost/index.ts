import type { Resource } from '../../../shared/router';
import { accountLocator } from '../../account';
import { create } from './create';
import { get } from './get';
import { getMany } from './getMany';

export const draftPost: Resource = {
	option: { name: 'Draft Post', value: 'draftPost' },
	defaultOperation: 'create',
	properties: [accountLocator('draftPost')],
	operations: { create, get, getMany },
};
