import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** What the PlatformPosts operations share: input readers. */

/** ISO 8601 from an n8n dateTime value; undefined when empty. */
export function isoTime(
	ctx: IExecuteFunctions,
	value: unknown,
	label: string,
	itemIndex: number,
): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const date = new Date(String(value));
	if (Number.isNaN(date.getTime())) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Invalid input in item ${itemIndex + 1}: ${label}: not a date and time`,
			{
				itemIndex,
			},
		);
	}
	return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
