import { KINDS } from '../../kinds';
import { deleteOperation } from '../../operations';

export const deleteMedia = deleteOperation(KINDS.mediaLibrary);
