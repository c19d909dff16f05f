'use strict';
/**
 * What the service's documentation names that its published contract (version 2.159, in rules.json)
 * lacks. Where the contract defines a wire value it wins; these are the only additions, each dated
 * after the contract or outside the contract's `/2/` scope, each with its reason. The sandbox and the
 * conformance test both read the table through check.js, which applies these on top of the contract
 * and fails loudly when an addition no longer finds its place (or the contract already has it).
 */

const EVALUATE_NOTE_BODY = { $ref: 'EvaluateNoteRequest' };

/** Every query parameter `name` of every operation (the contract inlines shared parameters). */
function queryParameterSchemas(table, name) {
	const found = [];
	for (const op of Object.values(table.operations)) {
		const rule = op.query && op.query[name];
		// A plain-string tweet.fields (the stream link's) takes any value: nothing to add to.
		if (rule && rule.schema.items && rule.schema.items.enum) found.push(rule.schema.items);
	}
	return found;
}

module.exports = {
	/** Operations the documentation names at paths the contract does not have. */
	operations: {
		evaluateCommunityNotesNewPath: {
			reason:
				'POST /2/notes/evaluate: the newer path of POST /2/evaluate_note, named by the documentation after the contract',
			method: 'POST',
			path: '/2/notes/evaluate',
			auth: { oauth2: ['tweet.write'], oauth1: true },
			body: { required: true, content: { 'application/json': EVALUATE_NOTE_BODY } },
		},
		revokeOAuth2Token: {
			reason:
				'POST /2/oauth2/revoke: the OAuth 2.0 token endpoints are outside the contract (form body, client id or Basic authentication)',
			method: 'POST',
			path: '/2/oauth2/revoke',
			auth: {},
			body: {
				required: true,
				content: {
					'application/x-www-form-urlencoded': {
						type: 'object',
						required: ['token'],
						properties: {
							token: { type: 'string', minLength: 1 },
							client_id: { type: 'string' },
							token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] },
						},
						additionalProperties: false,
					},
				},
			},
		},
	},

	/** Enum values added by the documentation after the contract. */
	enumValues: [
		{
			reason:
				'Activity API events post.create and post.delete (2026-06-04) and the legacy direct message events (2026-03-11)',
			locate: (table) => table.schemas.ActivitySubscriptionCreateRequest.properties.event_type,
			values: [
				'post.create',
				'post.delete',
				'dm.received',
				'dm.sent',
				'dm.read',
				'dm.indicate_typing',
			],
		},
		{
			reason: 'the paid_partnership post field, readable through tweet.fields (2026-06-03)',
			locateAll: (table) => queryParameterSchemas(table, 'tweet.fields'),
			values: ['paid_partnership'],
		},
	],

	/** Object fields added by the documentation after the contract. */
	properties: [
		{
			reason:
				'the direction filter of activity subscriptions, for direct message and chat events (2026-03-18)',
			locate: (table) => table.schemas.ActivitySubscriptionFilter,
			properties: { direction: { type: 'string', enum: ['sent', 'received'] } },
		},
		{
			reason: 'the paid_partnership post field, written on create (2026-06-03)',
			locate: (table) => table.schemas.TweetCreateRequest,
			properties: { paid_partnership: { type: 'boolean' } },
		},
	],

	/** Query parameters added by the documentation after the contract: none today. */
	queryParameters: [],
};
