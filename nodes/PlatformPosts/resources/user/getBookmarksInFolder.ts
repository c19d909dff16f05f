import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { OAUTH2_USER } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { authenticatedUserId } from '../../users';

export const getBookmarksInFolder: ItemOperation = {
	option: {
		name: 'Get Bookmarks in Folder',
		value: 'getBookmarksInFolder',
		description:
			"List the IDs of the posts in one of the authenticated user's bookmark folders. Needs the OAuth2 credential (scope bookmark.read).",
		action: 'Get the bookmarks in a folder',
	},
	properties: [
		{
			displayName: 'Folder ID',
			name: 'folderId',
			type: 'string',
			default: '',
			required: true,
			placeholder: '1146654567674912769',
			description: 'The bookmark folder, by its ID (Get Bookmark Folders lists them)',
		},
	],
	authentication: OAUTH2_USER,
	async execute(ctx: OperationContext, itemIndex: number) {
		const folderId = validateInput(
			ctx.getNode(),
			z
				.string()
				.trim()
				.regex(/^\d{1,19}$/, 'a folder ID is 1-19 digits'),
			String(ctx.getNodeParameter('folderId', itemIndex, '')),
			itemIndex,
			{ '': 'Folder ID' },
		);
		const me = await authenticatedUserId.call(ctx, itemIndex);
		const body = await ctx.request<IDataObject>({
			method: 'GET',
			path: `/2/users/${me}/bookmarks/folders/${folderId}`,
		});
		const data = (Array.isArray(body?.data) ? body.data : []) as IDataObject[];
		return data.map((post) => ({ ...post, folder_id: folderId }));
	},
};
