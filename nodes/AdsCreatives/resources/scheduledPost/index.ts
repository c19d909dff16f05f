import type { Resource } from '../../../shared/router';
import { create } from './create';
import { deleteScheduledPost } from './delete';
import { getMany } from './getMany';

export const scheduledPost: Resource = {
	option: { name: 'Scheduled Post', value: 'scheduledPost' },
	defaultOperation: 'create',
	operations: { create, getMany, delete: deleteScheduledPost },
};
