import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

export const CALL_TO_ACTIONS = ['GO_TO', 'SEE_MORE', 'SHOP', 'VISIT_SITE', 'WATCH_NOW'] as const;

export const ctaFields = {
	call_to_action: z.enum(CALL_TO_ACTIONS, {
		errorMap: () => ({ message: `must be one of ${CALL_TO_ACTIONS.join(', ')}` }),
	}),
	call_to_action_url: z.string().url('must be a URL'),
	line_item_id: z
		.string()
		.regex(/^[A-Za-z0-9]{1,32}$/, 'a line item ID is a short alphanumeric string'),
};

export const LABELS: Record<string, string> = {
	call_to_action: 'Call to Action',
	call_to_action_url: 'Call-to-Action URL',
	line_item_id: 'Line Item ID',
	'': 'Update Fields',
};

export const callToActionProperty: INodeProperties = {
	displayName: 'Call to Action',
	name: 'call_to_action',
	type: 'options',
	default: 'VISIT_SITE',
	options: CALL_TO_ACTIONS.map((v) => ({
		name: v
			.split('_')
			.map((w) => w.charAt(0) + w.slice(1).toLowerCase())
			.join(' '),
		value: v,
	})),
};

export const urlProperty: INodeProperties = {
	displayName: 'Call-to-Action URL',
	name: 'call_to_action_url',
	type: 'string',
	default: '',
	placeholder: 'https://example.com',
};
