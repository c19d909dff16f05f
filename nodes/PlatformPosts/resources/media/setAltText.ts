import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { optionsCollection, postsRequest, requireUserContext } from '../../common';
import { mediaIdProperty } from './fields';

const OP = 'setAltText';
const show = showFor('media', OP);
export const MAX_ALT_TEXT = 1000;

/**
 * Sets the alt text of uploaded media (images and GIFs) with POST /2/media/metadata. Exported so
 * that Post → Create can describe each image it attaches.
 */
export async function setAltText(
	this: IExecuteFunctions,
	itemIndex: number,
	mediaId: string,
	altText: string,
): Promise<IDataObject> {
	const invalid = (message: string) =>
		new NodeOperationError(this.getNode(), `Invalid input in item ${itemIndex + 1}: ${message}`, { itemIndex });
	if (!/^\d{1,19}$/.test(mediaId)) throw invalid(`Media ID: "${mediaId}" is not a media ID (1-19 digits)`);
	if (!altText.trim()) throw invalid('Alt Text is empty');
	if (altText.length > MAX_ALT_TEXT) throw invalid(`Alt Text: at most ${MAX_ALT_TEXT} characters (got ${altText.length})`);
	const response = await postsRequest.call(this, itemIndex, {
		method: 'POST',
		path: '/2/media/metadata',
		body: { id: mediaId, metadata: { alt_text: { text: altText } } },
		// Setting the same alt text twice has the same effect: safe to retry.
		retryTransient: true,
	});
	const data = unwrapData<IDataObject>(response);
	return { media_id: mediaId, alt_text: altText, ...(data && typeof data === 'object' ? data : {}) };
}

export const setAltTextOperation: ItemOperation = {
	option: {
		name: 'Set Alt Text',
		value: OP,
		description:
			'Describe an uploaded image or GIF for people using screen readers (alt text, up to 1,000 characters). Set it before the media is attached to a post. Needs a user-context credential (OAuth2 scope media.write).',
		action: 'Set the alt text of media',
	},
	properties: [
		mediaIdProperty(show, 'The ID of the uploaded image or GIF'),
		{
			displayName: 'Alt Text',
			name: 'altText',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			required: true,
			displayOptions: show,
			description: 'What the image shows, up to 1,000 characters',
		},
		optionsCollection('media', OP),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		requireUserContext(this, itemIndex, 'Setting alt text');
		const mediaId = String(this.getNodeParameter('mediaId', itemIndex, '') ?? '').trim();
		const altText = String(this.getNodeParameter('altText', itemIndex, '') ?? '');
		return await setAltText.call(this, itemIndex, mediaId, altText);
	},
};
