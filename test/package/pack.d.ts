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
export function removeDir(dir: string): void;
