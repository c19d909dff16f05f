export function startCrcResponder(
	secret: () => string,
): Promise<{ url: string; close(): Promise<void> }>;
export function report(summary: string, results: unknown): void;
export function committedRules(): string;
export function localDocument(): string | undefined;
export function answersRuns(): number;
export function answersSeed(): number;
