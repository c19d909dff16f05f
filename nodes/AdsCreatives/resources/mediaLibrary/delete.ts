import { KINDS, deleteOperation } from '../../common';

export const deleteMedia = deleteOperation(KINDS.mediaLibrary);
