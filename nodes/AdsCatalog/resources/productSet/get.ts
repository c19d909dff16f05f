import { CATALOG_OBJECTS, getOperation } from '../../objects';

export const get = getOperation(CATALOG_OBJECTS.productSet, {
	description: 'Get a product set with its products, filters and processing status',
	action: 'Get a product set',
});
