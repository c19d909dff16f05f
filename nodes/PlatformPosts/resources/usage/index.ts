import type { Resource } from '../../../shared/router';
import { get } from './get';

export const usage: Resource = {
	option: { name: 'Usage', value: 'usage' },
	defaultOperation: 'get',
	operations: {
		get,
	},
};
