import type { Resource } from '../../../shared/router';
import { bookmark } from './bookmark';
import { follow } from './follow';
import { like } from './like';
import { mute } from './mute';
import { removeBookmark } from './removeBookmark';
import { repost } from './repost';
import { undoRepost } from './undoRepost';
import { unfollow } from './unfollow';
import { unlike } from './unlike';
import { unmute } from './unmute';

export const engagement: Resource = {
	option: { name: 'Engagement', value: 'engagement' },
	defaultOperation: 'like',
	operations: {
		like,
		unlike,
		repost,
		undoRepost,
		follow,
		unfollow,
		bookmark,
		removeBookmark,
		mute,
		unmute,
	},
};
