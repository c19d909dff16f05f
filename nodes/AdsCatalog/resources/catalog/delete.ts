import { CATALOG_OBJECTS, deleteOperation } from '../../objects';

export const deleteCatalog = deleteOperation(
	CATALOG_OBJECTS.catalog,
	{
		description:
			'Permanently delete a product catalog with its products, product sets and scheduled feeds',
		action: 'Delete a catalog',
	},
	'Deleting a catalog is permanent: its products, product sets and scheduled feeds are deleted with it and cannot be restored',
);
