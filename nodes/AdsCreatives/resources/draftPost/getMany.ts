import { KINDS, listOperation } from '../../common';
import { userFilter } from '../../shared/filters';

export const getMany = listOperation(KINDS.draftPost, {
	filters: [userFilter.property],
	readFilters: userFilter.read,
});
