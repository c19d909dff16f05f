import type { Resource } from '../../../shared/router';
import { accountLocator } from '../../account';
import { create } from './create';
import { deleteMedia } from './delete';
import { get } from './get';
import { getMany } from './getMany';
import { update } from './update';

export const mediaLibrary: Resource = {
	option: { name: 'Media Library', value: 'mediaLibrary' },
	defaultOperation: 'getMany',
	properties: [accountLocator('mediaLibrary')],
	operations: { create, get, getMany, update, delete: deleteMedia },
};
