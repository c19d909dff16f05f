export interface ChangelogRelease {
	version: string;
	date?: string;
	body: string;
}
export function parseChangelog(text: string): {
	unreleased: string | undefined;
	releases: ChangelogRelease[];
};
export function newestChangelogVersion(text: string): string | undefined;
export function hasUnreleasedEntries(text: string): boolean;
export function compareVersions(a: string, b: string): number;
export function nextVersion(current: string | undefined, bump: string): string;
export function planRelease(input: {
	changelog: string;
	pkgVersion: string;
	bump: string;
	tags?: string[];
}): { version: string | undefined; problems: string[] };
export function cutRelease(changelog: string, version: string, date: string): string;
export function checkTag(input: { tag: string; pkgVersion: string; changelog: string }): string[];
