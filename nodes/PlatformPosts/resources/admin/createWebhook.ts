import { NodeOperationError } from 'n8n-workflow';

import { registerWebhook } from '../../../shared/activity';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { BEARER_NOTE } from './common';

const OP = 'createWebhook';

export const createWebhook: ItemOperation = {
	option: {
		name: 'Create Webhook',
		value: OP,
		description: `Register a webhook URL with the app (the service checks it with a CRC request first, so whatever answers at the URL must already be running). A Platform Trigger whose production URL is exactly this URL adopts the webhook when its workflow is published. ${BEARER_NOTE}.`,
		action: 'Create a webhook',
	},
	properties: [
		{
			displayName: 'URL',
			name: 'url',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://n8n.example.com/webhook/1f0c.../webhook',
			description:
				'Public HTTPS URL without a port, at most 200 characters (for a Platform Trigger: its production webhook URL)',
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const url = String(ctx.getNodeParameter('url', itemIndex, '') ?? '').trim();
		const invalid = (message: string) =>
			new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: URL: ${message}`,
				{ itemIndex },
			);
		let parsed: URL;
		try {
			parsed = new URL(url);
		} catch {
			throw invalid(`"${url}" is not a URL`);
		}
		if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
			throw invalid('must be an https URL');
		if (url.length > 200) throw invalid(`at most 200 characters (got ${url.length})`);
		// Not retried (a POST): a repeated registration fails with DuplicateUrlFailed, which List Webhooks resolves.
		return await registerWebhook(ctx.request, url, {
			unsafeFailureHint:
				'The webhook may have been registered: check with Admin (App-Only) > List Webhooks before running the node again.',
		});
	},
};
