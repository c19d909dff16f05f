import { KINDS } from '../../kinds';
import { deleteOperation } from '../../operations';

export const deleteVideoConversationCard = deleteOperation(KINDS.videoConversationCard, {
	hard: true,
});
