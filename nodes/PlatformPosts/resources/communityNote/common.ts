import type { INodeProperties } from 'n8n-workflow';

/** The Test Mode field: the service currently takes notes and searches in test mode only. */
export const testModeProperty: INodeProperties = {
	displayName: 'Test Mode',
	name: 'testMode',
	type: 'boolean',
	default: true,
	description:
		'Whether to work in test mode (test_mode=true). The service currently requires it: notes written in test mode are not shown publicly.',
};

/** Whether the text holds an http(s) URL with a host name (a note must cite a source). */
export function hasSourceUrl(text: string): boolean {
	for (const candidate of text.match(/https?:\/\/[^\s<>"']+/gi) ?? []) {
		try {
			const url = new URL(candidate);
			if (/^[^.]+\.[^.]+/.test(url.hostname)) return true;
		} catch {
			// Not a URL: look at the next candidate.
		}
	}
	return false;
}
