import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { ZodError, ZodType, ZodTypeDef } from 'zod';

/**
 * Validates user input with zod before any request. The error names the field (by its label in
 * the UI where one is given) and the item.
 */
export function formatZodIssues(error: ZodError, labels: Record<string, string> = {}): string[] {
	return error.issues.map((issue) => {
		const path = issue.path.map(String);
		const key = path.join('.');
		const label =
			labels[key] ?? labels[path.filter((p) => !/^\d+$/.test(p)).join('.')] ?? (key || 'input');
		const position = path.filter((p) => /^\d+$/.test(p)).map((p) => `#${Number(p) + 1}`);
		return `${label}${position.length ? ` ${position.join(' ')}` : ''}: ${issue.message}`;
	});
}

export function validateInput<Output, Input = Output>(
	node: INode,
	schema: ZodType<Output, ZodTypeDef, Input>,
	value: unknown,
	itemIndex: number,
	labels: Record<string, string> = {},
): Output {
	const result = schema.safeParse(value);
	if (result.success) return result.data;
	const problems = formatZodIssues(result.error, labels);
	throw new NodeOperationError(node, `Invalid input in item ${itemIndex + 1}: ${problems[0]}`, {
		itemIndex,
		description: problems.length > 1 ? problems.join('\n') : undefined,
	});
}
