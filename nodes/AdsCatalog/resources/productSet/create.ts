import type { IDataObject } from 'n8n-workflow';
import { unwrapData } from '../../../shared/transport';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { catalogIdOf, catalogPath } from '../../common';
import { checkFilters, FILTER_ATTRIBUTES, FILTER_OPERATORS, productKeysFrom } from './common';

const label = (value: string) =>
	value
		.split('_')
		.map((w) =>
			w === 'partnera' ? 'Partner' : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase(),
		)
		.join(' ');

export const create: ItemOperation = {
	option: {
		name: 'Create',
		value: 'create',
		description:
			'Create a product set: MANUAL (chosen product keys) or FILTERED (products matching filters; the service builds it, see processing_status)',
		action: 'Create a product set',
	},
	properties: [
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Type',
			name: 'setType',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Manual', value: 'MANUAL', description: 'The products whose keys you list' },
				{
					name: 'Filtered',
					value: 'FILTERED',
					description: 'The products that match the filters (cannot be updated later)',
				},
			],
			default: 'MANUAL',
		},
		{
			displayName: 'Product Keys',
			name: 'productKeys',
			type: 'string',
			default: '',
			required: true,
			displayOptions: { show: { setType: ['MANUAL'] } },
			description:
				'Product keys (from Product > Push or Get Many), separated by commas or new lines',
		},
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Filter',
			default: {},
			displayOptions: { show: { setType: ['FILTERED'] } },
			options: [
				{
					displayName: 'Filter',
					name: 'filter',
					values: [
						{
							displayName: 'Attribute',
							name: 'attribute',
							type: 'options',
							options: FILTER_ATTRIBUTES.map((a) => ({ name: label(a), value: a })),
							default: 'price',
						},
						{
							displayName: 'Operator',
							name: 'operator',
							type: 'options',
							options: FILTER_OPERATORS.map((o) => ({ name: label(o), value: o })),
							default: 'LESS_THAN',
						},
						{
							displayName: 'Value',
							name: 'value',
							type: 'string',
							default: '',
							placeholder: '50.00 USD',
							description: 'For price and sale price: a number, a space and the currency code',
						},
					],
				},
			],
		},
		{
			displayName: 'Description',
			name: 'setDescription',
			type: 'string',
			default: '',
			description: 'Optional description of the set',
		},
	],
	options: [
		{
			displayName: 'Wait for Processing',
			name: 'waitForProcessing',
			type: 'boolean',
			default: false,
			description:
				'Whether to wait (up to 60 seconds) until a FILTERED set has left processing_status PROCESSING, and return it as DONE or FAILED',
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const catalogId = catalogIdOf(ctx, itemIndex);
		const name = String(ctx.getNodeParameter('name', itemIndex, '') ?? '').trim();
		if (!name)
			throw new NodeOperationError(
				ctx.getNode(),
				`Name in item ${itemIndex + 1} must not be empty`,
				{ itemIndex },
			);
		const type = ctx.getNodeParameter('setType', itemIndex, 'MANUAL') as string;
		const description = String(ctx.getNodeParameter('setDescription', itemIndex, '') ?? '').trim();
		const body: IDataObject = { name, type };
		if (description) body.description = description;
		if (type === 'MANUAL') {
			const keys = productKeysFrom(ctx.getNodeParameter('productKeys', itemIndex, ''));
			if (!keys.length) {
				throw new NodeOperationError(
					ctx.getNode(),
					`A MANUAL product set needs product keys (item ${itemIndex + 1})`,
					{
						itemIndex,
						description: 'Enter the product keys of the products the set holds.',
					},
				);
			}
			body.product_keys = keys;
		} else {
			const rows = ((ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject).filter ??
				[]) as IDataObject[];
			body.filters = checkFilters(ctx, rows, itemIndex);
		}
		const response = await ctx.request({
			method: 'POST',
			path: catalogPath(catalogId, '/product_sets'),
			body,
			unsafeFailureHint: 'The set may have been created: check the catalog before trying again.',
		});
		let set = unwrapData<IDataObject>(response);
		const options = ctx.options;
		if (options.waitForProcessing && set?.processing_status === 'PROCESSING' && set.id) {
			for (let attempt = 0; attempt < 30 && set.processing_status === 'PROCESSING'; attempt++) {
				await sleep(2000);
				set = unwrapData<IDataObject>(
					await ctx.request({
						method: 'GET',
						path: catalogPath(catalogId, `/product_sets/${encodeURIComponent(String(set.id))}`),
					}),
				);
			}
		}
		return set;
	},
};
