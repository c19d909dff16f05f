'use strict';
/**
 * n8n's own REST API, as the editor uses it: an owner account (set up on first use, then logged in)
 * and a session cookie; activation and deactivation of workflows the way a user toggles them.
 */
const OWNER = {
	email: 'e2e-owner@example.com',
	firstName: 'E2E',
	lastName: 'Owner',
	password: 'E2e-Owner-Password-1',
};
const HEADERS = { 'content-type': 'application/json', 'browser-id': 'e2e-browser' };

/** A logged-in session on n8n's REST API; `owner` defaults to the e2e owner (set up on first use). */
async function session(port, owner = OWNER) {
	const base = `http://127.0.0.1:${port}`;
	let res = await fetch(`${base}/rest/owner/setup`, {
		method: 'POST',
		headers: HEADERS,
		body: JSON.stringify(owner),
	});
	if (!res.ok)
		res = await fetch(`${base}/rest/login`, {
			method: 'POST',
			headers: HEADERS,
			body: JSON.stringify({ emailOrLdapLoginId: owner.email, password: owner.password }),
		});
	if (!res.ok) throw new Error(`n8n owner setup / login failed: ${res.status} ${await res.text()}`);
	const cookie = (
		res.headers.getSetCookie ? res.headers.getSetCookie() : [res.headers.get('set-cookie')]
	)
		.map((c) => String(c).split(';')[0])
		.join('; ');
	const headers = Object.assign({ cookie }, HEADERS);
	/**
	 * Any REST call as the editor makes it, e.g. call('GET', '/types/nodes.json'); returns the answer's
	 * `data` (or the whole JSON body) and throws, with n8n's answer, when it is not 2xx.
	 */
	const call = async (method, p, body) => {
		const r = await fetch(`${base}${p}`, {
			method,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await r.text();
		if (!r.ok) throw new Error(`${method} ${p} answered ${r.status}: ${text.slice(0, 1000)}`);
		const json = text ? JSON.parse(text) : {};
		return json && json.data !== undefined ? json.data : json;
	};
	return {
		call,
		async versionId(workflowId) {
			const wf = await fetch(`${base}/rest/workflows/${workflowId}`, { headers });
			return wf.ok ? ((await wf.json()).data || {}).versionId : undefined;
		},
		/**
		 * The activation error n8n shows on the workflow, as text (null when none yet): the publication
		 * status when n8n's publication service runs (the default in 2.40), else the activation error.
		 */
		async activationError(workflowId) {
			const status = await fetch(`${base}/rest/workflows/${workflowId}/publication-status`, {
				headers,
			});
			if (status.ok) {
				const text = await status.text();
				return /"status":"failed"|errorMessage":"[^"]/.test(text) ? text : null;
			}
			const r = await fetch(`${base}/rest/active-workflows/error/${workflowId}`, { headers });
			if (!r.ok)
				throw new Error(`reading the activation error of ${workflowId} failed: ${r.status}`);
			const body = await r.json();
			const error = body && body.data !== undefined ? body.data : body;
			return error ? JSON.stringify(error) : null;
		},
		/** How many executions of the workflow n8n has stored (finished or not). */
		async executionCount(workflowId) {
			const filter = encodeURIComponent(JSON.stringify({ workflowId }));
			const r = await fetch(`${base}/rest/executions?filter=${filter}&limit=1`, { headers });
			if (!r.ok)
				throw new Error(
					`listing the executions of ${workflowId} failed: ${r.status} ${(await r.text()).slice(0, 300)}`,
				);
			const body = await r.json();
			return Number((body.data || body).count);
		},
		/**
		 * The workflow's stored executions, newest first: [{id, status, mode, startedAt}], at most 100:
		 * n8n 2.40 quietly cut a larger limit to 100, n8n 2.41 refuses one with a 400 ("Execution limit
		 * must be between 1 and 100").
		 */
		async executions(workflowId) {
			const filter = encodeURIComponent(JSON.stringify({ workflowId }));
			const r = await fetch(`${base}/rest/executions?filter=${filter}&limit=100`, { headers });
			if (!r.ok)
				throw new Error(
					`listing the executions of ${workflowId} failed: ${r.status} ${(await r.text()).slice(0, 300)}`,
				);
			const body = await r.json();
			return ((body.data || body).results || []).map((e) => ({
				id: String(e.id),
				status: e.status,
				mode: e.mode,
				startedAt: e.startedAt,
			}));
		},
		/** A stored credential as the editor reads it (secrets redacted), with its updatedAt. */
		async credential(id) {
			const r = await fetch(`${base}/rest/credentials/${id}?includeData=true`, { headers });
			if (!r.ok) throw new Error(`reading credential ${id} failed: ${r.status}`);
			const body = await r.json();
			return body.data || body;
		},
		/** The editor's "Test" button on a stored credential: POST /rest/credentials/test. */
		async testCredential(credential) {
			const r = await fetch(`${base}/rest/credentials/test`, {
				method: 'POST',
				headers,
				body: JSON.stringify({
					credentials: {
						id: credential.id,
						name: credential.name,
						type: credential.type,
						data: credential.data,
					},
				}),
			});
			if (!r.ok) throw new Error(`testing credential ${credential.id} failed: ${r.status}`);
			const body = await r.json();
			return body.data || body;
		},
		/** POST /rest/workflows/:id/<action>; returns {ok, status, text}. */
		async toggle(workflowId, action) {
			const versionId = await this.versionId(workflowId);
			const r = await fetch(`${base}/rest/workflows/${workflowId}/${action}`, {
				method: 'POST',
				headers,
				body: JSON.stringify(versionId ? { versionId } : {}),
			});
			return { ok: r.ok, status: r.status, text: await r.text() };
		},
	};
}

/** Activates a workflow like the editor's toggle; returns n8n's answer (activation errors included). */
async function activate(ctx, workflowId) {
	return (await session(ctx.inst.port)).toggle(workflowId, 'activate');
}

/**
 * The error n8n shows for a workflow whose activation failed. n8n 2.40 activates through its
 * publication service in the background: the toggle answers 200, and the node's error appears here.
 */
async function activationError(ctx, workflowId, { timeoutMs = 60000 } = {}) {
	const s = await session(ctx.inst.port);
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const error = await s.activationError(workflowId);
		if (error || Date.now() > deadline) return error;
		await new Promise((r) => setTimeout(r, 500));
	}
}

/** Deactivates a workflow like the editor's toggle; throws when n8n refuses. */
async function deactivate(ctx, workflowId) {
	const r = await (await session(ctx.inst.port)).toggle(workflowId, 'deactivate');
	if (!r.ok)
		throw new Error(`deactivating ${workflowId} failed: ${r.status} ${r.text.slice(0, 500)}`);
	return r;
}

module.exports = { session, activate, activationError, deactivate };
