/**
 * The stream line splitter (nodes/shared/httpStream.ts): lines across chunks, keep-alives, and the
 * maximum line length the Activity Stream Trigger sets (issue 53: one endless line must not grow n8n's
 * memory without end).
 */
import { LineReader, LineTooLongError } from '../../nodes/shared/httpStream';

describe('LineReader', () => {
	it('joins a line sent in pieces, trims it, and gives blank lines (keep-alives) as empty', () => {
		const reader = new LineReader();
		expect(reader.push('{"a"')).toEqual([]);
		expect(reader.push(':1}\r\n\r\n{"b":')).toEqual(['{"a":1}', '']);
		expect(reader.push(Buffer.from('2}\r\n'))).toEqual(['{"b":2}']);
	});

	it('throws LineTooLongError once an unended line passes the maximum, and reads on after it', () => {
		const reader = new LineReader(10);
		expect(reader.push('0123456789')).toEqual([]);
		expect(() => reader.push('x')).toThrow(LineTooLongError);
		// What it held is dropped: the next line is read whole.
		expect(reader.push('ok\n')).toEqual(['ok']);
	});

	it('throws for an over-long line that ends within one piece too', () => {
		const reader = new LineReader(10);
		expect(() => reader.push('short\n0123456789abc\nnext\n')).toThrow(LineTooLongError);
		expect(reader.push('after\n')).toEqual(['after']);
	});

	it('reads a character whose bytes are split across chunks (an emoji in a post, cut at every byte)', () => {
		const line = '{"text":"caf\u00e9 \ud83d\ude00 \u6f22"}';
		const bytes = Buffer.from(`${line}\n`, 'utf8');
		for (let cut = 1; cut < bytes.length; cut++) {
			const reader = new LineReader();
			expect([...reader.push(bytes.subarray(0, cut)), ...reader.push(bytes.subarray(cut))]).toEqual(
				[line],
			);
		}
	});

	it('takes a line of exactly the maximum', () => {
		const reader = new LineReader(10);
		expect(reader.push('0123456789\n')).toEqual(['0123456789']);
	});
});
