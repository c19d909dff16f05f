import type { Resource } from '../../../shared/router';
import { addSubtitlesOperation } from './addSubtitles';
import { deleteSubtitlesOperation } from './deleteSubtitles';
import { getOperation } from './get';
import { getAnalyticsOperation } from './getAnalytics';
import { getManyOperation } from './getMany';
import { getStatusOperation } from './getStatus';
import { setAltTextOperation } from './setAltText';
import { uploadOperation } from './upload';
import { uploadSingleOperation } from './uploadSingle';

export const media: Resource = {
	option: { name: 'Media', value: 'media' },
	defaultOperation: 'upload',
	operations: {
		upload: uploadOperation,
		uploadSingle: uploadSingleOperation,
		getStatus: getStatusOperation,
		setAltText: setAltTextOperation,
		get: getOperation,
		getMany: getManyOperation,
		getAnalytics: getAnalyticsOperation,
		addSubtitles: addSubtitlesOperation,
		deleteSubtitles: deleteSubtitlesOperation,
	},
};
