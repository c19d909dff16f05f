import { z } from 'zod';

import { postFields } from '../../shared/post';

/** scheduled_at: an ISO 8601 date-time in the future (checked against `now`). */
export function scheduledAt(now: Date) {
	return z
		.string()
		.refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 date-time')
		.refine((v) => Date.parse(v) > now.getTime(), 'must be in the future');
}

export function scheduledPostSchema(now: Date) {
	return z
		.object({ ...postFields, scheduled_at: scheduledAt(now) })
		.strict()
		.superRefine((post, ctx) => {
			if (!post.text && !post.media_keys?.length) {
				ctx.addIssue({
					code: 'custom',
					path: ['text'],
					message: 'is required when there is no media',
				});
			}
		});
}

export function scheduledPostUpdateSchema(now: Date) {
	return z
		.object({ ...postFields, scheduled_at: scheduledAt(now) })
		.partial()
		.strict()
		.refine((v) => Object.keys(v).length > 0, 'nothing to update: add a field');
}
