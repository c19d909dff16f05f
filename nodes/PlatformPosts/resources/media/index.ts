import type { Resource } from '../../../shared/router';
import { getStatusOperation } from './getStatus';
import { setAltTextOperation } from './setAltText';
import { uploadOperation } from './upload';

export const media: Resource = {
	option: { name: 'Media', value: 'media' },
	defaultOperation: 'upload',
	operations: {
		upload: uploadOperation,
		getStatus: getStatusOperation,
		setAltText: setAltTextOperation,
	},
};
