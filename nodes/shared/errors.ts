import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * Translates every error shape the service sends (Problem objects, legacy codes, advertising CAPS
 * codes, webhook failure reasons) into a NodeApiError whose
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
			'The node adopts a webhook with its exact URL; if this persists, delete the stale webhook (Platform Posts > Admin (App-Only) > Delete Webhook) and activate again.',
	},
	WebhookLimitExceeded: {
		message: 'The app has reached its webhook limit',
		description:
			'Small tiers allow one webhook per app. Delete a webhook you no longer use (Platform Posts > Admin (App-Only) > Delete Webhook), then activate again.',
	},
	WebhookIdInvalid: {
		message: 'The webhook id is not known to the service',
		description:
			'The webhook was deleted outside n8n. Deactivate and activate the workflow to register a new one.',
	},
};

/**
 * The webhook failure reason the service names in its answer. The service sends it only inside the
 * answer's text (a message or detail such as "UrlValidationFailed: ..."), so this is the one place
 * that reads it from text; from here on it travels as the error's code.
 */
function webhookReasonOf(body: unknown): string | undefined {
	const text = typeof body === 'string' ? body : JSON.stringify(body ?? '');
	return Object.keys(WEBHOOK_REASONS).find((reason) => text.includes(reason));
}

function explainProblem(problem: IDataObject, status: number): Explained {
	const suffix = problemSuffix(problem.type) ?? 'about:blank';
	const detail = str(problem.detail) || str(problem.title);
	switch (suffix) {
		case 'usage-capped':
			return {
				message: `Usage cap exceeded (${str(problem.period) || 'period not stated'}, ${str(problem.scope) || 'scope not stated'})`,
				description:
					`The ${str(problem.scope).toLowerCase() || 'account'} used up its ${str(problem.period).toLowerCase() || ''} allowance. Wait for the next period or raise the plan's cap. ${detail}`.trim(),
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
				description:
					'Wait for it to finish (the webhook receives a replay_job_status event), then try again.',
			};
		case 'duplicate-rules':
			return {
				message: `Duplicate rule${problem.value ? `: ${str(problem.value)}` : ''}${problem.id ? ` (existing id ${str(problem.id)})` : ''}`,
				description:
					'A rule with the same value already exists. Remove it from the list or delete the existing rule.',
			};
		case 'invalid-rules':
			return {
				message: 'The service refused a rule as invalid',
				description: `Check the rule syntax. ${detail}`.trim(),
			};
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
				const params =
					e.parameters && typeof e.parameters === 'object'
						? Object.keys(e.parameters as object).join(', ')
						: '';
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
				description:
					`Choose another credential type in the node's Authentication field (user-context OAuth for user actions, app-only bearer for webhooks). ${detail}`.trim(),
			};
		case 'operational-disconnect':
			return {
				message: `Disconnected by the service (${str(problem.disconnect_type)})`,
				description: detail,
			};
		case 'streaming-connection':
			return {
				message: `Streaming connection problem (${str(problem.connection_issue)})`,
				description: detail,
			};
		case 'client-disconnected':
			return { message: 'The client disconnected', description: detail };
		default:
			if (status === 429) return rateLimitExplained({ kind: 'window' });
			return { message: detail || `Request failed with status ${status}`, description: undefined };
	}
}

/**
 * Which limit refused a request (429):
 * - window: the endpoint's 15-minute window (`x-rate-limit-*`, `x-account-rate-limit-*` on ads calls);
 * - userDaily / appDaily: the 24-hour cap of the authenticated user or of the whole app
 *   (`x-user-limit-24hour-*`, `x-app-limit-24hour-*`, remaining 0);
 * - usageCap: the plan's usage cap (the `usage-capped` problem, Daily or Monthly).
 * Only the window is worth retrying after a short wait; the others reset hours or days later.
 */
export type RateLimitKind = 'window' | 'userDaily' | 'appDaily' | 'usageCap';

export interface RateLimitInfo {
	kind: RateLimitKind;
	resetAt?: Date;
	/** The limit's size in requests, when the service sent it. */
	limit?: number;
	/** usageCap only: the period and scope the service named (Daily / Monthly, Account / Product). */
	period?: string;
	scope?: string;
}

function resetHeader(raw: string | undefined): Date | undefined {
	const seconds = Number(raw);
	if (!raw || !Number.isFinite(seconds) || seconds <= 0) return undefined;
	return new Date(seconds * 1000);
}

function exhaustedDaily(
	headers: Record<string, string>,
	prefix: string,
): { resetAt?: Date; limit?: number } | undefined {
	const remaining = headers[`${prefix}-remaining`];
	if (remaining === undefined || remaining === '' || Number(remaining) > 0) return undefined;
	const limit = Number(headers[`${prefix}-limit`]);
	return {
		resetAt: resetHeader(headers[`${prefix}-reset`]),
		limit: Number.isFinite(limit) && limit > 0 ? limit : undefined,
	};
}

/** When the 15-minute window resets, from the headers (the ads account limit preferred). */
export function windowReset(headers: Record<string, string>): Date | undefined {
	return resetHeader(headers['x-account-rate-limit-reset'] ?? headers['x-rate-limit-reset']);
}

/**
 * The 15-minute window as one answer's (lower-case) headers state it: requests left and when it
 * resets (the ads account limit preferred, as for the reset). `limited` is true for a 429.
 */
export interface RateWindow {
	remaining?: number;
	resetAt?: Date;
	limited: boolean;
}

export function rateWindowOf(headers: Record<string, string>, status: number): RateWindow {
	const raw = headers['x-account-rate-limit-remaining'] ?? headers['x-rate-limit-remaining'];
	const remaining = raw === undefined || raw === '' ? NaN : Number(raw);
	return {
		remaining: Number.isFinite(remaining) && remaining >= 0 ? Math.floor(remaining) : undefined,
		resetAt: windowReset(headers),
		limited: status === 429,
	};
}

/** Classifies a 429 from its (lower-case) headers and body. */
export function rateLimitOf(headers: Record<string, string>, body: unknown): RateLimitInfo {
	const user = exhaustedDaily(headers, 'x-user-limit-24hour');
	const app = exhaustedDaily(headers, 'x-app-limit-24hour');
	const obj = (body && typeof body === 'object' ? body : {}) as IDataObject;
	const errors = Array.isArray(obj.errors) ? (obj.errors as IDataObject[]) : [];
	const capped = [obj, ...errors].find((e) => problemSuffix(e.type) === 'usage-capped');
	// When both daily caps are used up the later reset is the one that matters.
	const daily =
		user && app
			? (app.resetAt?.getTime() ?? 0) > (user.resetAt?.getTime() ?? 0)
				? { kind: 'appDaily' as const, ...app }
				: { kind: 'userDaily' as const, ...user }
			: user
				? { kind: 'userDaily' as const, ...user }
				: app
					? { kind: 'appDaily' as const, ...app }
					: undefined;
	if (capped) {
		return {
			kind: 'usageCap',
			resetAt: daily?.resetAt,
			limit: daily?.limit,
			period: str(capped.period) || undefined,
			scope: str(capped.scope) || undefined,
		};
	}
	if (daily) return daily;
	return { kind: 'window', resetAt: windowReset(headers) };
}

/** "in about 3 h 20 min", "in about 12 min", "in under a minute". */
function fromNow(at: Date): string {
	const minutes = Math.round((at.getTime() - Date.now()) / 60_000);
	if (minutes < 1) return 'in under a minute';
	if (minutes < 60) return `in about ${minutes} min`;
	const hours = Math.floor(minutes / 60);
	const rest = minutes % 60;
	return `in about ${hours} h${rest ? ` ${rest} min` : ''}`;
}

function resetsAt(resetAt: Date | undefined): string {
	return resetAt
		? `it resets at ${resetAt.toISOString()} (${fromNow(resetAt)})`
		: 'the service named no reset time';
}

function rateLimitExplained(info: RateLimitInfo | undefined): Explained {
	const resetAt = info?.resetAt;
	const size = info?.limit ? ` of ${info.limit} requests` : '';
	switch (info?.kind) {
		case 'userDaily':
			return {
				message: `Daily request cap of the connected account reached (its 24-hour limit${size}); ${resetsAt(resetAt)}`,
				description:
					'This is the 24-hour allowance of the account whose credential the node uses, not the 15-minute window: waiting a few minutes does not help. Run the workflow after the reset or use another account\'s credential; "Max Rate Limit Wait" makes the node wait only when the reset is at most that far away.',
			};
		case 'appDaily':
			return {
				message: `Daily request cap of the app reached (the app's 24-hour limit${size}, shared by every account using it); ${resetsAt(resetAt)}`,
				description:
					'Every request the app makes, with any credential, counts against this cap: waiting a few minutes does not help. Run the workflow after the reset, or raise the app\'s cap in the developer portal; "Max Rate Limit Wait" makes the node wait only when the reset is at most that far away.',
			};
		case 'usageCap': {
			const period = info.period ? info.period.toLowerCase() : '';
			const scope = info.scope ? info.scope.toLowerCase() : 'account';
			const next =
				({ daily: 'day', monthly: 'month' } as Record<string, string>)[period] ?? 'period';
			return {
				message: `Usage cap exceeded (${info.period ?? 'period not stated'}, ${info.scope ?? 'scope not stated'}); ${resetsAt(resetAt)}`,
				description: `The ${scope} used up its ${period ? `${period} ` : ''}allowance: retrying does not help. Wait for the next ${next} or raise the plan's cap.`,
			};
		}
		default:
			return {
				message: resetAt
					? `Rate limit reached (15-minute window); ${resetsAt(resetAt)}`
					: 'Rate limit reached (the service named no reset time)',
				description:
					'Run the workflow again after the reset, or raise "Max Rate Limit Wait" in the node options so that the node waits for it.',
			};
	}
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
	if (error.message)
		return { message: str(error.message), description: status ? `Status ${status}` : undefined };
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
export function explainResponse(
	status: number,
	body: unknown,
	rateLimit?: RateLimitInfo,
): Explained {
	if (status === 429) return rateLimitExplained(rateLimit ?? rateLimitOf({}, body));
	const obj = (body && typeof body === 'object' ? body : {}) as IDataObject;
	const text = typeof body === 'string' ? body : JSON.stringify(body ?? '');
	const reason = webhookReasonOf(body);
	if (reason) return WEBHOOK_REASONS[reason];
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
			if (errors.length > 1)
				legacy.description =
					`${legacy.description ?? ''} (+${errors.length - 1} more errors)`.trim();
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

/**
 * What identifies an error, for callers that branch on it (and for workflows that do, through Continue
 * on Fail or an error workflow): never the message text, which is written for people and may change.
 */
export interface ErrorInfo {
	/** The HTTP status of the service's answer; undefined when no answer came or no request was made. */
	httpStatus?: number;
	/** The Problem type, as its suffix after /2/problems/ ('conflict', 'usage-capped', 'about:blank' ...). */
	type?: string;
	/**
	 * The service's error code: a legacy number ('89'), an advertising code ('INVALID_PARAMETER') or a
	 * webhook failure reason ('UrlValidationFailed').
	 */
	code?: string;
	/** The request parameter the service named as the cause. */
	parameter?: string;
	/** The request got no answer (timeout, lost connection): it may have been carried out. */
	noAnswer?: boolean;
	/** The network error code when no answer came (ETIMEDOUT, ECONNRESET ...). */
	networkCode?: string;
	/** 429 only: which limit refused the request, and when it resets (ISO 8601). */
	rateLimitKind?: RateLimitKind;
	rateLimitResetAt?: string;
	rateLimitLimit?: number;
}

/** The error's `context` keys that carry each ErrorInfo field. */
const CONTEXT_KEYS: { [K in keyof Required<ErrorInfo>]: string } = {
	httpStatus: 'httpStatus',
	type: 'errorType',
	code: 'errorCode',
	parameter: 'errorParameter',
	noAnswer: 'noAnswer',
	networkCode: 'networkCode',
	rateLimitKind: 'rateLimitKind',
	rateLimitResetAt: 'rateLimitResetAt',
	rateLimitLimit: 'rateLimitLimit',
};

/** Puts `info` on the error's context (the fields `errorInfo` reads back); returns the error. */
export function withErrorInfo<E extends NodeApiError | NodeOperationError>(
	error: E,
	info: ErrorInfo,
): E {
	for (const [field, key] of Object.entries(CONTEXT_KEYS)) {
		const value = info[field as keyof ErrorInfo];
		if (value !== undefined && value !== '') error.context[key] = value;
	}
	return error;
}

/** The identity of a thrown error; empty for errors that carry none (not from the service). */
export function errorInfo(error: unknown): ErrorInfo {
	const context = (error as { context?: IDataObject } | null)?.context;
	if (!context || typeof context !== 'object') return {};
	const info: IDataObject = {};
	for (const [field, key] of Object.entries(CONTEXT_KEYS)) {
		if (context[key] !== undefined) info[field] = context[key];
	}
	return info as ErrorInfo;
}

/** The identity of the service's answer: its status, Problem type, error code and named parameter. */
export function identifyResponse(status: number, body: unknown): ErrorInfo {
	const obj = (body && typeof body === 'object' ? body : {}) as IDataObject;
	const errors = Array.isArray(obj.errors) ? (obj.errors as IDataObject[]) : [];
	const first = problemSuffix(obj.type) ? obj : (errors[0] ?? obj);
	const code = first.code ?? obj.code;
	const parameter = first.parameter ?? obj.parameter;
	return {
		httpStatus: status,
		type: problemSuffix(first.type),
		code:
			code !== undefined && code !== null && typeof code !== 'object'
				? String(code)
				: webhookReasonOf(body),
		parameter: typeof parameter === 'string' && parameter ? parameter : undefined,
	};
}

export function apiError(
	node: INode,
	status: number,
	body: unknown,
	options: { itemIndex?: number; rateLimit?: RateLimitInfo } = {},
): NodeApiError {
	const explained = explainResponse(status, body, options.rateLimit);
	const payload: JsonObject =
		body && typeof body === 'object'
			? (body as JsonObject)
			: { message: str(body) || `HTTP ${status}` };
	const error = new NodeApiError(node, payload, {
		message: explained.message,
		description: explained.description,
		httpCode: String(status),
		itemIndex: options.itemIndex,
	});
	const rateLimit = options.rateLimit;
	return withErrorInfo(error, {
		...identifyResponse(status, body),
		// Which limit refused the request, for workflows that branch on it (Continue on Fail, error workflows).
		rateLimitKind: rateLimit?.kind,
		rateLimitResetAt: rateLimit?.resetAt?.toISOString(),
		rateLimitLimit: rateLimit?.limit || undefined,
	});
}

/** Returns n8n errors as they are and wraps anything else, without request options. */
export function asNodeError(
	ctx: { getNode(): INode },
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	const name = (error as { name?: string })?.name;
	if (name === 'NodeApiError' || name === 'NodeOperationError') return error as NodeApiError;
	// A programming error (reading a field of an answer that is not there) keeps the original as the
	// error's cause, with the same message: the property tests of answers tell it from the node's
	// own refusals by that cause's type.
	if (error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError)
		return new NodeOperationError(ctx.getNode(), error, { itemIndex });
	return new NodeOperationError(ctx.getNode(), String((error as Error)?.message ?? error), {
		itemIndex,
	});
}

/**
 * Whether a thrown error is the service's "rate limit reached" (429), and when the limit resets (null
 * when the service named no reset time). Undefined for every other error. Read from the fields the
 * transport puts on the error, never from its text.
 */
export function rateLimitOfError(
	error: unknown,
): { resetAt: Date | null; kind?: string } | undefined {
	const info = errorInfo(error);
	if (info.httpStatus !== 429) return undefined;
	const date =
		typeof info.rateLimitResetAt === 'string' ? new Date(info.rateLimitResetAt) : undefined;
	return {
		resetAt: date && !Number.isNaN(date.getTime()) ? date : null,
		kind: typeof info.rateLimitKind === 'string' ? info.rateLimitKind : undefined,
	};
}
