import { KINDS } from '../../kinds';
import { deleteOperation } from '../../operations';

export const deletePrerollCta = deleteOperation(KINDS.prerollCta);
