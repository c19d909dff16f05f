import type { Resource } from '../../../shared/router';
import { setAltTextOperation } from './setAltText';

export const media: Resource = {
	option: { name: 'Media', value: 'media' },
	defaultOperation: 'setAltText',
	operations: { setAltText: setAltTextOperation },
};
