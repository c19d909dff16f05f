import { KINDS } from '../../kinds';
import { deleteOperation } from '../../operations';

export const deleteAccountMedia = deleteOperation(KINDS.accountMedia);
