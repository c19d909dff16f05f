import type { Resource } from '../../../shared/router';
import { addMember } from './addMember';
import { create } from './create';
import { deleteList } from './delete';
import { follow } from './follow';
import { get } from './get';
import { getFollowers } from './getFollowers';
import { getMembers } from './getMembers';
import { getPosts } from './getPosts';
import { pin } from './pin';
import { removeMember } from './removeMember';
import { unfollow } from './unfollow';
import { unpin } from './unpin';
import { update } from './update';

export const list: Resource = {
	option: { name: 'List', value: 'list' },
	defaultOperation: 'get',
	operations: {
		create,
		get,
		update,
		delete: deleteList,
		getMembers,
		addMember,
		removeMember,
		getFollowers,
		getPosts,
		follow,
		unfollow,
		pin,
		unpin,
	},
};
