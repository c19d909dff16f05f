import { KINDS } from '../../kinds';
import { deleteOperation } from '../../operations';

// A draft post has no deleted flag: the service removes it.
export const deleteDraftPost = deleteOperation(KINDS.draftPost, {
	hard: true,
	notice: 'The draft post is removed for good: it cannot be retrieved or published afterwards',
});
