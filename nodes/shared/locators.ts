import type { INode, INodeParameterResourceLocator, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** Post id from an id or a post URL (https://<host>/<user>/status/<id>). */
export function postIdFrom(value: string): string | undefined {
	const trimmed = value.trim();
	if (/^\d{1,19}$/.test(trimmed)) return trimmed;
	const match = trimmed.match(/^https?:\/\/[^/\s]+\/(?:[^/\s]+|i\/web)\/status(?:es)?\/(\d{1,19})(?:[/?#].*)?$/i);
	return match?.[1];
}

export const POST_URL_REGEX = '^https?://[^/\\s]+/(?:[^/\\s]+|i/web)/status(?:es)?/(\\d{1,19})(?:[/?#].*)?$';

/** A resource locator for a post: by ID or by URL. */
export function postLocator(
	name: string,
	displayName: string,
	displayOptions: INodeProperties['displayOptions'],
	required = true,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode: 'id', value: '' },
		required,
		displayOptions,
		description: 'The post, by its ID or by its URL',
		modes: [
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: '1346889436626259968',
				validation: [{ type: 'regex', properties: { regex: '^\\d{1,19}$', errorMessage: 'A post ID is 1-19 digits' } }],
			},
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: 'https://x.com/user/status/1346889436626259968',
				extractValue: { type: 'regex', regex: POST_URL_REGEX },
				validation: [{ type: 'regex', properties: { regex: POST_URL_REGEX, errorMessage: 'Not a post URL' } }],
			},
		],
	};
}

/** Reads a resource locator value (n8n extracts URL modes already; ids and URLs are both accepted). */
export function locatorValue(
	node: INode,
	raw: unknown,
	field: string,
	itemIndex: number,
	parse: (value: string) => string | undefined = (v) => (v.trim() ? v.trim() : undefined),
): string {
	const value =
		raw && typeof raw === 'object' ? String((raw as INodeParameterResourceLocator).value ?? '') : String(raw ?? '');
	const parsed = parse(value);
	if (!parsed) {
		throw new NodeOperationError(node, `"${field}" in item ${itemIndex + 1} is not valid: "${value}"`, { itemIndex });
	}
	return parsed;
}
