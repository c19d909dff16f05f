import type { Resource } from '../../../shared/router';
import { accountLocator } from '../../account';
import { create } from './create';
import { deletePrerollCta } from './delete';
import { get } from './get';
import { getMany } from './getMany';
import { update } from './update';

export const prerollCta: Resource = {
	option: { name: 'Preroll Call-to-Action', value: 'prerollCta' },
	defaultOperation: 'create',
	properties: [accountLocator('prerollCta')],
	operations: { create, get, getMany, update, delete: deletePrerollCta },
};
