import type { IDataObject } from 'n8n-workflow';

/**
 * Post reads answer `{data, includes}`: expanded objects (authors, media, polls, referenced posts) sit
 * in `includes`, keyed by id. Post reads of every node put them beside each post.
 */

function byKey(list: unknown, key: string): Map<string, IDataObject> {
	return new Map(
		((Array.isArray(list) ? list : []) as IDataObject[]).map((o) => [String(o[key]), o]),
	);
}

/** Puts each post's expanded objects (from `includes`) beside it. */
export function mergeIncludes(body: IDataObject): IDataObject[] {
	const posts = (
		Array.isArray(body.data) ? body.data : body.data ? [body.data] : []
	) as IDataObject[];
	const includes = (body.includes ?? {}) as IDataObject;
	const users = byKey(includes.users, 'id');
	const media = byKey(includes.media, 'media_key');
	const tweets = byKey(includes.tweets, 'id');
	const polls = byKey(includes.polls, 'id');
	return posts.map((post) => {
		const merged: IDataObject = { ...post };
		if (post.author_id && users.has(String(post.author_id)))
			merged.author = users.get(String(post.author_id));
		if (post.in_reply_to_user_id && users.has(String(post.in_reply_to_user_id))) {
			merged.in_reply_to_user = users.get(String(post.in_reply_to_user_id));
		}
		const attachments = (post.attachments ?? {}) as IDataObject;
		const keys = (attachments.media_keys ?? []) as string[];
		if (keys.length && media.size)
			merged.media = keys.map((k) => media.get(String(k))).filter(Boolean) as IDataObject[];
		const pollIds = (attachments.poll_ids ?? []) as string[];
		if (pollIds.length && polls.size) merged.poll = polls.get(String(pollIds[0]));
		const refs = (post.referenced_tweets ?? []) as IDataObject[];
		if (refs.length && tweets.size) {
			merged.referenced_posts = refs
				.map((r) =>
					tweets.has(String(r.id)) ? { type: r.type, ...tweets.get(String(r.id)) } : undefined,
				)
				.filter(Boolean) as IDataObject[];
		}
		return merged;
	});
}
