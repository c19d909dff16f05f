import type { Resource } from '../../../shared/router';
import { create } from './create';
import { deleteNote } from './delete';
import { evaluate } from './evaluate';
import { getEligiblePosts } from './getEligiblePosts';
import { getManyWritten } from './getManyWritten';

export const communityNote: Resource = {
	option: { name: 'Community Note', value: 'communityNote' },
	defaultOperation: 'getEligiblePosts',
	operations: { getEligiblePosts, getManyWritten, evaluate, create, delete: deleteNote },
};
