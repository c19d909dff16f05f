import type { Resource } from '../../../shared/router';
import { create } from './create';
import { deleteFeed } from './delete';
import { getMany } from './getMany';
import { update } from './update';

export const scheduledFeed: Resource = {
	option: { name: 'Scheduled Feed', value: 'scheduledFeed' },
	defaultOperation: 'getMany',
	operations: { create, delete: deleteFeed, getMany, update },
};
