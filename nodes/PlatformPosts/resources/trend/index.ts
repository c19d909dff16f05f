import type { Resource } from '../../../shared/router';
import { getByPlace } from './getByPlace';
import { getPersonalized } from './getPersonalized';

export const trend: Resource = {
	option: { name: 'Trend', value: 'trend' },
	defaultOperation: 'getByPlace',
	operations: {
		getByPlace,
		getPersonalized,
	},
};
