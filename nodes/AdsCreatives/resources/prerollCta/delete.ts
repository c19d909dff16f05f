import { KINDS, deleteOperation } from '../../common';

export const deletePrerollCta = deleteOperation(KINDS.prerollCta);
