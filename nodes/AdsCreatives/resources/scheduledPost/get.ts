import { KINDS, getOperation } from '../../common';

export const get = getOperation(KINDS.scheduledPost);
