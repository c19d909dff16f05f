import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { KINDS } from '../../kinds';
import { listOperation } from '../../operations';

export const getMany = listOperation(KINDS.mediaLibrary, {
	filters: [
		{
			displayName: 'Media Type',
			name: 'mediaType',
			type: 'options',
			default: '',
			options: [
				{ name: 'Any', value: '' },
				{ name: 'GIF', value: 'GIF' },
				{ name: 'Image', value: 'IMAGE' },
				{ name: 'Video', value: 'VIDEO' },
			],
		},
		{
			displayName: 'Search Term',
			name: 'q',
			type: 'string',
			default: '',
			description:
				'Matches name, title, file name and description (1-255 characters, case-insensitive)',
		},
	],
	readFilters(ctx: IExecuteFunctions, itemIndex: number, f: IDataObject) {
		const q = String(f.q ?? '');
		if (q.length > 255) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Search Term: at most 255 characters`,
				{ itemIndex },
			);
		}
		return { media_type: f.mediaType || undefined, q: q || undefined };
	},
});
