import type { IBinaryData, IDataObject } from 'n8n-workflow';

import { checkMedia, uploadMedia, setAltText } from '../../../../shared/media';
import type { OperationContext } from '../../../../shared/router';
import { readComposeInput } from './schema';

/**
 * Reads and validates text and Additional Fields, uploads binary media and returns the body of
 * POST /2/tweets. Nothing is sent before the whole input has been validated. `attached` receives
 * what the post carries (media ids; for uploads also the media key, binary property and alt text).
 */
export async function composeBody(
	this: OperationContext,
	itemIndex: number,
	attached?: IDataObject[],
): Promise<IDataObject> {
	const { text, fields, binaries, input } = readComposeInput.call(this, itemIndex);
	const files = await checkAttachments.call(this, itemIndex, binaries);
	const mediaIds = await uploadAttachments.call(
		this,
		itemIndex,
		files,
		input.mediaIds ?? [],
		input.altTexts ?? [],
		attached,
	);

	const body: IDataObject = {};
	if (text) body.text = text;
	if (mediaIds.length) {
		body.media = {
			media_ids: mediaIds,
			...(input.taggedUserIds?.length ? { tagged_user_ids: input.taggedUserIds } : {}),
		};
	}
	if (input.replyTo) {
		body.reply = {
			in_reply_to_tweet_id: input.replyTo,
			...(input.excludeReplyUserIds?.length
				? { exclude_reply_user_ids: input.excludeReplyUserIds }
				: {}),
		};
	}
	if (input.quote) body.quote_tweet_id = input.quote;
	if (input.pollOptions)
		body.poll = { options: input.pollOptions, duration_minutes: input.pollDuration };
	if (input.cardUri) body.card_uri = input.cardUri;
	if (fields.replySettings) body.reply_settings = fields.replySettings;
	if (input.communityId) {
		body.community_id = input.communityId;
		if (input.shareWithFollowers) body.share_with_followers = true;
	}
	if (fields.paidPartnership === true) body.paid_partnership = true;
	return body;
}

/** A binary input read and checked (type, size, duration), ready to upload. */
export interface CheckedFile {
	property: string;
	binary: IBinaryData;
	data: Buffer;
}

/** Reads and checks every file (type, size, duration) before the first upload. */
export async function checkAttachments(
	this: OperationContext,
	itemIndex: number,
	binaries: Array<{ property: string; binary: IBinaryData }>,
): Promise<CheckedFile[]> {
	const files: CheckedFile[] = [];
	for (const { property, binary } of binaries) {
		const data = await this.helpers.getBinaryDataBuffer(itemIndex, property);
		checkMedia(this, itemIndex, data, binary, { purpose: 'post', field: property });
		files.push({ property, binary, data });
	}
	return files;
}

/**
 * Uploads checked files (with their alt text) and returns the media ids a post attaches: the given
 * ids first, then the uploads. `attached` receives what the post carries (media ids; for uploads
 * also the media key, binary property and alt text).
 */
export async function uploadAttachments(
	this: OperationContext,
	itemIndex: number,
	files: CheckedFile[],
	existingIds: string[],
	altTexts: Array<{ property: string; text: string }>,
	attached?: IDataObject[],
): Promise<string[]> {
	const mediaIds = [...existingIds];
	for (const id of mediaIds) attached?.push({ id });
	for (const { property, binary, data } of files) {
		const uploaded = await uploadMedia.call(this, itemIndex, data, binary, {
			purpose: 'post',
			field: property,
		});
		const alt = altTexts.find((a) => a.property === property);
		if (alt) await setAltText.call(this, itemIndex, uploaded.id, alt.text);
		mediaIds.push(uploaded.id);
		attached?.push({
			id: uploaded.id,
			...(uploaded.media_key ? { media_key: uploaded.media_key } : {}),
			type: uploaded.type,
			binary_property: property,
			...(binary.fileName ? { file_name: binary.fileName } : {}),
			...(alt ? { alt_text: alt.text } : {}),
		});
	}
	return mediaIds;
}

/** Added to a failed create or edit that may nevertheless have gone through. */
export const MAY_HAVE_PUBLISHED =
	'The post may have been published although the request failed. Look at the account (or search for the text with Post > Search) before running the node again: a repeated create can publish twice.';

export const MAY_HAVE_EDITED =
	'The edit may have gone through although the request failed. Look at the post (Post > Get) before running the node again: a repeated edit can create another version.';

/**
 * Sends a create or edit: never retried (POST), and a failure without an answer from the service
 * (timeout, lost connection) says that the post may have gone through, instead of n8n's generic
 * advice to turn on "Retry on Fail" (which could publish twice).
 */
export async function sendPost(
	this: OperationContext,
	itemIndex: number,
	body: IDataObject,
	what: 'create' | 'edit',
): Promise<IDataObject> {
	return await this.request({
		method: 'POST',
		path: '/2/tweets',
		body,
		retryTransient: false,
		unsafeFailureHint: what === 'create' ? MAY_HAVE_PUBLISHED : MAY_HAVE_EDITED,
		action: `${what} the post`,
	});
}
