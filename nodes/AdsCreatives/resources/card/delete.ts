import { KINDS } from '../../kinds';
import { deleteOperation } from '../../operations';

export const deleteCard = deleteOperation(KINDS.card);
