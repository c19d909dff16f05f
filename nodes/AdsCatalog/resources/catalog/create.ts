import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { asNodeError } from '../../../shared/transport';
import { validateInput } from '../../../shared/validation';
import { adsData, adsRequest, API_VERSION, optionsCollection } from '../../common';

const schema = z.object({
	name: z.string().trim().min(1, 'must not be empty').max(255, 'is too long'),
	user_id: z
		.string()
		.trim()
		.regex(/^\d{1,19}$/, 'must be a numeric user ID')
		.optional(),
});

/** Whether a refusal of the create says that the user already has a catalog. */
function looksLikeOnePerUser(error: NodeApiError): boolean {
	const text = `${error.message} ${error.description ?? ''} ${JSON.stringify(error.context ?? {})}`;
	return /only one|one (product )?catalog|already (has|exists)|DUPLICATE/i.test(text);
}

export const create: ItemOperation = {
	option: {
		name: 'Create',
		value: 'create',
		description: 'Create the product catalog of a user. The service allows one catalog per user.',
		action: 'Create a catalog',
	},
	properties: [
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
			displayOptions: showFor('catalog', 'create'),
			description: 'Name of the new catalog',
		},
		{
			displayName: 'User ID',
			name: 'userId',
			type: 'string',
			default: '',
			placeholder: '1000000001',
			displayOptions: showFor('catalog', 'create'),
			description: 'The user who owns the catalog. Leave empty for the authenticated user.',
		},
		optionsCollection('catalog', 'create'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const input = validateInput(
			this.getNode(),
			schema,
			{
				name: this.getNodeParameter('name', itemIndex, ''),
				user_id: String(this.getNodeParameter('userId', itemIndex, '') ?? '').trim() || undefined,
			},
			itemIndex,
			{ name: 'Name', user_id: 'User ID' },
		);
		const qs: IDataObject = { name: input.name };
		if (input.user_id) qs.user_id = input.user_id;
		try {
			const body = await adsRequest.call(this, itemIndex, {
				method: 'POST',
				path: `${API_VERSION}/product_catalogs`,
				qs,
				unsafeFailureHint: 'The catalog may have been created: list the catalogs (Catalog > Get Many) before trying again.',
			});
			return adsData<IDataObject>(body);
		} catch (error) {
			if (error instanceof NodeApiError && ['400', '403', '409'].includes(String(error.httpCode)) && looksLikeOnePerUser(error)) {
				throw new NodeOperationError(this.getNode(), 'This user already has a product catalog: the service allows only one per user', {
					itemIndex,
					description:
						'Use the existing catalog (Catalog > Get Many shows it), or delete it first (Catalog > Delete, which also deletes its products, product sets and feeds).',
				});
			}
			throw asNodeError(this, error, itemIndex);
		}
	},
};
