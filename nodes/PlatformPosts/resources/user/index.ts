import type { Resource } from '../../../shared/router';
import { get } from './get';
import { getAffiliates } from './getAffiliates';
import { getBookmarkFolders } from './getBookmarkFolders';
import { getBookmarksInFolder } from './getBookmarksInFolder';
import { getHomeTimeline } from './getHomeTimeline';
import { getMe } from './getMe';
import { getMany } from './getMany';
import { getRepostsOfMe } from './getRepostsOfMe';
import { search } from './search';
import { getTimeline } from './timeline';

export const user: Resource = {
	option: { name: 'User', value: 'user' },
	defaultOperation: 'getMe',
	operations: {
		get,
		getAffiliates,
		getBookmarkFolders,
		getBookmarksInFolder,
		getHomeTimeline,
		getMe,
		getMany,
		getRepostsOfMe,
		getTimeline,
		search,
	},
};
