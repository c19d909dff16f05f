export interface Param {
	name: string;
	type: string;
	default: unknown;
	when?: Record<string, unknown>;
	values?: unknown[];
	fields?: Param[];
	groups?: Array<{ name: string; fields: Param[] }>;
}
export interface Surface {
	nodes: Record<string, { versions: Record<string, Param[]> }>;
	credentials: Record<string, { extends?: string[]; fields: Param[] }>;
}
export function currentSurface(): Surface;
/** The recorded form of one node version's parameters (what surface.json holds per version). */
export function describeParams(params: unknown[], version: number): Param[];
export function breaks(recorded: Surface, current: Surface): string[];
export function readSnapshot(): Surface;
/** Whether a displayOptions @version condition admits the version. */
export function versionMatches(condition: unknown, version: number): boolean;
