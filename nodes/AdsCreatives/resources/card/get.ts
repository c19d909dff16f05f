import { KINDS, getOperation } from '../../common';

export const get = getOperation(KINDS.card, { withDeleted: true });
