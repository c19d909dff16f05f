export interface RunResult {
	code: number | null;
	stdout: string;
	stderr: string;
}
export function runScript(
	rel: string,
	args?: string[],
	env?: Record<string, string>,
	options?: { timeoutMs?: number },
): RunResult;
export interface ReleaseRepo {
	dir: string;
	git(...args: string[]): string;
	read(rel: string): string;
	write(rel: string, text: string): void;
	commit(message: string): void;
	release(...args: string[]): RunResult;
	remove(): void;
}
export function releaseRepo(input: {
	version: string;
	changelog: string;
	testScript?: string;
}): ReleaseRepo;
