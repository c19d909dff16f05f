import { CATALOG_OBJECTS, deleteOperation } from '../../objects';

export const deleteFeed = deleteOperation(CATALOG_OBJECTS.scheduledFeed, {
	description: 'Permanently delete a scheduled feed (the products it brought stay in the catalog)',
	action: 'Delete a scheduled feed',
});
