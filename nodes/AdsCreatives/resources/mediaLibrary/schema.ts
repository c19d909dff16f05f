import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { mediaKey } from '../../shared/fields';

/** Names of a media library object within the limits the service publishes. */
export const libraryFields = z
	.object({
		name: z.string().max(100, 'at most 100 characters'),
		file_name: z.string().max(255, 'at most 255 characters'),
		title: z.string().max(70, 'at most 70 characters'),
		description: z.string().max(200, 'at most 200 characters'),
		poster_media_key: mediaKey,
	})
	.partial()
	.strict();

export const LABELS: Record<string, string> = {
	media_key: 'Media Key',
	name: 'Name',
	file_name: 'File Name',
	title: 'Title',
	description: 'Description',
	poster_media_key: 'Poster Media Key',
	'': 'Fields',
};

export const fieldOptions: INodeProperties[] = [
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		default: '',
		description:
			'Videos only, at most 200 characters; shown in a post only with its video description',
	},
	{
		displayName: 'File Name',
		name: 'file_name',
		type: 'string',
		default: '',
		description: 'At most 255 characters',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		description: 'At most 100 characters (the UI shows "Untitled" when unset)',
	},
	{
		displayName: 'Poster Media Key',
		name: 'poster_media_key',
		type: 'string',
		default: '',
		description: 'Videos only: poster image; the first frame when unset',
	},
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		description: 'Videos only, at most 70 characters',
	},
];
