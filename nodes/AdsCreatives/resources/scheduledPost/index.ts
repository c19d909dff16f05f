import type { Resource } from '../../../shared/router';
import { accountLocator } from '../../account';
import { create } from './create';
import { deleteScheduledPost } from './delete';
import { get } from './get';
import { getMany } from './getMany';
import { update } from './update';

export const scheduledPost: Resource = {
	option: { name: 'Scheduled Post', value: 'scheduledPost' },
	defaultOperation: 'create',
	properties: [accountLocator('scheduledPost')],
	operations: { create, get, getMany, update, delete: deleteScheduledPost },
};
