#!/usr/bin/env node
'use strict';
/**
 * Command line for the platform sandbox.
 *
 *   node sandbox/cli.js serve [--port 5680] [--legacy] [--strict-urls] [--emit-on-create] [--quiet]
 *   node sandbox/cli.js emit <event_type> [--text "..."] [--user-id 1000000001] [--count N]
 *                                         [--forge] [--unsigned] [--webhook-id ID] [--account-activity] [--media]
 *                                         [--post-id ID] [--reply-to ID | --repost-of ID | --quote-of ID] [--deleted]
 *       event types: post.create post.delete spaces.start spaces.end dm.received dm.sent dm.read
 *       dm.indicate_typing chat.received chat.sent news.new follow.follow follow.unfollow profile.update.bio
 *       profile.update.{profile_picture,banner_picture,screenname,handle,geo,url,verified_badge,affiliate_badge}
 *   node sandbox/cli.js replay [--webhook-id ID] [--from yyyymmddhhmm] [--to yyyymmddhhmm]
 *   node sandbox/cli.js crc <webhook_id>          run a CRC check now
 *   node sandbox/cli.js webhooks | subscriptions | deliveries | state
 *   node sandbox/cli.js requests [--since N] [--path /2/tweets]
 *   node sandbox/cli.js fault <status> [--count N] [--path REGEX] [--reset-after S]   e.g. fault 429 --count 2
 *   node sandbox/cli.js latency <ms>  |  node sandbox/cli.js faults-clear  |  node sandbox/cli.js reset
 *
 * The sandbox URL comes from --url, $SANDBOX_URL, .n8n-run/sandbox.json (written by `npm start`), or
 * http://127.0.0.1:5680.
 */
const fs = require('node:fs');
const path = require('node:path');

const argv = process.argv.slice(2);
const WITH_VALUE = [
	'text',
	'user-id',
	'count',
	'webhook-id',
	'from',
	'to',
	'since',
	'path',
	'port',
	'url',
	'reset-after',
	'post-id',
	'reply-to',
	'repost-of',
	'quote-of',
];
const options = {};
const positional = [];
for (let i = 0; i < argv.length; i++) {
	const a = argv[i];
	if (a.startsWith('--')) {
		const name = a.slice(2);
		options[name] = WITH_VALUE.includes(name) ? argv[++i] : true;
	} else positional.push(a);
}
const flag = (name) => options[name] === true;
const opt = (name, dflt) => (options[name] === undefined ? dflt : options[name]);

function sandboxUrl() {
	if (opt('url')) return opt('url');
	if (process.env.SANDBOX_URL) return process.env.SANDBOX_URL;
	const file = path.resolve(__dirname, '..', '.n8n-run', 'sandbox.json');
	if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')).url;
	return 'http://127.0.0.1:5680';
}

async function call(method, p, body) {
	const url = sandboxUrl() + p;
	let res;
	try {
		res = await fetch(url, {
			method,
			headers: body ? { 'content-type': 'application/json' } : {},
			body: body ? JSON.stringify(body) : undefined,
			signal: AbortSignal.timeout(120000),
		});
	} catch (error) {
		console.error(
			`Cannot reach the sandbox at ${sandboxUrl()} (${error.cause ? error.cause.code : error.message}). Is \`npm start\` running?`,
		);
		process.exit(1);
	}
	const json = await res.json().catch(() => ({}));
	if (!res.ok) {
		console.error(`${method} ${p} -> ${res.status}`, JSON.stringify(json, null, 2));
		process.exit(1);
	}
	return json;
}

const out = (v) => console.log(JSON.stringify(v, null, 2));

async function main() {
	const cmd = positional[0];
	switch (cmd) {
		case 'serve': {
			const { createSandbox } = require('./server');
			const sb = await createSandbox({
				quiet: flag('quiet'),
				legacyShapes: flag('legacy'),
				allowInsecureWebhookUrls: !flag('strict-urls'),
				emitOnCreate: flag('emit-on-create'),
			}).listen(Number(opt('port', 5680)));
			console.log(`platform sandbox on ${sb.url}`);
			console.log(`keys: ${JSON.stringify(sb.keys)}`);
			const stop = () => sb.close().then(() => process.exit(0));
			process.on('SIGINT', stop);
			process.on('SIGTERM', stop);
			return;
		}
		case 'emit': {
			const body = { event_type: positional[1] || 'post.create' };
			if (opt('text')) body.text = opt('text');
			if (opt('user-id')) body.user_id = opt('user-id');
			if (opt('count')) body.count = Number(opt('count'));
			if (opt('webhook-id')) body.webhook_id = opt('webhook-id');
			if (flag('forge')) body.forge = true;
			if (flag('unsigned')) body.unsigned = true;
			if (flag('account-activity')) body.shape = 'account_activity';
			if (flag('media')) body.media = true;
			if (flag('deleted')) body.deleted = true;
			for (const k of ['post-id', 'reply-to', 'repost-of', 'quote-of'])
				if (opt(k)) body[k.replace(/-/g, '_')] = opt(k);
			const { events } = await call('POST', '/_sandbox/events', body);
			for (const e of events) {
				const d = e.deliveries.map((x) =>
					x.skipped
						? `${x.webhook_id}: skipped (${x.skipped})`
						: `${x.url} -> ${x.error || x.status}`,
				);
				console.log(
					`event ${e.event_uuid} (${e.event_type}): ${d.length ? d.join('; ') : 'no subscribed webhook'}`,
				);
			}
			return;
		}
		case 'replay': {
			const body = {};
			if (opt('webhook-id')) body.webhook_id = opt('webhook-id');
			if (opt('from')) body.from_date = opt('from');
			if (opt('to')) body.to_date = opt('to');
			out(await call('POST', '/_sandbox/replay', body));
			return;
		}
		case 'crc':
			out(await call('POST', `/_sandbox/webhooks/${positional[1]}/crc`));
			return;
		case 'webhooks':
		case 'subscriptions':
		case 'deliveries': {
			const state = await call('GET', '/_sandbox/state');
			out(state[cmd]);
			return;
		}
		case 'state':
			out(await call('GET', '/_sandbox/state'));
			return;
		case 'requests': {
			const q = new URLSearchParams();
			if (opt('since')) q.set('since', opt('since'));
			if (opt('path')) q.set('path', opt('path'));
			const { requests } = await call('GET', `/_sandbox/requests?${q}`);
			for (const r of requests) {
				console.log(
					`#${r.seq} ${r.at} ${r.method} ${r.path}${Object.keys(r.query).length ? '?' + new URLSearchParams(r.query) : ''} -> ${r.status} ${r.auth ? `[${r.auth.kind}${r.auth.valid ? '' : ' INVALID: ' + (r.auth.reason || '')}]` : ''}${r.body !== undefined ? ' ' + JSON.stringify(r.body).slice(0, 200) : ''}`,
				);
				// What in the sandbox's answer breaks the service's contract (sandbox/server.js).
				for (const v of r.answerViolations || [])
					console.log(`    the answer breaks the contract: ${v.message}`);
			}
			return;
		}
		case 'fault':
			out(
				await call('POST', '/_sandbox/faults', {
					rules: [
						{
							status: Number(positional[1] || 429),
							count: Number(opt('count', 1)),
							path: opt('path'),
							resetAfterS:
								opt('reset-after') !== undefined ? Number(opt('reset-after')) : undefined,
						},
					],
				}),
			);
			return;
		case 'latency':
			out(await call('POST', '/_sandbox/faults', { latencyMs: Number(positional[1] || 0) }));
			return;
		case 'faults-clear':
			out(await call('DELETE', '/_sandbox/faults'));
			return;
		case 'reset':
			out(await call('POST', '/_sandbox/reset'));
			return;
		default:
			console.log(
				fs
					.readFileSync(__filename, 'utf8')
					.split('\n')
					.slice(3, 21)
					.join('\n')
					.replace(/^ \* ?/gm, ''),
			);
			process.exit(cmd ? 1 : 0);
	}
}

main();
