import nock from 'nock';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { BASE } from '../helpers/context';

/** A minimal MP4 file whose movie header (moov → mvhd) says `seconds` long, padded to `size` bytes. */
export function mp4(seconds: number, size = 200): Buffer {
	const mvhd = Buffer.alloc(8 + 100);
	mvhd.writeUInt32BE(mvhd.length, 0);
	mvhd.write('mvhd', 4, 'latin1');
	mvhd.writeUInt32BE(1000, 8 + 12); // timescale
	mvhd.writeUInt32BE(seconds * 1000, 8 + 16); // duration
	const moov = Buffer.concat([Buffer.alloc(8), mvhd]);
	moov.writeUInt32BE(moov.length, 0);
	moov.write('moov', 4, 'latin1');
	const ftyp = Buffer.from('00000010667479706d703432000000006d703432', 'hex').subarray(0, 16);
	ftyp.writeUInt32BE(16, 0);
	const head = Buffer.concat([ftyp, moov]);
	if (size <= head.length) return head;
	const mdat = Buffer.alloc(size - head.length);
	mdat.writeUInt32BE(mdat.length, 0);
	mdat.write('mdat', 4, 'latin1');
	return Buffer.concat([head, mdat]);
}

export function fileItem(
	data: Buffer,
	mimeType: string,
	fileName: string,
	property = 'data',
	json: IDataObject = {},
): INodeExecutionData {
	return { json, binary: { [property]: { data: data.toString('base64'), mimeType, fileName } } };
}

export interface UploadRecord {
	init?: IDataObject;
	segments: Array<{ index: number; size: number }>;
}

/**
 * Answers one chunked upload: initialize (with the id and media key), `appends` appends, finalize,
 * then one STATUS answer per entry of `states` (empty: the media is ready at finalize).
 */
export function mockUpload(
	id: string,
	mediaKey: string,
	options: { appends?: number; states?: IDataObject[] } = {},
): UploadRecord {
	const record: UploadRecord = { segments: [] };
	const states = options.states ?? [];
	const scope = nock(BASE)
		.post('/2/media/upload/initialize', (b) => {
			record.init = b;
			return true;
		})
		.reply(200, { data: { id, media_key: mediaKey, expires_after_secs: 86400 } })
		.post(`/2/media/upload/${id}/append`, (b) => {
			record.segments.push({ index: b.segment_index, size: Buffer.from(b.media, 'base64').length });
			return true;
		})
		.times(options.appends ?? 1)
		.reply(200, {})
		.post(`/2/media/upload/${id}/finalize`)
		.reply(
			200,
			states.length
				? {
						data: {
							id,
							media_key: mediaKey,
							processing_info: { state: 'pending', check_after_secs: 2 },
						},
					}
				: { data: { id, media_key: mediaKey, size: 1 } },
		);
	for (const info of states) {
		scope
			.get('/2/media/upload')
			.query({ command: 'STATUS', media_id: id })
			.reply(200, { data: { id, media_key: mediaKey, processing_info: info } });
	}
	return record;
}
