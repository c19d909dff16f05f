import type { Resource } from '../../../shared/router';
import { catalogLocator } from '../../common';
import { create } from './create';
import { deleteFeed } from './delete';
import { getMany } from './getMany';
import { update } from './update';

export const scheduledFeed: Resource = {
	option: { name: 'Scheduled Feed', value: 'scheduledFeed' },
	defaultOperation: 'getMany',
	// Every operation of the resource acts within one catalog.
	properties: [catalogLocator()],
	operations: { create, delete: deleteFeed, getMany, update },
};
