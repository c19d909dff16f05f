import { KINDS } from '../../kinds';
import { getOperation } from '../../operations';

export const get = getOperation(KINDS.imageConversationCard, { withDeleted: true });
