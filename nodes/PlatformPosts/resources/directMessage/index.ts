import type { Resource } from '../../../shared/router';
import { getManyEvents } from './getManyEvents';
import { send } from './send';

export const directMessage: Resource = {
	option: { name: 'Direct Message', value: 'directMessage' },
	defaultOperation: 'send',
	operations: { send, getManyEvents },
};
