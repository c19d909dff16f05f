import { KINDS, listOperation } from '../../common';
import { cardIdsAndPrefix } from '../../shared/filters';

export const getMany = listOperation(KINDS.pollCard, {
	withDeleted: true,
	sortBy: true,
	filters: cardIdsAndPrefix.properties,
	readFilters: cardIdsAndPrefix.read,
});
