import { CATALOG_OBJECTS, deleteOperation } from '../../objects';

export const deleteProductSet = deleteOperation(
	CATALOG_OBJECTS.productSet,
	{
		description: 'Permanently delete a product set (its products stay in the catalog)',
		action: 'Delete a product set',
	},
	'Deleting a product set is permanent (the products stay in the catalog)',
);
