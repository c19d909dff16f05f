import type { Resource } from '../../../shared/router';
import { getMe } from './getMe';

export const user: Resource = {
	option: { name: 'User', value: 'user' },
	defaultOperation: 'getMe',
	operations: { getMe },
};
