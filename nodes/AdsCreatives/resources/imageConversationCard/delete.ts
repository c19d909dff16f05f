import { KINDS } from '../../kinds';
import { deleteOperation } from '../../operations';

export const deleteImageConversationCard = deleteOperation(KINDS.imageConversationCard);
