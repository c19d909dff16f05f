import type { IDataObject } from 'n8n-workflow';
import { ADS_API_VERSION } from '../../../shared/ads';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { asNodeError, errorInfo } from '../../../shared/errors';
import { unwrapData } from '../../../shared/transport';
import { validateInput } from '../../../shared/validation';

const schema = z.object({
	name: z.string().trim().min(1, 'must not be empty').max(255, 'is too long'),
	user_id: z
		.string()
		.trim()
		.regex(/^\d{1,19}$/, 'must be a numeric user ID')
		.optional(),
});

/**
 * Whether a refusal of the create says that the user already has a catalog: the service answers
 * DUPLICATE, or INVALID_PARAMETER naming user_id (the owner, which already has its one catalog; its
 * format is checked before the request).
 */
export function isCatalogTaken(error: unknown): boolean {
	const { code, parameter } = errorInfo(error);
	return code === 'DUPLICATE' || (code === 'INVALID_PARAMETER' && parameter === 'user_id');
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
			description: 'Name of the new catalog',
		},
		{
			displayName: 'User ID',
			name: 'userId',
			type: 'string',
			default: '',
			placeholder: '1000000001',
			description: 'The user who owns the catalog. Leave empty for the authenticated user.',
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const input = validateInput(
			ctx.getNode(),
			schema,
			{
				name: ctx.getNodeParameter('name', itemIndex, ''),
				user_id: String(ctx.getNodeParameter('userId', itemIndex, '') ?? '').trim() || undefined,
			},
			itemIndex,
			{ name: 'Name', user_id: 'User ID' },
		);
		const qs: IDataObject = { name: input.name };
		if (input.user_id) qs.user_id = input.user_id;
		try {
			const body = await ctx.request({
				method: 'POST',
				path: `${ADS_API_VERSION}/product_catalogs`,
				qs,
				unsafeFailureHint:
					'The catalog may have been created: list the catalogs (Catalog > Get Many) before trying again.',
			});
			return unwrapData<IDataObject>(body);
		} catch (error) {
			if (isCatalogTaken(error)) {
				throw new NodeOperationError(
					ctx.getNode(),
					'This user already has a product catalog: the service allows only one per user',
					{
						itemIndex,
						description:
							'Use the existing catalog (Catalog > Get Many shows it), or delete it first (Catalog > Delete, which also deletes its products, product sets and feeds).',
					},
				);
			}
			throw asNodeError(ctx, error, itemIndex);
		}
	},
};
