import { KINDS, listOperation } from '../../common';
import { cardIdsAndPrefix } from '../../shared/filters';

export const getMany = listOperation(KINDS.videoConversationCard, {
	withDeleted: true,
	sortBy: true,
	filters: cardIdsAndPrefix.properties,
	readFilters: cardIdsAndPrefix.read,
});
