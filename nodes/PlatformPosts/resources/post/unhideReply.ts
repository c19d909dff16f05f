import { replyVisibilityOperation } from './hideReply';

export const unhideReply = replyVisibilityOperation(false);
