import type { Resource } from '../../../shared/router';
import { count } from './count';
import { create } from './create';
import { createThread } from './createThread';
import { deletePost } from './delete';
import { edit } from './edit';
import { get } from './get';
import { getAnalytics } from './getAnalytics';
import { getInsights } from './getInsights';
import { getLikingUsers } from './getLikingUsers';
import { getOne } from './getOne';
import { getQuotePosts } from './getQuotePosts';
import { getRepostedBy } from './getRepostedBy';
import { getReposts } from './getReposts';
import { hideReply } from './hideReply';
import { readFilteredStream } from './readStream';
import { search } from './search';
import { unhideReply } from './unhideReply';

export const post: Resource = {
	option: { name: 'Post', value: 'post' },
	defaultOperation: 'create',
	operations: {
		count,
		create,
		createThread,
		delete: deletePost,
		edit,
		get,
		getAnalytics,
		getInsights,
		getLikingUsers,
		getOne,
		getQuotePosts,
		getRepostedBy,
		getReposts,
		hideReply,
		readFilteredStream,
		search,
		unhideReply,
	},
};
