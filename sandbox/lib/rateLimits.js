'use strict';
/**
 * Per-endpoint rate-limit windows, as the service keeps them: a rule counts one caller's requests (an
 * app token, or a user, whatever the credential) to the endpoints it matches, in a window of
 * `windowS` seconds that starts with the first of them. Past `limit` the service answers 429 until
 * the window ends; every answer of a limited endpoint carries the window's `x-rate-limit-limit`,
 * `-remaining` and `-reset` (Unix seconds). A refused request does not count.
 *
 * The service publishes no values for most endpoints: a rule names its own. Rules are off unless the
 * sandbox is given some (the option `rateLimits`, at creation or through POST /_sandbox/options):
 * a sandbox that refused a poll every minute would change what every other test sees.
 *
 *   {method?: 'GET', path: '^/2/users/[0-9]+/followers$' (a regular expression), limit: 15, windowS: 900}
 */

/** Why a list of rules is not one (undefined when it is). */
function invalidRules(rules) {
	if (!Array.isArray(rules) || rules.length > 100) return 'rateLimits: a list of at most 100 rules';
	for (const [i, r] of rules.entries()) {
		const at = `rateLimits[${i}]`;
		if (!r || typeof r !== 'object') return `${at}: an object`;
		if (typeof r.path !== 'string' || !r.path) return `${at}.path: a regular expression`;
		try {
			new RegExp(r.path);
		} catch {
			return `${at}.path: not a regular expression`;
		}
		if (r.method !== undefined && !/^[A-Z]+$/.test(String(r.method)))
			return `${at}.method: an HTTP method in capitals`;
		if (!Number.isInteger(r.limit) || r.limit < 1) return `${at}.limit: a whole number from 1`;
		if (!Number.isInteger(r.windowS) || r.windowS < 1 || r.windowS > 86400)
			return `${at}.windowS: whole seconds from 1 to 86400`;
	}
	return undefined;
}

/** Who a window belongs to: the app (each app token its own) or the user a user credential acts for. */
function callerOf(auth) {
	if (!auth || auth.kind === 'none' || auth.kind === 'basic') return undefined;
	return auth.kind === 'app' ? `app:${auth.label || ''}` : `user:${auth.userId}`;
}

/**
 * Counts one request against the first rule that matches it. Answers undefined when no rule does, else
 * `{refused, headers}`: the window's headers, and whether the request is over the limit.
 */
function take(windows, rules, { method, path, auth, now = Date.now() }) {
	const index = (rules || []).findIndex(
		(r) => (!r.method || r.method === method) && new RegExp(r.path).test(path),
	);
	const caller = callerOf(auth);
	if (index === -1 || caller === undefined) return undefined;
	const rule = rules[index];
	const key = `${index} ${caller}`;
	let w = windows.get(key);
	if (!w || now >= w.resetMs) {
		w = { used: 0, resetMs: now + rule.windowS * 1000 };
		windows.set(key, w);
	}
	const refused = w.used >= rule.limit;
	if (!refused) w.used++;
	return {
		refused,
		headers: {
			'x-rate-limit-limit': String(rule.limit),
			'x-rate-limit-remaining': String(rule.limit - w.used),
			'x-rate-limit-reset': String(Math.ceil(w.resetMs / 1000)),
		},
	};
}

module.exports = { invalidRules, take };
