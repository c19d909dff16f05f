'use strict';
/**
 * The docs' link check: every relative link and anchor in the repository's Markdown resolves (the
 * file exists; a `#anchor` is a heading of the target, by GitHub's slug rules), links to this
 * repository's own GitHub pages (`<homepage>/blob/main/<path>#anchor`, as the README uses them so
 * that they work on npm too) are checked as the files they name, and every node's and credential's
 * `documentationUrl` names a page and heading that exist. Used by links.test.ts.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

/** The Markdown files whose links are checked, relative to the root. */
function markdownFiles(root = ROOT) {
	const out = ['README.md', 'DEVELOPING.md', 'CHANGELOG.md', 'bench/results/history.md'].filter(
		(f) => fs.existsSync(path.join(root, f)),
	);
	const walk = (dir) => {
		for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
			const rel = path.posix.join(dir, entry.name);
			if (entry.isDirectory()) walk(rel);
			else if (entry.name.endsWith('.md')) out.push(rel);
		}
	};
	if (fs.existsSync(path.join(root, 'docs'))) walk('docs');
	return out;
}

/** The repository's GitHub address (package.json homepage), without a trailing slash. */
function repositoryUrl(root = ROOT) {
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	return String(pkg.homepage).replace(/\/+$/, '');
}

/** Text with fenced code blocks blanked (line numbers kept) and inline code spans removed. */
function proseLines(text) {
	let fence;
	return text.split('\n').map((line) => {
		const marker = /^\s*(```+|~~~+)/.exec(line);
		if (marker) {
			if (!fence) fence = marker[1][0];
			else if (marker[1][0] === fence) fence = undefined;
			return '';
		}
		return fence ? '' : line;
	});
}

/**
 * GitHub's anchor for a heading (github-slugger): the rendered text, lower-cased, without
 * punctuation other than `-` and `_`, spaces turned into `-`.
 */
function slug(heading) {
	const text = heading
		.replace(/!\[[^\]]*\]\([^)]*\)/g, '')
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>/g, '');
	return text
		.toLowerCase()
		.trim()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
		.replace(/ /g, '-');
}

/** The anchors of a Markdown text: heading slugs (a repeated one gets -1, -2 ...) and explicit ids. */
function anchorsOf(text) {
	const anchors = new Set();
	const seen = new Map();
	for (const line of proseLines(text)) {
		const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (heading) {
			const base = slug(heading[1]);
			const n = seen.get(base) ?? 0;
			seen.set(base, n + 1);
			anchors.add(n ? `${base}-${n}` : base);
		}
		for (const m of line.matchAll(/<a\s+[^>]*(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
	}
	return anchors;
}

/** Inline links and images of a Markdown text, with their line numbers (code excluded). */
function linksOf(text) {
	const out = [];
	proseLines(text).forEach((raw, index) => {
		const line = raw.replace(/`[^`]*`/g, '');
		for (const m of line.matchAll(
			/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g,
		))
			out.push({ target: m[1], line: index + 1 });
	});
	return out;
}

/**
 * What a link points at: a file of the repository (with an optional anchor), or an external
 * address. Links to this repository's GitHub pages (blob or tree, branch main) are its files.
 */
function resolveTarget(target, fromFile, repoUrl) {
	if (/^mailto:/i.test(target)) return { external: true };
	const own = `${repoUrl}/`;
	if (/^https?:\/\//i.test(target)) {
		if (!target.startsWith(own)) return { external: true };
		const m = /^(?:blob|tree)\/main\/([^#?]*)(?:\?[^#]*)?(?:#(.*))?$/.exec(
			target.slice(own.length),
		);
		if (!m) return { error: 'names a page of this repository that is not a file on main' };
		return { file: decodeURIComponent(m[1]).replace(/\/$/, ''), anchor: m[2], own: true };
	}
	const [pathPart, anchor] = target.split('#', 2);
	if (!pathPart) return { file: fromFile, anchor };
	const file = path.posix.normalize(
		path.posix.join(path.posix.dirname(fromFile), decodeURIComponent(pathPart)),
	);
	if (file.startsWith('..')) return { error: 'leaves the repository' };
	return { file: file.replace(/\/$/, ''), anchor };
}

/** Checks one resolved link; returns the problem or undefined. */
function problemOf(resolved, root, anchorCache) {
	if (resolved.error) return resolved.error;
	if (resolved.external) return undefined;
	const full = path.join(root, resolved.file);
	if (!fs.existsSync(full)) return `no such file: ${resolved.file}`;
	if (resolved.anchor === undefined || resolved.anchor === '') return undefined;
	if (!resolved.file.endsWith('.md'))
		return `an anchor into a file that is not Markdown: ${resolved.file}`;
	if (!anchorCache.has(resolved.file))
		anchorCache.set(resolved.file, anchorsOf(fs.readFileSync(full, 'utf8')));
	if (!anchorCache.get(resolved.file).has(decodeURIComponent(resolved.anchor)))
		return `no heading #${resolved.anchor} in ${resolved.file}`;
	return undefined;
}

/** Every link of the given Markdown files, checked; counts and problems. */
function checkMarkdown(files, root = ROOT) {
	const repoUrl = repositoryUrl(root);
	const anchorCache = new Map();
	const counts = {
		files: files.length,
		links: 0,
		relative: 0,
		ownGitHub: 0,
		anchors: 0,
		external: 0,
	};
	const problems = [];
	for (const file of files) {
		const text = fs.readFileSync(path.join(root, file), 'utf8');
		for (const { target, line } of linksOf(text)) {
			counts.links++;
			const resolved = resolveTarget(target, file, repoUrl);
			if (resolved.external) counts.external++;
			else if (resolved.own) counts.ownGitHub++;
			else if (!resolved.error) counts.relative++;
			if (resolved.anchor) counts.anchors++;
			const problem = problemOf(resolved, root, anchorCache);
			if (problem) problems.push(`${file}:${line}: ${target}: ${problem}`);
		}
	}
	return { counts, problems };
}

/** The documentationUrl of every node and credential source file. */
function documentationUrls(root = ROOT) {
	const out = [];
	const walk = (dir) => {
		for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
			const rel = path.posix.join(dir, entry.name);
			if (entry.isDirectory()) walk(rel);
			else if (entry.name.endsWith('.ts')) {
				const text = fs.readFileSync(path.join(root, rel), 'utf8');
				for (const m of text.matchAll(/documentationUrl\s*[:=]\s*['"`]([^'"`]+)['"`]/g))
					out.push({ file: rel, url: m[1] });
			}
		}
	};
	walk('nodes');
	walk('credentials');
	return out;
}

/** Every documentationUrl must be a page of this repository with an existing heading. */
function checkDocumentationUrls(root = ROOT) {
	const repoUrl = repositoryUrl(root);
	const anchorCache = new Map();
	const urls = documentationUrls(root);
	const problems = [];
	for (const { file, url } of urls) {
		const resolved = resolveTarget(url, file, repoUrl);
		if (resolved.external || !resolved.own) {
			problems.push(`${file}: ${url}: not a page of ${repoUrl}/blob/main/`);
			continue;
		}
		if (!resolved.anchor) problems.push(`${file}: ${url}: names no heading (#anchor)`);
		const problem = problemOf(resolved, root, anchorCache);
		if (problem) problems.push(`${file}: ${url}: ${problem}`);
	}
	return { urls, problems };
}

/**
 * Checks the links of a made-up repository (`files`: relative path → text; package.json gets the
 * homepage https://github.com/o/r), so the tests can prove the check finds what is broken.
 */
function checkFixture(files) {
	const os = require('node:os');
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-links-'));
	try {
		fs.writeFileSync(
			path.join(root, 'package.json'),
			JSON.stringify({ homepage: 'https://github.com/o/r' }),
		);
		for (const [rel, text] of Object.entries(files)) {
			fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
			fs.writeFileSync(path.join(root, rel), text);
		}
		return checkMarkdown(['README.md'], root).problems;
	} finally {
		fs.rmSync(root, { recursive: true, force: true });
	}
}

module.exports = {
	ROOT,
	checkFixture,
	anchorsOf,
	checkDocumentationUrls,
	checkMarkdown,
	documentationUrls,
	linksOf,
	markdownFiles,
	repositoryUrl,
	resolveTarget,
	slug,
};

if (require.main === module) {
	// node test/docs/links.js: what the check covers, and what it found.
	const { counts, problems } = checkMarkdown(markdownFiles());
	const docs = checkDocumentationUrls();
	console.log(`Markdown: ${JSON.stringify(counts)}`);
	console.log(`documentationUrl: ${docs.urls.length}`);
	for (const p of [...problems, ...docs.problems]) console.error(p);
	if (problems.length || docs.problems.length) process.exitCode = 1;
}
