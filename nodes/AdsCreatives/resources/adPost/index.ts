import type { Resource } from '../../../shared/router';
import { accountLocator } from '../../account';
import { create } from './create';
import { rename } from './rename';

export const adPost: Resource = {
	option: { name: 'Post as Ad Account', value: 'adPost' },
	defaultOperation: 'create',
	properties: [accountLocator('adPost')],
	operations: { create, rename },
};
