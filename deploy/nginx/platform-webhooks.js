// njs (nginx's JavaScript module, Debian package libnginx-mod-http-js) for platform-webhooks.conf.
//
// The service publishes no addresses, so the proxy tells its calls from a flood by what only the service
// can produce: a delivery's signature, HMAC-SHA256 of the raw body keyed with the app's consumer secret.
// With the secret ($platform_webhooks_secret, from the root-only file the recipe includes) the proxy
// checks every POST itself and a forged one gets 401 here, never reaching n8n (which spends about 60 ms
// of CPU on any webhook call before the trigger node runs). Without the secret (the fallback) nothing is
// verified here: the recipe's format checks and limits are then the only guard.
//
// Every call that goes on to n8n carries $platform_route, the key of the upstream's consistent hash:
// the same delivery (the service's copies and its retries) always reaches the same webhook process.

const crypto = require('crypto');
const fs = require('fs');

/**
 * The longest a delivery's whole request (headers and body) may take to arrive, in seconds: the service
 * waits 10 s for the answer, so a body still arriving after that is nobody's delivery any more.
 */
const BODY_DEADLINE_S = 10;

/** The service's crc_token: 16 to 128 of these characters, anything else is not the service. */
const CRC_TOKEN = /^[A-Za-z0-9+/=_-]{16,128}$/;

function hmac(key, data) {
	return crypto.createHmac('sha256', key).update(data).digest('base64');
}

/**
 * a === b without telling a caller, by the time it takes, how much of a forged signature was right:
 * both sides are compared as HMACs under a key nobody knows.
 */
function sameText(a, b) {
	const key = String(Math.random()) + String(Date.now());
	return hmac(key, a) === hmac(key, b);
}

/**
 * The raw body of a POST. The recipe has nginx write every body to a temporary file through a 64 KiB
 * buffer (client_body_in_file_only clean), so that a slow sender holds no more of nginx's memory than
 * that; the file is read here. Undefined when there is no body (nginx then makes no file). A body in
 * memory (a configuration without client_body_in_file_only) is read from there; the file must be
 * checked first, because r.requestBuffer throws for a body in a file.
 */
function bodyOf(r) {
	const file = r.variables.request_body_file;
	if (file) return fs.readFileSync(file);
	return r.requestBuffer;
}

/**
 * The routing key of a delivery: the same for every body that can carry the same event, so that all of
 * them (the service's copies, its retries, a replay in another envelope, hours later) reach the one
 * process whose record of the events it ran sees them one after the other.
 *   - one Activity event (`data.event_uuid`): the event;
 *   - an Account Activity body (`for_user_id` and one or more `<kind>_events` arrays): the account.
 *     The service batches an account's events as it likes (one event alone, the same one in a batch
 *     with others, a replay in yet other batches), so no key of one event could follow it into every
 *     batch; every body for one account goes to one process instead (its load spreads by account);
 *   - a filtered-stream post (`data.id`, no event type): the post;
 *   - anything else (a replay job's status, a body that is not JSON): its signature, the same for the
 *     same bytes.
 */
function routeKey(text, signature) {
	try {
		const body = JSON.parse(text);
		const data = body && body.data;
		if (data && typeof data.event_uuid === 'string' && data.event_uuid)
			return 'event:' + data.event_uuid;
		const account = body && body.for_user_id;
		if ((typeof account === 'string' && account) || typeof account === 'number')
			return 'account:' + String(account);
		if (
			data &&
			data.event_type === undefined &&
			(typeof data.id === 'string' || typeof data.id === 'number')
		)
			return 'post:' + String(data.id);
	} catch (e) {
		// not JSON: n8n answers it; the signature still routes it
	}
	return 'signature:' + signature;
}

/**
 * Every call the recipe's format checks and limits let through (a GET with a well-formed crc_token, a
 * POST with a well-formed signature header): a CRC check goes on to n8n; a delivery goes on when its
 * signature is right (checked only when the proxy has the secret), else 401.
 */
function webhook(r) {
	if (r.method !== 'POST') {
		r.variables.platform_route = 'crc:' + (r.args.crc_token || '');
		r.internalRedirect('@platform_n8n');
		return;
	}
	if (Number(r.variables.request_time) > BODY_DEADLINE_S) {
		// The service waits 10 s for the whole answer: a body that took longer to arrive is not one it
		// still waits for (a slow sender holding the connection); refused without reaching n8n.
		r.headersOut['Content-Type'] = 'application/json';
		r.return(408, '{"error":"body too slow"}');
		return;
	}
	const secret = r.variables.platform_webhooks_secret;
	const signature = r.headersIn['x-platform-webhooks-signature'] || '';
	const body = bodyOf(r);
	if (!body || !body.length) {
		// No body at all (Content-Length: 0, or an empty chunked body): no delivery is empty, so the
		// caller's fault, answered as the trigger answers it, without a line in the error log.
		r.headersOut['Content-Type'] = 'application/json';
		r.return(400, '{"error":"no body"}');
		return;
	}
	if (secret && !sameText(signature, 'sha256=' + hmac(secret, body))) {
		r.headersOut['Content-Type'] = 'application/json';
		r.return(401, '{"error":"invalid signature"}');
		return;
	}
	r.variables.platform_route = routeKey(body.toString(), signature);
	r.internalRedirect('@platform_n8n');
}

/**
 * The routing key as a js_set variable, for a proxy whose own locations pass the calls on (the Helm
 * chart's webhook Ingress on ingress-nginx, deploy/helm/): its consistent hash reads the variable when
 * it picks the webhook process, after nginx has read the body. $platform_hook (a map of the trigger's
 * webhook paths) tells the trigger's calls from the other webhooks and forms the same Ingress serves;
 * those spread by their request id. Checks nothing: there the trigger verifies every signature itself.
 */
function route(r) {
	if (r.variables.platform_hook !== '1') return 'other:' + r.variables.request_id;
	if (r.method !== 'POST') return 'crc:' + (r.args.crc_token || '');
	const body = bodyOf(r);
	return routeKey(body ? body.toString() : '', r.headersIn['x-platform-webhooks-signature'] || '');
}

/**
 * GET: the CRC check, when the CRC budget towards n8n is spent (a flood of well-formed CRC checks): the
 * proxy answers it itself, exactly as the trigger does, so that the service's own check never waits
 * behind forged ones. Without the secret it cannot: 429, and the service checks again later.
 */
function crc(r) {
	const secret = r.variables.platform_webhooks_secret;
	const token = r.args.crc_token;
	r.headersOut['Content-Type'] = 'application/json';
	if (r.method !== 'GET' || !secret) {
		// a CRC check the proxy cannot answer (no secret); a POST over a limit is answered 429 by the
		// recipe before it gets here, so that its body is never read
		r.return(429, '{"error":"too many requests"}');
		return;
	}
	if (typeof token !== 'string' || !CRC_TOKEN.test(token)) {
		r.return(400, '{"error":"crc_token missing or malformed"}');
		return;
	}
	r.return(200, JSON.stringify({ response_token: 'sha256=' + hmac(secret, token) }));
}

export default { webhook, crc, route };
