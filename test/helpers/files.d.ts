export function readText(rel: string): string;
export function listFiles(rel: string): string[];
export function evalSubtitle(subtitle: unknown, parameters: Record<string, unknown>): string;
export function evalItemExpression(expression: string, json: Record<string, unknown>): unknown;
