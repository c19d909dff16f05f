import type { Resource } from '../../../shared/router';
import { get } from './get';
import { getMe } from './getMe';
import { getMany } from './getMany';
import { getTimeline } from './timeline';

export const user: Resource = {
	option: { name: 'User', value: 'user' },
	defaultOperation: 'getMe',
	operations: {
		get,
		getMe,
		getMany,
		getTimeline,
	},
};
