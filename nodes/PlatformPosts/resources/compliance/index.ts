import type { Resource } from '../../../shared/router';
import { createJob } from './createJob';
import { getJob } from './getJob';
import { getManyJobs } from './getManyJobs';
import { readLabelStream } from './readLabelStream';

export const compliance: Resource = {
	option: { name: 'Compliance', value: 'compliance' },
	defaultOperation: 'getManyJobs',
	operations: {
		createJob,
		getManyJobs,
		getJob,
		readLabelStream,
	},
};
