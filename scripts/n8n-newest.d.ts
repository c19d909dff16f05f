export const PINNED: string;
export function npmView(args: string[]): unknown;
export function newestN8n(options?: {
	view?: (args: string[]) => unknown;
	pinned?: string;
	tries?: number;
	log?: (line: string) => void;
}): string;
