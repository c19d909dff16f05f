/**
 * A list typed into one field, or given as an array by an expression (ids, keys, usernames, binary
 * property names): split at commas, semicolons and whitespace, empty entries dropped. None of the
 * values these fields take can contain a separator.
 */
export function splitList(value: unknown): string[] {
	const parts = Array.isArray(value) ? value : [value];
	return parts
		.flatMap((part) => String(part ?? '').split(/[\s,;]+/))
		.map((s) => s.trim())
		.filter(Boolean);
}
