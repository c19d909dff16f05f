import { KINDS, deleteOperation } from '../../common';

export const deletePollCard = deleteOperation(KINDS.pollCard, { hard: true });
