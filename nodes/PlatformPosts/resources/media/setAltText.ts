import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { mediaIdProperty } from './fields';
import { setAltText } from '../../../shared/media';

const OP = 'setAltText';
export const setAltTextOperation: ItemOperation = {
	option: {
		name: 'Set Alt Text',
		value: OP,
		description:
			'Describe an uploaded image or GIF for people using screen readers (alt text, up to 1,000 characters). Set it before the media is attached to a post. Needs a user-context credential (OAuth2 scope media.write).',
		action: 'Set the alt text of media',
	},
	properties: [
		mediaIdProperty('The ID of the uploaded image or GIF'),
		{
			displayName: 'Alt Text',
			name: 'altText',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			required: true,
			description: 'What the image shows, up to 1,000 characters',
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const mediaId = String(ctx.getNodeParameter('mediaId', itemIndex, '') ?? '').trim();
		const altText = String(ctx.getNodeParameter('altText', itemIndex, '') ?? '');
		return await setAltText.call(ctx, itemIndex, mediaId, altText);
	},
};
