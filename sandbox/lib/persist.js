'use strict';
/**
 * What the service keeps across a restart of the sandbox, as the real service keeps it while n8n is
 * restarted: the app's webhooks (with their validity), activity subscriptions, Account Activity
 * subscriptions, filtered-stream rules and webhook links, and the events of the last 24 hours (the
 * replay source, with their raw bodies). Requests, deliveries, CRC checks, posts and the Ads objects
 * are not kept: they are a fresh session's.
 *
 * `save(sb, file)` writes the state as JSON (to a temporary file first, then renamed, so a crash while
 * writing never leaves half a file); `load(sb, file)` restores it and returns what it loaded, or
 * undefined when there is no file. `persistTo(sb, file)` loads, then saves after every request that
 * may change the state.
 */
const fs = require('node:fs');
const path = require('node:path');

const FORMAT = 1;
/** The service replays the past 24 hours: older events are of no use after a restart. */
const EVENT_MAX_AGE_MS = 24 * 60 * 60 * 1000 + 60_000;

function snapshot(sb) {
	const d = sb.db;
	const cutoff = Date.now() - EVENT_MAX_AGE_MS;
	return {
		format: FORMAT,
		savedAt: new Date().toISOString(),
		webhooks: [...d.webhooks.values()],
		subscriptions: [...d.subscriptions.values()],
		accountSubscriptions: [...d.accountSubscriptions].map(([webhookId, users]) => [
			webhookId,
			[...users],
		]),
		streamRules: [...d.streamRules.values()],
		streamLinks: [...d.streamLinks.values()],
		events: d.events.filter((e) => Date.parse(e.created_at) >= cutoff),
		postMedia: d.postMedia ? [...d.postMedia.values()] : [],
		postMediaOwner: d.postMediaOwner ? [...d.postMediaOwner] : [],
	};
}

function save(sb, file) {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	const tmp = `${file}.${process.pid}.tmp`;
	fs.writeFileSync(tmp, JSON.stringify(snapshot(sb)));
	fs.renameSync(tmp, file);
}

function load(sb, file) {
	if (!fs.existsSync(file)) return undefined;
	const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
	if (!saved || saved.format !== FORMAT)
		throw new Error(`${file}: not a sandbox state of format ${FORMAT}; start with --fresh`);
	const d = sb.db;
	d.webhooks = new Map(saved.webhooks.map((w) => [w.id, w]));
	d.subscriptions = new Map(saved.subscriptions.map((s) => [s.subscription_id, s]));
	d.accountSubscriptions = new Map(
		saved.accountSubscriptions.map(([id, users]) => [id, new Set(users)]),
	);
	d.streamRules = new Map(saved.streamRules.map((r) => [r.id, r]));
	d.streamLinks = new Map(saved.streamLinks.map((l) => [l.webhook_id, l]));
	d.events = saved.events;
	if (saved.postMedia.length) d.postMedia = new Map(saved.postMedia.map((m) => [m.media_key, m]));
	if (saved.postMediaOwner && saved.postMediaOwner.length)
		d.postMediaOwner = new Map(saved.postMediaOwner);
	for (const id of [...d.webhooks.keys(), ...d.subscriptions.keys(), ...d.streamRules.keys()])
		sb.reserveId(id);
	return {
		webhooks: d.webhooks.size,
		subscriptions: d.subscriptions.size,
		streamRules: d.streamRules.size,
		events: d.events.length,
		savedAt: saved.savedAt,
	};
}

/** Loads the saved state (if any) and saves it again after every request that may change it. */
function persistTo(sb, file) {
	const loaded = load(sb, file);
	sb.onChange = () => save(sb, file);
	return loaded;
}

module.exports = { save, load, persistTo, snapshot };
