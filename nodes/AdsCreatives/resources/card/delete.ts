import { KINDS, deleteOperation } from '../../common';

export const deleteCard = deleteOperation(KINDS.card);
