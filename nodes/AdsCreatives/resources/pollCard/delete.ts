import { KINDS } from '../../kinds';
import { deleteOperation } from '../../operations';

export const deletePollCard = deleteOperation(KINDS.pollCard, { hard: true });
