'use strict';
/**
 * Filtered-stream rule counts and the deletion of community notes (the rest of the app's
 * administration is in webhooks.js, notes are written in posts.js).
 */
const { invalidRequest, notFound, problem } = require('../lib/http');

/** The caps the sandbox's app and project have on filtered-stream rules. */
const CAP_PER_CLIENT_APP = 1000;
const CAP_PER_PROJECT = 1000;
/** The sandbox app's client app id. */
const CLIENT_APP_ID = '1000000000';

function install(sb) {
	sb.route('GET', '/2/tweets/search/stream/rules/counts', 'app', ({ q }) => {
		const count = sb.db.streamRules.size;
		const all = {
			all_project_client_apps: [{ client_app_id: CLIENT_APP_ID, rule_count: count }],
			cap_per_client_app: CAP_PER_CLIENT_APP,
			cap_per_project: CAP_PER_PROJECT,
			client_app_rules_count: { client_app_id: CLIENT_APP_ID, rule_count: count },
			project_rules_count: count,
		};
		const fields = q['rules_count.fields']
			? String(q['rules_count.fields']).split(',').filter(Boolean)
			: [];
		// Without fields, the counts of this app and project and their caps.
		const wanted = fields.length
			? fields
			: ['cap_per_client_app', 'cap_per_project', 'client_app_rules_count', 'project_rules_count'];
		const data = {};
		for (const f of wanted) if (all[f] !== undefined) data[f] = all[f];
		return { body: { data } };
	});

	// A note can be deleted by the account that wrote it only.
	sb.route('DELETE', '/2/notes/:id', 'user', ({ params, auth }) => {
		if (!/^[0-9]{1,19}$/.test(params.id))
			throw invalidRequest('id must be a note id (1-19 digits)', { id: [params.id] });
		const at = sb.db.notes.findIndex((n) => n.id === params.id);
		if (at < 0) throw notFound('note', 'id', params.id);
		if (sb.db.notes[at].author !== String(auth.userId))
			throw problem(403, 'about:blank', 'Forbidden', 'You can only delete notes you wrote.');
		sb.db.notes.splice(at, 1);
		return { body: { data: { deleted: true } } };
	});
}

module.exports = { install };
