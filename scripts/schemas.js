#!/usr/bin/env node
'use strict';
/**
 * The output schemas n8n's editor shows before a node's first run (`nodes/<Node>/__schema__/`),
 * generated, so that no schema is written by hand:
 *
 *   node scripts/schemas.js            writes every generated schema file (and removes stale ones)
 *   node scripts/schemas.js --check    exit 1 when a committed file differs from what it generates
 *
 * Platform Posts: one file per version, resource and operation
 * (`__schema__/v<x.y.z>/<resource>/<operation>.json`). Each is built from the contract's success
 * answer of the endpoint the operation reads (sandbox/contract/rules.json; the endpoint is the first
 * one docs/operations.json names for it), as the node turns the answer into items: one item per
 * element of `data` (or `data` itself), a post's expanded objects beside it (author, media, poll,
 * referenced posts), a user's beside the user (pinned and most recent post), plus the fields the node
 * adds itself (`OPERATIONS` below). The triggers have no resource or operation, so n8n asks for one
 * file per version (`__schema__/v<x.y.z>.json`): the fields of every kind of item the trigger emits
 * (`TRIGGERS` below), the post and user objects again from the contract.
 *
 * Schemas keep only what the editor shows (field names and types, `DEPTH` levels deep): no
 * patterns, enums, bounds or descriptions. test/contract/schemas.test.ts fails when a committed file
 * differs from this script's output, when an operation or version has none, and (through the
 * conformance run) when an item the node really outputs has a field its schema does not declare or a
 * value of another type.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const RULES = require('../sandbox/contract/rules.json');
const OPERATIONS_MAP = require('../docs/operations.json');

/** Levels of fields kept below an item's own fields (an item's field is level 1). */
const DEPTH = 3;

/** The versions of each node, as its description declares them (test/contract/schemas.test.ts compares). */
const VERSIONS = {
	platformPosts: [1, 1.1],
	platformTriggerPosts: [1, 2, 3],
	platformPostsTrigger: [1, 1.1, 1.2],
	platformPostTriggers: [1],
};

const NODE_DIRS = {
	platformPosts: 'nodes/PlatformPosts',
	platformTriggerPosts: 'nodes/PlatformTriggerPosts',
	platformPostsTrigger: 'nodes/PlatformPostsTrigger',
	platformPostTriggers: 'nodes/PlatformPostTriggers',
};

// ---- the contract's schemas, reduced to names and types ----

function resolve(schema) {
	let s = schema || {};
	for (let i = 0; s.$ref && i < 20; i++) s = RULES.schemas[s.$ref] || {};
	return s;
}

/** The contract schema's name when it is a reference (Tweet, User, ...). */
function refName(schema) {
	let s = schema || {};
	let name;
	for (let i = 0; s.$ref && i < 20; i++) {
		name = s.$ref;
		s = RULES.schemas[s.$ref] || {};
	}
	return name;
}

/**
 * The alternatives of a schema, resolved: allOf parts merged, oneOf/anyOf alternatives, and the
 * schemas a discriminator selects (Media: Photo, Video, AnimatedGif, each the base plus its own
 * fields). `selected`: flattening a schema a discriminator chose, whose allOf names the base again.
 */
function flatten(schema, out = [], selected = false) {
	const s = resolve(schema);
	if (s.discriminator && !selected)
		for (const name of Object.values(s.discriminator.mapping)) flatten({ $ref: name }, out, true);
	if (s.allOf) {
		const merged = { ...s, allOf: undefined };
		for (const part of s.allOf)
			for (const f of flatten(part, [], true)) {
				if (f.properties) merged.properties = { ...(merged.properties || {}), ...f.properties };
				if (!merged.type && f.type) merged.type = f.type;
			}
		out.push(merged);
		return out;
	}
	const alternatives = s.oneOf || s.anyOf;
	if (alternatives) {
		for (const a of alternatives) flatten(a, out, selected);
		if (s.properties) out.push({ type: 'object', properties: s.properties });
		return out;
	}
	out.push(s);
	return out;
}

function typeOf(s) {
	if (s.type) return s.type;
	if (s.properties || s.required) return 'object';
	return undefined;
}

/**
 * The editor's view of a contract schema: `type`, and an object's `properties` or an array's `items`,
 * `depth` levels down; alternatives of one type merged (an object's fields are those of every
 * alternative), alternatives of several types left untyped.
 */
function reduce(schema, depth = DEPTH) {
	const alternatives = flatten(schema);
	const types = [...new Set(alternatives.map(typeOf).filter(Boolean))];
	if (types.length !== 1) return {};
	const type = types[0];
	const out = { type };
	if (type === 'object' && depth > 0) {
		const properties = {};
		for (const a of alternatives)
			for (const [name, sub] of Object.entries(a.properties || {}))
				if (!(name in properties)) properties[name] = sub;
		const reduced = {};
		for (const [name, sub] of Object.entries(properties)) reduced[name] = reduce(sub, depth - 1);
		if (Object.keys(reduced).length) out.properties = reduced;
	}
	if (type === 'array' && depth > 0) {
		const items = alternatives.map((a) => a.items).filter(Boolean);
		if (items.length) {
			const item = reduce(items.length === 1 ? items[0] : { anyOf: items }, depth - 1);
			if (Object.keys(item).length) out.items = item;
		}
	}
	return out;
}

// ---- what the nodes make of an answer ----

const obj = (properties) => ({ type: 'object', properties });
const arr = (items) => ({ type: 'array', items });
const str = { type: 'string' };
const bool = { type: 'boolean' };
const num = { type: 'number' };
const int = { type: 'integer' };
/** A value the node passes on whatever its shape. */
const any = {};

/** An item's own fields, a reference to a contract schema at item depth. */
const item = (name) => reduce({ $ref: name }, DEPTH);
const nested = (name, level) => reduce({ $ref: name }, DEPTH - level);

/** A post's expanded objects, which the node puts beside it (nodes/shared/includes.ts). */
function postExpansions() {
	const user = nested('User', 1);
	return {
		author: user,
		in_reply_to_user: user,
		media: arr(nested('Media', 2)),
		poll: nested('Poll', 1),
		referenced_posts: arr(withFields(obj({ type: str }), nested('Tweet', 2).properties || {})),
	};
}

/**
 * A direct message event's expanded objects, which the conversation and event reads put beside it
 * (nodes/PlatformPosts/resources/directMessage/common.ts, EventIncludes).
 */
function dmEventExpansions() {
	const user = nested('User', 1);
	return {
		sender: user,
		participants: arr(nested('User', 2)),
		media: arr(nested('Media', 2)),
		referenced_posts: arr(withFields(obj({ type: str }), nested('Tweet', 2).properties || {})),
	};
}

/** A user's expanded posts and affiliated users, beside the user (nodes/PlatformPosts/reads.ts). */
function userExpansions() {
	return {
		pinned_post: nested('Tweet', 1),
		most_recent_post: nested('Tweet', 1),
		affiliation_users: arr(nested('User', 2)),
	};
}

/** Two schemas of one field: an object's fields are those of both. */
function merge(a, b) {
	if (!a || a.type !== 'object' || !b || b.type !== 'object' || !a.properties) return b;
	if (!b.properties) return a;
	return withFields(a, b.properties);
}

function withFields(schema, fields) {
	const out = { ...schema, type: 'object', properties: { ...(schema.properties || {}) } };
	for (const [name, sub] of Object.entries(fields))
		out.properties[name] = merge(out.properties[name], sub);
	return out;
}

/** The element schema of an answer: `data`'s items, `data` itself, or the body. */
function elementOf(body) {
	const alternatives = flatten(body);
	const data = alternatives.map((a) => a.properties && a.properties.data).find(Boolean);
	if (!data) return { schema: body, name: refName(body) };
	const d = resolve(data);
	if (typeOf(d) === 'array' && d.items) return { schema: d.items, name: refName(d.items) };
	// One object: the node keeps the answer's partial errors beside its fields.
	const errors = alternatives.map((a) => a.properties && a.properties.errors).find(Boolean);
	return { schema: data, name: refName(data), errors };
}

/** Field shapes the operations below share. */
const user = () => nested('User', 1);
/** An activity subscription as Create and Update Subscription output it. */
const subscriptionFields = () => ({
	webhook_id: str,
	tag: str,
	subscription_id: str,
	event_type: str,
	filter: obj({ user_id: str }),
	created_at: str,
	updated_at: str,
});
const users = () => arr(nested('User', 2));
/** A request's failure kept as an item beside the answers of the others (posts or media not found). */
const failed = { error: str, errorType: str };
/** The attached file of a message: its media id and key. */
const attached = { media_id: str, media_key: str };
/** A media upload's own record of the file. */
const upload = {
	type: str,
	media_type: str,
	media_category: str,
	file_name: str,
	processing_state: str,
};
/** The media a new post carries (nodes/PlatformPosts/resources/post/compose/send.ts). */
const attachedMedia = () =>
	arr(
		obj({
			id: str,
			media_key: str,
			type: str,
			binary_property: str,
			file_name: str,
			alt_text: str,
		}),
	);
/** A space's people, looked up from the answer's includes. */
const spacePeople = () => ({
	creator: user(),
	hosts: users(),
	speakers: users(),
	invited_users: users(),
});
/** What a revocation reports (no JSON answer of the contract). */
const revoked = (more) => obj({ revoked: bool, ...more });

/**
 * Platform Posts operations whose items are not (only) the elements of the answer's `data`, or
 * whose endpoint is outside the contract, as the operation's code builds them: `fields` are added to
 * the elements' fields, `item` replaces them. A field an operation outputs that its schema lacks
 * fails the conformance run or the answers property, naming the operation and the field.
 */
const OPERATIONS = {
	// One item per thread (nodes/PlatformPosts/resources/post/createThread.ts): the parts posted and,
	// when a part failed, which one and what identifies the error.
	'post.createThread': {
		item: () =>
			obj({
				complete: bool,
				thread_id: str,
				part_ids: arr(str),
				parts: arr(
					obj({
						part: int,
						id: str,
						text: str,
						edit_history_tweet_ids: arr(str),
						attached_media: attachedMedia(),
						posted: str,
					}),
				),
				continued_after_post_id: str,
				failed_part: int,
				not_attempted_parts: arr(int),
				continue_after_post_id: str,
				error: str,
				description: str,
				error_info: obj({
					httpStatus: int,
					type: str,
					code: str,
					parameter: str,
					noAnswer: bool,
					networkCode: str,
					rateLimitKind: str,
					rateLimitResetAt: str,
					rateLimitLimit: num,
				}),
			}),
	},
	'post.getOne': { fields: () => failed },
	'post.hideReply': { fields: () => ({ post_id: str }) },
	'post.unhideReply': { fields: () => ({ post_id: str }) },
	// The Platform Trigger's items of the same stream (nodes/triggers/webhook/filteredStream.ts).
	'post.readFilteredStream': { fields: () => ({ ...MATCH_ITEM(), data: obj({}) }) },
	'compliance.readLabelStream': {
		// One item per label: the kind the service wraps it in, beside the label's own fields.
		item: () =>
			withFields(
				withFields(obj({ label_kind: str, errors: arr(obj({})) }), item('TweetNotice').properties),
				item('TweetUnviewable').properties,
			),
	},
	'user.get': { fields: () => ({ includes: obj({}) }) },
	'user.getMe': { fields: () => ({ includes: obj({}) }) },
	'user.getMany': { fields: () => failed },
	'user.getBookmarksInFolder': { fields: () => ({ folder_id: str }) },
	'space.getPosts': { fields: () => failed },
	'list.getFollowers': { fields: () => ({ list_id: str }) },
	'list.addMember': { fields: () => ({ list_id: str, user_id: str }) },
	'list.removeMember': { fields: () => ({ list_id: str, user_id: str }) },
	'media.addSubtitles': {
		fields: () => ({ media_id: str, language_code: str, subtitles_media_id: str }),
	},
	'media.deleteSubtitles': { fields: () => ({ media_id: str, language_code: str }) },
	'media.getStatus': {
		fields: () => ({ processing_state: str, meta: obj({}), processing_info: obj({ type: any }) }),
	},
	'media.setAltText': { fields: () => ({ media_id: str, alt_text: str }) },
	'directMessage.blockDms': { fields: () => ({ target_user_id: str }) },
	'directMessage.unblockDms': { fields: () => ({ target_user_id: str }) },
	'chat.markRead': { fields: () => ({ conversation_id: str, seen_until_sequence_id: str }) },
	'chat.sendMessage': { fields: () => ({ conversation_id: str, message_id: str }) },
	'communityNote.delete': { fields: () => ({ id: str }) },
	'communityNote.getManyWritten': { fields: () => ({ note_info: obj({}) }) },
	'admin.addRules': { fields: () => ({ dry_run: bool, rules: arr(obj({})), summary: obj({}) }) },
	'admin.checkAccountActivitySubscription': { fields: () => ({ webhook_id: str }) },
	'admin.validateWebhook': { fields: () => ({ webhook_id: str }) },
	'admin.deleteWebhook': { fields: () => ({ id: str }) },
	'admin.deleteSubscription': { fields: () => ({ id: str, meta: obj({}) }) },
	'admin.replayWebhook': { fields: () => ({ webhook_id: str, from_date: str, to_date: str }) },
	'admin.replayAccountActivity': {
		fields: () => ({ webhook_id: str, from_date: str, to_date: str }),
	},
	'post.count': {
		// Summary (the default): one item; Output: Buckets gives the contract's buckets as items.
		item: () =>
			obj({
				query: str,
				granularity: str,
				total_tweet_count: num,
				counts: arr(nested('SearchCount', 2)),
				...nested('SearchCount', 0).properties,
			}),
	},
	'post.create': {
		fields: () => ({ edit_history_tweet_ids: arr(str), attached_media: attachedMedia() }),
	},
	'post.edit': {
		fields: () => ({
			previous_post_id: str,
			edit_history_tweet_ids: arr(str),
			attached_media: attachedMedia(),
		}),
	},
	'post.delete': { fields: () => ({ id: str, deleted: bool }) },
	'post.get': { fields: () => failed },
	'post.getAnalytics': { fields: () => failed },
	'post.getInsights': { fields: () => ({ id: str, ...failed }) },
	'media.getMany': { fields: () => ({ id: str, ...failed }) },
	'media.upload': { fields: () => upload },
	'media.uploadSingle': { fields: () => upload },
	'list.getMembers': { fields: () => ({ list_id: str }) },
	'list.create': { fields: () => ({ private: bool }) },
	'list.update': { fields: () => ({ id: str, private: bool }) },
	'list.delete': { fields: () => ({ id: str }) },
	'list.follow': { fields: () => ({ list_id: str, user_id: str }) },
	'list.unfollow': { fields: () => ({ list_id: str, user_id: str }) },
	'list.pin': { fields: () => ({ list_id: str, user_id: str }) },
	'list.unpin': { fields: () => ({ list_id: str, user_id: str }) },
	'engagement.like': { fields: () => ({ post_id: str, user_id: str }) },
	'engagement.unlike': { fields: () => ({ post_id: str, user_id: str }) },
	'engagement.repost': { fields: () => ({ post_id: str, user_id: str }) },
	'engagement.undoRepost': { fields: () => ({ post_id: str, user_id: str }) },
	'engagement.bookmark': { fields: () => ({ post_id: str, user_id: str }) },
	'engagement.removeBookmark': { fields: () => ({ post_id: str, user_id: str }) },
	'engagement.follow': { fields: () => ({ target_user_id: str, user_id: str }) },
	'engagement.unfollow': { fields: () => ({ target_user_id: str, user_id: str }) },
	'engagement.mute': { fields: () => ({ target_user_id: str, user_id: str }) },
	'engagement.unmute': { fields: () => ({ target_user_id: str, user_id: str }) },
	'space.get': { fields: () => ({ ...spacePeople(), ...failed }) },
	'space.getMany': { fields: () => ({ ...spacePeople(), ...failed }) },
	'space.getByCreators': { fields: () => ({ ...spacePeople(), ...failed }) },
	'space.search': { fields: spacePeople },
	'trend.getByPlace': { fields: () => ({ rank: num, woeid: num }) },
	'admin.revalidateWebhooks': { fields: () => ({ webhook_id: str, was_valid: bool, action: str }) },
	'admin.createSubscription': { fields: () => ({ meta: obj({}), ...subscriptionFields() }) },
	'admin.updateSubscription': {
		fields: subscriptionFields,
	},
	'admin.endEndpointConnections': { fields: () => ({ endpoint: str }) },
	'admin.deleteRules': {
		fields: () => ({
			dry_run: bool,
			ids: arr(str),
			deleted: num,
			not_deleted: num,
			created: num,
			not_created: num,
			valid: num,
			invalid: num,
			errors: arr(any),
		}),
	},
	'directMessage.send': { fields: () => ({ participant_id: str, ...attached }) },
	'directMessage.sendToConversation': { fields: () => attached },
	'directMessage.createGroupConversation': {
		fields: () => ({ participant_ids: arr(str), ...attached }),
	},
	'directMessage.getConversationEvents': { fields: () => dmEventExpansions() },
	'directMessage.getEvent': { fields: () => dmEventExpansions() },
	'directMessage.getManyEvents': { fields: () => ({ sender: user() }) },
	'directMessage.deleteEvent': { fields: () => ({ dm_event_id: str }) },
	'chat.getManyConversations': {
		fields: () => ({ admins: users(), members: users(), participants: users() }),
	},
	'chat.sendTypingIndicator': { fields: () => ({ conversation_id: str }) },
	'chat.uploadMedia': { fields: () => ({ file_name: str, size: num, segments: num }) },
	'chat.downloadMedia': {
		// The file is the item's binary data; its json names it.
		item: () => obj({ conversation_id: str, media_hash_key: str, size: num }),
	},
	'chat.addPublicKey': { fields: () => ({ user_id: str }) },
	'chat.getPublicKeys': { fields: () => ({ user_id: str }) },
	'communityNote.evaluate': { fields: () => ({ post_id: str }) },
	'communityNote.create': { fields: () => ({ note_id: str, post_id: str }) },
	'token.revokeOAuth1Token': {
		item: () => revoked({ revoked_kind: str, credential_type: str }),
	},
	'token.revokeBearerToken': { item: () => revoked({ revoked_kind: str, next_step: str }) },
	'token.revokeOAuth2Token': { item: () => revoked({ token_type_hint: str, next_step: str }) },
};

function successSchema(method, pathTemplate) {
	const norm = (p) => p.replace(/\{[^},]+\}/g, ':x').replace(/:[A-Za-z_]+/g, ':x');
	for (const [id, op] of Object.entries(RULES.operations)) {
		if (op.method !== method || norm(op.path) !== norm(pathTemplate)) continue;
		const status = Object.keys(op.responses || {}).find((s) => /^2/.test(s));
		return { id, schema: status ? op.responses[status]['application/json'] : undefined };
	}
	return {};
}

/** The contract operation an operation's items come from: the first endpoint docs/operations.json names. */
function sourceOf(entry) {
	const [method, template] = entry.endpoints[0].split(' ');
	// `/2/users/:id/{tweets,followers,...}`: the endpoint the operation's choice picks; its items are
	// those of any of them.
	const choice = template.match(/\{([^}]*,[^}]*)\}/);
	const paths = choice
		? choice[1].split(',').map((c) => template.replace(choice[0], c))
		: [template];
	const schemas = paths.map((p) => successSchema(method, p).schema).filter(Boolean);
	return { schemas };
}

function postsOperationSchema(key) {
	const entry = OPERATIONS_MAP.platformPosts[key];
	const spec = OPERATIONS[key] || {};
	if (spec.item) return spec.item();
	const { schemas } = sourceOf(entry);
	if (!schemas.length)
		throw new Error(`${key}: no JSON answer in the contract for ${entry.endpoints[0]}`);
	let out = obj({});
	for (const schema of schemas) {
		const element = elementOf(schema);
		let one = reduce(element.schema);
		if (element.errors) one = withFields(one, { errors: reduce(element.errors) });
		if (element.name === 'Tweet') one = withFields(one, postExpansions());
		if (element.name === 'User') one = withFields(one, userExpansions());
		out = withFields(out, one.properties || {});
	}
	if (spec.fields) out = withFields(out, spec.fields());
	return out;
}

/** The pages as the service sent them (Output: Raw Response): the answer's own fields. */
function postsRawSchema(key) {
	let out = obj({});
	for (const schema of sourceOf(OPERATIONS_MAP.platformPosts[key]).schemas)
		out = withFields(out, reduce(schema).properties || {});
	return out;
}

// ---- the triggers ----

/**
 * An activity event (nodes/triggers/shared/events.ts; the Poll Trigger's items.ts makes the same):
 * `payload` is the service's event as delivered, whose shape depends on its type.
 */
const EVENT_ITEM = () => ({
	event_type: str,
	event_id: str,
	filter: obj({}),
	tag: str,
	payload: obj({}),
	includes: obj({}),
	received_at: str,
	// A post's attached media, from the delivery's includes (nodes/triggers/shared/media.ts).
	media: arr(nested('Media', 2)),
	media_url: str,
});

/** A post matching search rules (the Platform Trigger's stream.ts; the Poll Trigger's search modes). */
const MATCH_ITEM = () => ({
	event_type: str,
	event_id: str,
	post: nested('Tweet', 1),
	includes: obj({}),
	matching_rules: arr(obj({ id: str, tag: str })),
	tags: arr(str),
	received_at: str,
	errors: arr(obj({})),
});

/** Each trigger's items: the fields of every kind of item it emits (n8n asks one file per version). */
const TRIGGERS = {
	platformTriggerPosts: () => ({ ...EVENT_ITEM(), ...MATCH_ITEM() }),
	platformPostsTrigger: () => ({ ...EVENT_ITEM(), ...MATCH_ITEM(), query: str }),
	platformPostTriggers: () => EVENT_ITEM(),
};

// ---- files ----

function padVersion(version) {
	return String(version).split('.').concat(['0', '0']).slice(0, 3).join('.');
}

function file(schema) {
	return { ...schema, version: 1 };
}

/** Every generated file: path relative to the repository → its schema. */
function generate() {
	const out = new Map();
	for (const version of VERSIONS.platformPosts)
		for (const key of Object.keys(OPERATIONS_MAP.platformPosts)) {
			const [resource, operation] = key.split('.');
			out.set(
				`${NODE_DIRS.platformPosts}/__schema__/v${padVersion(version)}/${resource}/${operation}.json`,
				file(postsOperationSchema(key)),
			);
		}
	for (const [node, fields] of Object.entries(TRIGGERS))
		for (const version of VERSIONS[node])
			out.set(
				`${NODE_DIRS[node]}/__schema__/v${padVersion(version)}.json`,
				file(obj(fields(version))),
			);
	return out;
}

/** A schema file's text, as prettier formats JSON in this repository (tabs). */
function text(schema) {
	return `${JSON.stringify(schema, null, '\t')}\n`;
}

/** The generated files of each node folder this script owns, as committed. */
function committed() {
	const out = new Map();
	const walk = (dir) => {
		if (!fs.existsSync(path.join(ROOT, dir))) return;
		for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
			const rel = `${dir}/${e.name}`;
			if (e.isDirectory()) walk(rel);
			else if (e.name.endsWith('.json'))
				out.set(rel, fs.readFileSync(path.join(ROOT, rel), 'utf8'));
		}
	};
	for (const dir of Object.values(NODE_DIRS)) walk(`${dir}/__schema__`);
	return out;
}

/** What differs between the committed files and the generated ones. */
function differences() {
	const generated = generate();
	const found = committed();
	const diffs = [];
	for (const [rel, schema] of generated)
		if (!found.has(rel)) diffs.push(`missing: ${rel}`);
		else if (found.get(rel) !== text(schema)) diffs.push(`differs: ${rel}`);
	for (const rel of found.keys()) if (!generated.has(rel)) diffs.push(`not generated: ${rel}`);
	return diffs;
}

function write() {
	const generated = generate();
	for (const rel of committed().keys()) if (!generated.has(rel)) fs.rmSync(path.join(ROOT, rel));
	for (const [rel, schema] of generated) {
		fs.mkdirSync(path.dirname(path.join(ROOT, rel)), { recursive: true });
		fs.writeFileSync(path.join(ROOT, rel), text(schema));
	}
	return generated.size;
}

module.exports = {
	generate,
	differences,
	text,
	postsRawSchema,
	VERSIONS,
	NODE_DIRS,
	padVersion,
};

if (require.main === module) {
	if (process.argv.includes('--check')) {
		const diffs = differences();
		for (const d of diffs) console.log(d);
		process.exit(diffs.length ? 1 : 0);
	}
	console.log(`wrote ${write()} schema files`);
}
