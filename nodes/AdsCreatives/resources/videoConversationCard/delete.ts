import { KINDS, deleteOperation } from '../../common';

export const deleteVideoConversationCard = deleteOperation(KINDS.videoConversationCard, { hard: true });
