export const ROOT: string;
export function manifest(): {
	name: string;
	version: string;
	main?: string;
	files: string[];
	dependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	n8n: { nodes: string[]; credentials: string[] };
};
export function packedFiles(): string[];
export function packToTemp(prefix?: string): { work: string; tarball: string; packageDir: string };
export interface LayoutResult {
	code: number;
	loaded: string[];
	external: string[];
	refused: Array<{ from: string; request: string; why: string }>;
	failed: Array<{ file: string; error: string }>;
}
export function loadInInstallerLayout(unpackedDir: string, workDir: string): LayoutResult;
export function plant(unpackedDir: string, rel: string, line: string): void;
export function copyDir(from: string, to: string): void;
export function removeDir(dir: string): void;
