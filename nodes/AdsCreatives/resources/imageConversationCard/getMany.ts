import { KINDS } from '../../kinds';
import { listOperation } from '../../operations';
import { cardIdsAndPrefix } from '../../shared/filters';

export const getMany = listOperation(KINDS.imageConversationCard, {
	withDeleted: true,
	sortBy: true,
	withTotalCount: true,
	filters: cardIdsAndPrefix.properties,
	readFilters: cardIdsAndPrefix.read,
});
