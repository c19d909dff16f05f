import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { splitList } from '../../../shared/lists';
import { NodeOperationError } from 'n8n-workflow';

import { priceProblem } from '../../productSchema';

export const FILTER_ATTRIBUTES = [
	'price',
	'sale_price',
	'inventory',
	'product_type',
	'partnera_product_category',
	'custom_label_0',
	'custom_label_1',
	'custom_label_2',
	'custom_label_3',
	'custom_label_4',
] as const;

export const FILTER_OPERATORS = [
	'GREATER_THAN',
	'EQUAL_TO',
	'LESS_THAN',
	'MATCH',
	'NOT_CONTAINS',
	'CONTAINS',
] as const;

/** Product keys from a comma / new-line separated text or an array (from an expression), once each. */
export function productKeysFrom(value: unknown): string[] {
	return [...new Set(splitList(value))];
}

/** Checks the filter builder's rows: known attribute and operator, a value, price values in price format. */
export function checkFilters(
	ctx: IExecuteFunctions,
	rows: IDataObject[],
	itemIndex: number,
): IDataObject[] {
	if (!rows.length) {
		throw new NodeOperationError(
			ctx.getNode(),
			`A FILTERED product set needs at least one filter (item ${itemIndex + 1})`,
			{
				itemIndex,
				description: 'Add a filter: attribute, operator and value.',
			},
		);
	}
	return rows.map((row, n) => {
		const where = `Filter ${n + 1} in item ${itemIndex + 1}`;
		const attribute = String(row.attribute ?? '');
		const operator = String(row.operator ?? '');
		const value = String(row.value ?? '').trim();
		if (!(FILTER_ATTRIBUTES as readonly string[]).includes(attribute)) {
			throw new NodeOperationError(ctx.getNode(), `${where}: unknown attribute "${attribute}"`, {
				itemIndex,
				description: `Use one of ${FILTER_ATTRIBUTES.join(', ')}.`,
			});
		}
		if (!(FILTER_OPERATORS as readonly string[]).includes(operator)) {
			throw new NodeOperationError(ctx.getNode(), `${where}: unknown operator "${operator}"`, {
				itemIndex,
				description: `Use one of ${FILTER_OPERATORS.join(', ')}.`,
			});
		}
		if (!value)
			throw new NodeOperationError(ctx.getNode(), `${where}: the value is empty`, { itemIndex });
		if (attribute === 'price' || attribute === 'sale_price') {
			const problem = priceProblem(value);
			if (problem)
				throw new NodeOperationError(ctx.getNode(), `${where} (${attribute}): ${problem}`, {
					itemIndex,
				});
		}
		if (attribute === 'inventory' && !/^\d+$/.test(value)) {
			throw new NodeOperationError(
				ctx.getNode(),
				`${where} (inventory): "${value}" is not a whole number`,
				{ itemIndex },
			);
		}
		return { attribute, operator, value };
	});
}
