import { KINDS } from '../../kinds';
import { listOperation } from '../../operations';
import { userFilter } from '../../shared/filters';

export const getMany = listOperation(KINDS.scheduledPost, {
	filters: [userFilter.property],
	readFilters: userFilter.read,
});
