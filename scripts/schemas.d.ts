export interface OutputSchema {
	type?: string;
	properties?: Record<string, OutputSchema>;
	items?: OutputSchema;
	version?: number;
}
export function generate(): Map<string, OutputSchema>;
export function differences(): string[];
export function text(schema: OutputSchema): string;
export function postsRawSchema(key: string): OutputSchema;
export const VERSIONS: Record<string, number[]>;
export const NODE_DIRS: Record<string, string>;
export function padVersion(version: number): string;
