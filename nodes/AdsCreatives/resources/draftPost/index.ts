import type { Resource } from '../../../shared/router';
import { accountLocator } from '../../account';
import { create } from './create';
import { deleteDraftPost } from './delete';
import { get } from './get';
import { getMany } from './getMany';
import { update } from './update';

export const draftPost: Resource = {
	option: { name: 'Draft Post', value: 'draftPost' },
	defaultOperation: 'create',
	properties: [accountLocator('draftPost')],
	operations: { create, get, getMany, update, delete: deleteDraftPost },
};
