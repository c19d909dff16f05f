import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { PlatformOAuth1Api } from '../../credentials/PlatformOAuth1Api.credentials';
import { PlatformOAuth1ConnectApi } from '../../credentials/PlatformOAuth1ConnectApi.credentials';
import { PlatformBearerApi } from '../../credentials/PlatformBearerApi.credentials';
import { AdsCatalog } from '../../nodes/AdsCatalog/AdsCatalog.node';
import { AdsCreatives } from '../../nodes/AdsCreatives/AdsCreatives.node';
import { PlatformPostTriggers } from '../../nodes/PlatformPostTriggers/PlatformPostTriggers.node';
import { PlatformPosts } from '../../nodes/PlatformPosts/PlatformPosts.node';
import { PlatformPostsTrigger } from '../../nodes/PlatformPostsTrigger/PlatformPostsTrigger.node';
import { PlatformTriggerPosts } from '../../nodes/PlatformTriggerPosts/PlatformTriggerPosts.node';
import { evalSubtitle, listFiles, readText } from '../helpers/files';

/** What a non-developer sees in the editor: node panel entries, action names, subtitles, docs links. */

const PKG = 'n8n-nodes-platform';
const nodes: Record<string, { description: INodeTypeDescription; codexFile: string }> = {
	platformTriggerPosts: {
		description: new PlatformTriggerPosts().description,
		codexFile: 'nodes/PlatformTriggerPosts/PlatformTriggerPosts.node.json',
	},
	platformPostsTrigger: {
		description: new PlatformPostsTrigger().description,
		codexFile: 'nodes/PlatformPostsTrigger/PlatformPostsTrigger.node.json',
	},
	platformPostTriggers: {
		description: new PlatformPostTriggers().description,
		codexFile: 'nodes/PlatformPostTriggers/PlatformPostTriggers.node.json',
	},
	platformPosts: {
		description: new PlatformPosts().description,
		codexFile: 'nodes/PlatformPosts/PlatformPosts.node.json',
	},
	adsCatalog: {
		description: new AdsCatalog().description,
		codexFile: 'nodes/AdsCatalog/AdsCatalog.node.json',
	},
	adsCreatives: {
		description: new AdsCreatives().description,
		codexFile: 'nodes/AdsCreatives/AdsCreatives.node.json',
	},
};
const actionNodes = ['platformPosts', 'adsCatalog', 'adsCreatives'];

function codex(name: string) {
	return JSON.parse(readText(nodes[name].codexFile)) as {
		node: string;
		alias?: string[];
		resources: { primaryDocumentation: Array<{ url: string }> };
	};
}

/** Every (resource, operation option) of an action node. */
function operations(
	d: INodeTypeDescription,
): Array<{ resource: string; option: INodePropertyOptions }> {
	const out: Array<{ resource: string; option: INodePropertyOptions }> = [];
	for (const p of d.properties.filter((x) => x.name === 'operation')) {
		const resource = (p.displayOptions?.show?.resource as string[])[0];
		for (const option of p.options as INodePropertyOptions[]) out.push({ resource, option });
	}
	return out;
}

/** Evaluates a `={{ … }}` subtitle the way the canvas does, with the node's parameters. */
function subtitle(d: INodeTypeDescription, parameters: Record<string, unknown>): string {
	return evalSubtitle(d.subtitle, parameters);
}

it('lists every mode of the poll trigger as a node panel trigger that says it polls', () => {
	const event = nodes.platformPostsTrigger.description.properties.find(
		(p) => p.name === 'event',
	) as INodePropertyOptions & INodeProperties;
	const actions = (event.options as INodePropertyOptions[]).map((o) => o.action);
	expect(actions).toContain('On new posts matching a search query (polling)');
	expect(actions).toContain('On new direct message events (polling)');
	for (const a of actions) expect(a).toMatch(/^On new .* \(polling\)$/);
});

/** "a" before a vowel sound ("a image"), except the "you" sound of user, usage, unique ("a user's"). */
const badActionName = (name: string) =>
	/\ba (?!us[aeir]|uni)[aeiou]/i.test(name) || /medias\b/i.test(name);

describe('node panel search', () => {
	// n8n's node panel matches a query against each entry's display name and codex aliases; a match
	// needs every character of the query in order (case-insensitive). Triggers are merged into
	// Platform Posts, whose codex is the one searched.
	const inOrder = (query: string, text: string) => {
		let i = 0;
		for (const c of text.toLowerCase()) if (c === query[i]) i++;
		return i === query.length;
	};
	const found = (query: string) =>
		actionNodes.filter((name) =>
			[nodes[name].description.displayName, ...(codex(name).alias ?? [])].some((t) =>
				inOrder(query.toLowerCase(), t),
			),
		);

	it.each([
		['new post', 'platformPosts'],
		['ad post', 'adsCreatives'],
		['twitter', 'platformPosts'],
		['tweet', 'platformPosts'],
		['webhook', 'platformPosts'],
		['poll', 'platformPosts'],
	])('finds "%s" (%s)', (query, name) => {
		expect(found(query)).toContain(name);
	});

	it('names "X" exactly in an alias of every node, so that a one-letter search ranks them high', () => {
		for (const name of actionNodes) expect(codex(name).alias).toContain('X');
	});
});

describe('node panel grouping', () => {
	it("pairs every trigger with an action node the way n8n's node panel does (type name minus its first 'Trigger')", () => {
		const triggers = Object.values(nodes).filter((n) => n.description.group.includes('trigger'));
		expect(triggers.length).toBeGreaterThan(0);
		for (const t of triggers) {
			const paired = `${PKG}.${t.description.name}`.replace('Trigger', '');
			expect(paired).toBe(`${PKG}.platformPosts`);
			// The panel lists a trigger's events only when its display name says Trigger.
			expect(t.description.displayName).toContain('Trigger');
		}
	});

	it('finds every node by the platform name (display name or alias)', () => {
		for (const name of Object.keys(nodes)) {
			const { displayName } = nodes[name].description;
			expect(displayName.includes('Platform') || codex(name).alias?.includes('Platform')).toBe(
				true,
			);
			expect(codex(name).node).toBe(`${PKG}.${name}`);
		}
		expect(nodes.adsCatalog.description.displayName).toBe('Platform Ads Catalog');
		expect(nodes.adsCreatives.description.displayName).toBe('Platform Ads Creatives');
	});

	it('lists the Activity Stream Trigger as one node panel trigger, not one per event', () => {
		// n8n's panel lists the options of a trigger's first field labelled Event, Events or Trigger On.
		const listed = nodes.platformPostTriggers.description.properties.find((p) =>
			['event', 'events', 'trigger on'].includes(p.displayName.toLowerCase()),
		) as INodeProperties;
		expect(listed.type).toBe('hidden');
		expect((listed.options as INodePropertyOptions[]).map((o) => o.action)).toEqual([
			'On account activity over a stream (no public URL needed)',
		]);
	});

	it("names the trigger's two ways to start as node panel triggers", () => {
		const mode = nodes.platformTriggerPosts.description.properties.find(
			(p) => p.name === 'mode',
		) as INodeProperties;
		expect(mode.displayName).toBe('Trigger On');
		expect((mode.options as INodePropertyOptions[]).map((o) => o.action)).toEqual([
			'On account activity (new post, DM, profile, Spaces)',
			'On any activity of the connected account',
			'On new post matching search rules',
		]);
	});
});

describe('action names', () => {
	it.each(actionNodes)('%s: every action is a grammatical sentence', (name) => {
		const list = operations(nodes[name].description);
		expect(list.length).toBeGreaterThan(5);
		for (const { option } of list) {
			const action = String(option.action);
			expect({ action, bad: badActionName(action) }).toEqual({ action, bad: false });
			expect(action).toMatch(/^[A-Z][a-z]/);
			expect(action).not.toMatch(/[a-z][A-Z]|\s{2}/);
		}
	});

	it('calls the product push "Push products" in the list and as the action', () => {
		const push = operations(nodes.adsCatalog.description).find(
			(o) => o.resource === 'product' && o.option.value === 'push',
		);
		expect(push?.option.name).toBe('Push');
		expect(push?.option.action).toBe('Push products');
	});

	it('names account media and preroll call-to-action actions correctly', () => {
		const actions = operations(nodes.adsCreatives.description).map((o) => o.option.action);
		expect(actions).toEqual(
			expect.arrayContaining([
				'Get an account media item',
				'Get many account media items',
				'Delete an account media item',
				'Get many preroll calls-to-action',
			]),
		);
	});
});

describe('subtitles', () => {
	it.each(actionNodes)('%s: every operation shows its action in plain words', (name) => {
		const d = nodes[name].description;
		for (const { resource, option } of operations(d)) {
			const text = subtitle(d, { resource, operation: option.value });
			expect(text).not.toMatch(/undefined|[a-z][A-Z]|: /);
			expect(text.toLowerCase()).toBe(
				String(option.action)
					.replace(/ (a|an|the) /g, ' ')
					.toLowerCase(),
			);
		}
	});

	it('shows "Create scheduled post" and "Push products"', () => {
		expect(
			subtitle(nodes.adsCreatives.description, { resource: 'scheduledPost', operation: 'create' }),
		).toBe('Create scheduled post');
		expect(subtitle(nodes.adsCatalog.description, { resource: 'product', operation: 'push' })).toBe(
			'Push products',
		);
	});

	it('shows the trigger events in plain words', () => {
		const d = nodes.platformTriggerPosts.description;
		expect(subtitle(d, { mode: 'activity', events: ['post.create'] })).toBe('On new post');
		expect(
			subtitle(d, { mode: 'activity', events: ['post.create', 'dm.received', 'follow'] }),
		).toBe('On new post and 2 more');
		expect(subtitle(d, { mode: 'stream' })).toBe('On new post matching search rules');
		expect(subtitle(d, { mode: 'activity', events: ['some.future'] })).toBe('On some.future');
		const events = d.properties.find((p) => p.name === 'events') as INodeProperties;
		for (const o of events.options as INodePropertyOptions[]) {
			expect(subtitle(d, { mode: 'activity', events: [o.value] })).not.toMatch(/\w\.\w|_/);
		}
	});

	it("shows the Activity Stream Trigger's events in the same words", () => {
		const d = nodes.platformPostTriggers.description;
		expect(subtitle(d, { events: ['post.create'] })).toBe('On new post');
		expect(subtitle(d, { events: ['post.create', 'dm.received'] })).toBe('On new post and 1 more');
		const events = d.properties.find((p) => p.name === 'events') as INodeProperties;
		for (const o of events.options as INodePropertyOptions[])
			expect(subtitle(d, { events: [o.value] })).not.toMatch(/\w\.\w|_|: /);
	});
});

describe('docs links', () => {
	// Each Docs link opens the node's or credential's own page under docs/ on GitHub; that every
	// page and heading exists is checked for all links in test/docs/links.test.ts.
	const DOCS = 'https://github.com/n8n-nodes-platform/n8n-nodes-platform/blob/main/docs/';
	// GitHub's anchor for a heading: lower case, spaces to dashes, punctuation dropped.
	const anchorsOf = (rel: string) =>
		new Set(
			readText(rel)
				.split('\n')
				.filter((l) => /^#{1,6} /.test(l))
				.map((l) =>
					l
						.replace(/^#+ /, '')
						.trim()
						.toLowerCase()
						.replace(/[^\w\- ]/g, '')
						.replace(/ /g, '-'),
				),
		);
	const target = (url: string) => {
		const [page, anchor] = url.slice(DOCS.length).split('#');
		return { page: `docs/${page}`, anchor };
	};

	it.each(Object.keys(nodes))(
		'%s: the Docs link opens its own page at an existing heading',
		(name) => {
			const url = String(nodes[name].description.documentationUrl);
			expect(url.startsWith(`${DOCS}nodes/`)).toBe(true);
			const { page, anchor } = target(url);
			expect(anchorsOf(page).has(anchor)).toBe(true);
			// n8n appends ?utm… to the codex link: it carries no anchor to break.
			for (const { url: codexUrl } of codex(name).resources.primaryDocumentation)
				expect(codexUrl).not.toContain('#');
		},
	);

	it('each credential opens its own heading of docs/credentials.md', () => {
		const seen = new Set<string>();
		for (const cred of [
			new PlatformOAuth1Api(),
			new PlatformOAuth1ConnectApi(),
			new PlatformBearerApi(),
		]) {
			const url = String(cred.documentationUrl);
			expect(url.startsWith(`${DOCS}credentials.md#`)).toBe(true);
			const { page, anchor } = target(url);
			expect(anchorsOf(page).has(anchor)).toBe(true);
			seen.add(anchor);
		}
		expect(seen.size).toBe(3);
	});
});

describe('credential vocabulary', () => {
	it('uses the same labels for the app keys in the keys and connect credentials', () => {
		const label = (props: INodeProperties[], name: string) =>
			props.find((p) => p.name === name)?.displayName;
		const keys = new PlatformOAuth1Api().properties;
		const connect = new PlatformOAuth1ConnectApi().properties;
		for (const name of ['consumerKey', 'consumerSecret'])
			expect(label(connect, name)).toBe(label(keys, name));
		expect(label(keys, 'consumerKey')).toBe('Consumer Key (API Key)');
		expect(keys.find((p) => p.name === 'accessTokenSecret')?.description).toBeTruthy();
	});

	it('tells on the bearer credential that the trigger needs the consumer secret', () => {
		const props = new PlatformBearerApi().properties;
		const notice = props.find((p) => p.type === 'notice');
		expect(notice?.displayName).toMatch(/Platform Trigger needs the Consumer Secret/);
	});
});

describe('output schemas', () => {
	// n8n serves <node dir>/__schema__/v<version>/<resource>/<operation>.json (or v<version>.json for a node
	// without resources) to the editor, which shows it as the next node's input before a run.
	const schemaFiles = (dir: string) => listFiles(`${dir}/__schema__`);

	it('ships Ads Creatives schemas only for operations that exist, all objects of version 1', () => {
		const files = schemaFiles('nodes/AdsCreatives');
		expect(files.length).toBeGreaterThan(20);
		const known = new Set(
			operations(nodes.adsCreatives.description).map(
				(o) => `v1.0.0/${o.resource}/${String(o.option.value)}.json`,
			),
		);
		for (const f of files) {
			expect(known.has(f)).toBe(true);
			const schema = JSON.parse(readText(`nodes/AdsCreatives/__schema__/${f}`));
			expect(schema).toMatchObject({ type: 'object', version: 1 });
			expect(Object.keys(schema.properties).length).toBeGreaterThan(3);
		}
	});

	it('ships an Ads Catalog schema for every operation, and none for an operation that does not exist', () => {
		const files = schemaFiles('nodes/AdsCatalog').sort();
		// Version 2 changed only how Push paces its batches: every output keeps version 1's shape.
		const expected = ['v1.0.0', 'v2.0.0']
			.flatMap((v) =>
				operations(nodes.adsCatalog.description).map(
					(o) => `${v}/${o.resource}/${String(o.option.value)}.json`,
				),
			)
			.sort();
		expect(files).toEqual(expected);
		for (const f of files) {
			const schema = JSON.parse(readText(`nodes/AdsCatalog/__schema__/${f}`));
			expect(schema).toMatchObject({ type: 'object', version: 1 });
		}
	});

	it("ships the trigger's item schema for every version, the same for all (v2 moved only statuses, v3 only All Events)", () => {
		expect(schemaFiles('nodes/PlatformTriggerPosts')).toEqual([
			'v1.0.0.json',
			'v2.0.0.json',
			'v3.0.0.json',
		]);
		const schema = JSON.parse(readText('nodes/PlatformTriggerPosts/__schema__/v1.0.0.json'));
		for (const v of ['v2.0.0.json', 'v3.0.0.json'])
			expect(JSON.parse(readText(`nodes/PlatformTriggerPosts/__schema__/${v}`))).toEqual(schema);
		expect(Object.keys(schema.properties)).toEqual(
			expect.arrayContaining([
				'event_type',
				'event_id',
				'filter',
				'tag',
				'payload',
				'includes',
				'received_at',
				'post',
				'matching_rules',
				'tags',
			]),
		);
	});
});
