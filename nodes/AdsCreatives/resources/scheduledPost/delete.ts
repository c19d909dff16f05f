import { KINDS } from '../../kinds';
import { deleteOperation } from '../../operations';

export const deleteScheduledPost = deleteOperation(KINDS.scheduledPost, {
	hard: true,
	description: 'Delete a scheduled post that is still pending (it will not be published)',
	notice:
		'The scheduled post is removed for good and will not be published; only pending posts can be deleted',
});
