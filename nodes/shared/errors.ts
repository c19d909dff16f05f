import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/**
 * Translates every error shape the service sends (conventions.md) into a NodeApiError whose
 * message says what happened and whose description says what to do. Only the response body is
 * ever passed on: request options (and so credentials) never reach an error.
 */

interface Explained {
	message: string;
	description?: string;
}

const PROBLEM_PREFIX = '/2/problems/';

export function problemSuffix(type: unknown): string | undefined {
	if (typeof type !== 'string') return undefined;
	if (type === 'about:blank') return 'about:blank';
	const at = type.indexOf(PROBLEM_PREFIX);
	if (at === -1) return undefined;
	return type.slice(at + PROBLEM_PREFIX.length).replace(/\/+$/, '');
}

function str(value: unknown): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value;
	return JSON.stringify(value);
}

const WEBHOOK_REASONS: Record<string, Explained> = {
	UrlValidationFailed: {
		message: 'The service refused the webhook URL',
		description:
			"Webhook URLs must be public HTTPS URLs without a port. Set n8n's WEBHOOK_URL to a public https:// address (a reverse proxy or a tunnel in front of n8n), then activate again.",
	},
	CrcValidationFailed: {
		message: 'The service could not validate the webhook (CRC check failed)',
		description:
			"The service's CRC request did not get a correct answer. Check that the credential's consumer secret belongs to the app that registers the webhook and that n8n is reachable at its public URL.",
	},
	DuplicateUrlFailed: {
		message: 'A webhook with this URL is already registered for the app',
		description:
			'The node adopts a webhook with its exact URL; if this persists, delete the stale webhook (Platform Posts > Admin > Webhook > Delete) and activate again.',
	},
	WebhookLimitExceeded: {
		message: 'The app has reached its webhook limit',
		description:
			'Small tiers allow one webhook per app. Delete a webhook you no longer use (Platform Posts > Admin > Webhook > Delete), then activate again.',
	},
	WebhookIdInvalid: {
		message: 'The webhook id is not known to the service',
		description: 'The webhook was deleted outside n8n. Deactivate and activate the workflow to register a new one.',
	},
};

function fromWebhookReason(text: string): Explained | undefined {
	for (const [reason, explained] of Object.entries(WEBHOOK_REASONS)) {
		if (text.includes(reason)) return explained;
	}
	return undefined;
}

function explainProblem(problem: IDataObject, status: number): Explained {
	const suffix = problemSuffix(problem.type) ?? 'about:blank';
	const detail = str(problem.detail) || str(problem.title);
	switch (suffix) {
		case 'usage-capped':
			return {
				message: `Usage cap exceeded (${str(problem.period) || 'period not stated'}, ${str(problem.scope) || 'scope not stated'})`,
				description: `The ${str(problem.scope).toLowerCase() || 'account'} used up its ${str(problem.period).toLowerCase() || ''} allowance. Wait for the next period or raise the plan's cap. ${detail}`.trim(),
			};
		case 'resource-not-found':
			return {
				message: `Not found: ${str(problem.resource_type) || 'resource'} ${str(problem.value) || str(problem.resource_id)} (parameter ${str(problem.parameter) || 'unknown'})`,
				description: `Check the value of "${str(problem.parameter)}": ${detail}`,
			};
		case 'resource-unavailable':
			return {
				message: `Unavailable: ${str(problem.resource_type) || 'resource'} ${str(problem.resource_id)} (parameter ${str(problem.parameter) || 'unknown'})`,
				description: `The resource exists but is not available to this account (protected, suspended or withheld). ${detail}`,
			};
		case 'not-authorized-for-resource':
			return {
				message: `Not authorized for ${str(problem.resource_type)} ${str(problem.resource_id)} (parameter ${str(problem.parameter)})`,
				description: detail,
			};
		case 'not-authorized-for-field':
			return {
				message: `Not authorized to see the field "${str(problem.field)}" of ${str(problem.resource_type)}`,
				description: `Remove the field from the requested fields. ${detail}`,
			};
		case 'disallowed-resource':
			return {
				message: `Disallowed ${str(problem.resource_type)} ${str(problem.resource_id)}`,
				description: detail,
			};
		case 'client-forbidden':
			return {
				message: `The app is not allowed to make this request${problem.reason ? ` (${str(problem.reason)})` : ''}`,
				description: `${detail}${problem.registration_url ? ` Enrol the app at ${str(problem.registration_url)}.` : ' Attach the app to a project with access to this endpoint.'}`,
			};
		case 'conflict':
			return {
				message: 'A replay job is already running for this webhook',
				description: 'Wait for it to finish (the webhook receives a replay_job_status event), then try again.',
			};
		case 'duplicate-rules':
			return {
				message: `Duplicate rule${problem.value ? `: ${str(problem.value)}` : ''}${problem.id ? ` (existing id ${str(problem.id)})` : ''}`,
				description: 'A rule with the same value already exists. Remove it from the list or delete the existing rule.',
			};
		case 'invalid-rules':
			return { message: 'The service refused a rule as invalid', description: `Check the rule syntax. ${detail}`.trim() };
		case 'noncompliant-rules':
			return { message: 'The rule set is not compliant', description: detail };
		case 'rule-cap':
			return {
				message: 'The maximum number of filtered-stream rules is reached',
				description: 'Delete rules you no longer need, or move to a plan with more rules.',
			};
		case 'invalid-request': {
			const errors = Array.isArray(problem.errors) ? (problem.errors as IDataObject[]) : [];
			const parts = errors.map((e) => {
				const params = e.parameters && typeof e.parameters === 'object' ? Object.keys(e.parameters as object).join(', ') : '';
				return params ? `${str(e.message)} (${params})` : str(e.message);
			});
			return {
				message: `Invalid request${parts.length ? `: ${parts.join('; ')}` : ''}`,
				description: detail || 'Check the parameters named above.',
			};
		}
		case 'unsupported-authentication':
			return {
				message: 'This endpoint does not accept the chosen authentication',
				description: `Choose another credential type in the node's Authentication field (user-context OAuth for user actions, app-only bearer for webhooks). ${detail}`.trim(),
			};
		case 'operational-disconnect':
			return { message: `Disconnected by the service (${str(problem.disconnect_type)})`, description: detail };
		case 'streaming-connection':
			return { message: `Streaming connection problem (${str(problem.connection_issue)})`, description: detail };
		case 'client-disconnected':
			return { message: 'The client disconnected', description: detail };
		default:
			if (status === 429) return rateLimitExplained(undefined);
			return { message: detail || `Request failed with status ${status}`, description: undefined };
	}
}

function rateLimitExplained(resetAt: Date | undefined): Explained {
	return {
		message: resetAt
			? `Rate limit reached; it resets at ${resetAt.toISOString()}`
			: 'Rate limit reached (the service named no reset time)',
		description:
			'Run the workflow again after the reset, or raise "Max Rate Limit Wait" in the node options so that the node waits for it.',
	};
}

function explainLegacy(error: IDataObject, status: number): Explained | undefined {
	const code = error.code;
	if (code === 89 || code === '89') {
		return {
			message: 'The access token is invalid, expired or revoked',
			description: 'Reconnect the credential (or paste new tokens) and try again.',
		};
	}
	if (code === 99 || code === '99') {
		return {
			message: 'The bearer token was requested too often',
			description:
				'The service refuses frequent token requests (code 99). Paste the bearer token instead of minting it, or wait a few minutes; the credential caches a minted token.',
		};
	}
	if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) {
		const parameter = error.parameter ? ` (parameter "${str(error.parameter)}")` : '';
		const hint = ADS_HINTS[code] ?? '';
		return {
			message: `${str(error.message) || code}${parameter}`,
			description: `${code}${hint ? `: ${hint}` : ''}${error.details ? ` ${str(error.details)}` : ''}`,
		};
	}
	if (error.message) return { message: str(error.message), description: status ? `Status ${status}` : undefined };
	return undefined;
}

const ADS_HINTS: Record<string, string> = {
	INVALID_PARAMETER: 'fix the named parameter.',
	MISSING_PARAMETER: 'the named parameter is required.',
	NOT_FOUND: 'check the ids (account, catalog, card ...) and that the account can see them.',
	UNAUTHORIZED_ACCESS: 'the authenticated user has no access to this ad account.',
	TOO_MANY_REQUESTS: 'rate limit; wait for the reset.',
	DUPLICATE: 'an object with these values exists already.',
};

/** Turns an HTTP error response into a message and description. Exported for tests. */
export function explainResponse(status: number, body: unknown, resetAt?: Date): Explained {
	if (status === 429) return rateLimitExplained(resetAt);
	const obj = (body && typeof body === 'object' ? body : {}) as IDataObject;
	const text = typeof body === 'string' ? body : JSON.stringify(body ?? '');
	const webhook = fromWebhookReason(text);
	if (webhook) return webhook;
	if (status === 403 && /duplicate content/i.test(text)) {
		return {
			message: 'The service refused a duplicate post',
			description:
				'The same text was posted recently. If an earlier attempt timed out, it may have been published: check the account before posting again.',
		};
	}
	if (problemSuffix(obj.type)) return explainProblem(obj, status);
	const errors = Array.isArray(obj.errors) ? (obj.errors as IDataObject[]) : [];
	if (errors.length) {
		const first = errors[0];
		if (problemSuffix(first.type)) return explainProblem(first, status);
		const legacy = explainLegacy(first, status);
		if (legacy) {
			if (errors.length > 1) legacy.description = `${legacy.description ?? ''} (+${errors.length - 1} more errors)`.trim();
			return legacy;
		}
	}
	if (status === 401) {
		return {
			message: 'Authorization failed',
			description: 'Check or reconnect the credential chosen in the node.',
		};
	}
	if (obj.title || obj.detail) return { message: str(obj.detail) || str(obj.title) };
	return { message: `Request failed with status ${status}` };
}

export function apiError(
	node: INode,
	status: number,
	body: unknown,
	options: { itemIndex?: number; resetAt?: Date } = {},
): NodeApiError {
	const explained = explainResponse(status, body, options.resetAt);
	const payload: JsonObject =
		body && typeof body === 'object' ? (body as JsonObject) : { message: str(body) || `HTTP ${status}` };
	return new NodeApiError(node, payload, {
		message: explained.message,
		description: explained.description,
		httpCode: String(status),
		itemIndex: options.itemIndex,
	});
}
