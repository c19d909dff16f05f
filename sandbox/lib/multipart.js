'use strict';
/** A minimal multipart/form-data parser: returns {field: {value (string), data (Buffer), filename, contentType}}. */

function parseMultipart(raw, contentType) {
	const match = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
	if (!match) return {};
	const boundary = Buffer.from('--' + (match[1] || match[2]).trim());
	const fields = {};
	let start = raw.indexOf(boundary);
	for (let guard = 0; start !== -1 && guard < 1000; guard++) {
		const partStart = start + boundary.length;
		if (raw.slice(partStart, partStart + 2).toString() === '--') break;
		const next = raw.indexOf(boundary, partStart);
		if (next === -1) break;
		// Part = CRLF headers CRLF CRLF body CRLF
		let part = raw.slice(partStart, next);
		if (part.slice(0, 2).toString() === '\r\n') part = part.slice(2);
		if (part.slice(-2).toString() === '\r\n') part = part.slice(0, -2);
		const headerEnd = part.indexOf('\r\n\r\n');
		if (headerEnd !== -1) {
			const headerText = part.slice(0, headerEnd).toString('utf8');
			const data = part.slice(headerEnd + 4);
			const disposition =
				/content-disposition:[^\r\n]*name="([^"]*)"(?:;\s*filename="([^"]*)")?/i.exec(headerText);
			const type = /content-type:\s*([^\r\n]+)/i.exec(headerText);
			if (disposition) {
				fields[disposition[1]] = {
					value: data.toString('utf8'),
					data,
					filename: disposition[2],
					contentType: type ? type[1].trim() : undefined,
				};
			}
		}
		start = next;
	}
	return fields;
}

module.exports = { parseMultipart };
