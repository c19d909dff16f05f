import { KINDS, deleteOperation } from '../../common';

export const deleteAccountMedia = deleteOperation(KINDS.accountMedia);
