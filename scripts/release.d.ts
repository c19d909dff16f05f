export function newestChangelogVersion(text: string): string | undefined;
export function nextVersion(current: string, bump: string): string;
