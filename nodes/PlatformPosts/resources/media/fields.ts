import type { INodeProperties } from 'n8n-workflow';

/** The Media ID field of the operations on an uploaded file (the id the upload returned). */
export function mediaIdProperty(description: string): INodeProperties {
	return {
		displayName: 'Media ID',
		name: 'mediaId',
		type: 'string',
		default: '',
		required: true,
		placeholder: '1455952740635586573',
		description,
	};
}
