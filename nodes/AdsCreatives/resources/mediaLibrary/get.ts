import { KINDS } from '../../kinds';
import { getOperation } from '../../operations';

export const get = getOperation(KINDS.mediaLibrary);
