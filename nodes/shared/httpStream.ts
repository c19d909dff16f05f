import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { z } from 'zod';

import type { PlatformContext, PlatformCredentialType } from './transport';
import { openPlatformStream } from './transport';
import { validateInput } from './validation';

/**
 * A bounded read of one of the service's persistent HTTP streams (one JSON object per line, blank
 * lines as keep-alives), for an action that returns what came instead of running forever: the
 * connection stays open until enough events came, the time is up or the service closes it, and is
 * then closed. Opening it (credential, base URL, the service's refusals) is the transport's.
 */

export interface StreamLimits {
	/** Stop after this many events. */
	maxEvents: number;
	/** Stop after this many seconds, however many events came. */
	maxSeconds: number;
}

export type StreamStop = 'maxEvents' | 'maxTime' | 'closed';

export interface StreamRead {
	events: IDataObject[];
	/** Why the read ended: enough events, the time was up, or the connection ended. */
	stoppedBy: StreamStop;
}

/** A line grew past the reader's maximum length without ending (LineReader). */
export class LineTooLongError extends Error {
	constructor(readonly maxLength: number) {
		super(`a line of the stream is longer than ${maxLength} characters`);
		this.name = 'LineTooLongError';
	}
}

/**
 * Splits stream bytes into lines (trimmed); an empty line is a keep-alive. With `maxLength`, a line
 * still unended past that many characters throws LineTooLongError (and what it held is dropped): the
 * caller closes the connection instead of growing its memory without end.
 */
export class LineReader {
	private rest = '';
	/**
	 * Bytes of a character split across chunks wait for the next chunk: the service's chunks end
	 * anywhere, also inside a character of a post's text (an emoji is four bytes).
	 */
	private readonly decoder = new TextDecoder('utf-8');

	constructor(private readonly maxLength = Infinity) {}

	push(chunk: Buffer | string): string[] {
		const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
		// Only a chunk with a line end ends a line: a long line read in many chunks is not split again
		// with each of them.
		if (!text.includes('\n')) {
			this.rest += text;
			this.check();
			return [];
		}
		const lines = (this.rest + text).split('\n');
		this.rest = lines.pop() ?? '';
		this.check();
		if (lines.some((l) => l.length > this.maxLength)) {
			this.rest = '';
			throw new LineTooLongError(this.maxLength);
		}
		return lines.map((l) => l.trim());
	}

	private check(): void {
		if (this.rest.length <= this.maxLength) return;
		this.rest = '';
		throw new LineTooLongError(this.maxLength);
	}
}

/** One line of the stream; a line that is not a JSON object is kept as it came. */
function parseLine(line: string): IDataObject {
	try {
		const parsed = JSON.parse(line) as unknown;
		return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
			? (parsed as IDataObject)
			: { unparsed: line };
	} catch {
		return { unparsed: line };
	}
}

const TIME_UP = 'time up' as const;

/** Reads the lines of `body` until a limit is reached or the stream ends. */
export async function readLines(
	body: AsyncIterable<Buffer | string> & { destroy?: (error?: Error) => void },
	limits: StreamLimits,
): Promise<StreamRead> {
	const maxEvents = Math.max(1, Math.floor(limits.maxEvents));
	const controller = new AbortController();
	const deadline = sleep(Math.max(1, limits.maxSeconds) * 1000, controller.signal).then(
		() => TIME_UP,
		() => TIME_UP,
	);
	const iterator = body[Symbol.asyncIterator]();
	const events: IDataObject[] = [];
	const reader = new LineReader();
	let stoppedBy: StreamStop = 'closed';
	try {
		for (;;) {
			const next = await Promise.race([iterator.next(), deadline]);
			if (typeof next === 'string') {
				stoppedBy = 'maxTime';
				break;
			}
			if (next.done) break;
			// Blank lines are the service's keep-alives.
			for (const line of reader.push(next.value))
				if (line && events.length < maxEvents) events.push(parseLine(line));
			if (events.length >= maxEvents) {
				stoppedBy = 'maxEvents';
				break;
			}
		}
	} catch {
		// The connection broke off: what came until then is the result.
		stoppedBy = 'closed';
	} finally {
		controller.abort();
		// Closing our side ends the connection, which the service counts among the app's streams.
		body.destroy?.();
	}
	return { events, stoppedBy };
}

/**
 * Opens the stream at `path` with `credentialType` and returns the events it sends within `limits`.
 * A refusal is the service's error, as for every other request.
 */
export async function readStream(
	this: PlatformContext,
	request: { path: string; qs?: IDataObject; credentialType: PlatformCredentialType },
	limits: StreamLimits,
): Promise<StreamRead> {
	const stream = await openPlatformStream.call(this, {
		...request,
		// No byte for longer than the whole read: the connection is dead.
		idleTimeoutMs: Math.max(1, limits.maxSeconds) * 1000 + 10_000,
	});
	return await readLines(stream.body, limits);
}

/**
 * The fields of an operation that reads a stream for a while: Backfill Minutes (the service's 0-5),
 * Max Events (named after what the stream carries, e.g. "Posts") and Max Duration.
 */
export function streamReadProperties(what: string, backfillDescription: string): INodeProperties[] {
	return [
		{
			displayName: 'Backfill Minutes',
			name: 'backfillMinutes',
			type: 'number',
			default: 0,
			typeOptions: { minValue: 0, maxValue: 5 },
			description: backfillDescription,
		},
		{
			displayName: `Max ${what}`,
			name: 'maxEvents',
			type: 'number',
			default: 100,
			typeOptions: { minValue: 1, maxValue: 10000 },
			description: `Stop reading after this many ${what.toLowerCase()}`,
		},
		{
			displayName: 'Max Duration (Seconds)',
			name: 'maxSeconds',
			type: 'number',
			default: 10,
			typeOptions: { minValue: 1, maxValue: 600 },
			description: `Stop reading after this many seconds, however many ${what.toLowerCase()} came (the node waits this long when fewer come)`,
		},
	];
}

const streamReadSchema = z.object({
	backfillMinutes: z
		.number()
		.int('must be a whole number')
		.min(0, 'at least 0')
		.max(5, 'at most 5'),
	maxEvents: z
		.number()
		.int('must be a whole number')
		.min(1, 'at least 1')
		.max(10000, 'at most 10,000'),
	maxSeconds: z.number().int('must be a whole number').min(1, 'at least 1').max(600, 'at most 600'),
});

/** The item's stream-read fields, checked before the connection is opened. */
export function streamReadInput(
	ctx: IExecuteFunctions,
	itemIndex: number,
	what: string,
): { backfillMinutes: number; limits: StreamLimits } {
	const input = validateInput(
		ctx.getNode(),
		streamReadSchema,
		{
			backfillMinutes: Number(ctx.getNodeParameter('backfillMinutes', itemIndex, 0)),
			maxEvents: Number(ctx.getNodeParameter('maxEvents', itemIndex, 100)),
			maxSeconds: Number(ctx.getNodeParameter('maxSeconds', itemIndex, 10)),
		},
		itemIndex,
		{
			backfillMinutes: 'Backfill Minutes',
			maxEvents: `Max ${what}`,
			maxSeconds: 'Max Duration (Seconds)',
		},
	);
	return {
		backfillMinutes: input.backfillMinutes,
		limits: { maxEvents: input.maxEvents, maxSeconds: input.maxSeconds },
	};
}
