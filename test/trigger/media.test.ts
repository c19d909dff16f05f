import { normalizeDelivery } from '../../nodes/triggers/shared/events';
import { attachedMedia } from '../../nodes/triggers/shared/media';

const at = new Date('2026-01-01T00:00:00Z');

describe('Platform Trigger: media of a delivered post', () => {
	it('puts the URL of the attached image from includes.media on the item', () => {
		const [event] = normalizeDelivery(
			{
				data: {
					event_type: 'post.create',
					event_uuid: 'e1',
					payload: { id: '1', text: 'hi', attachments: { media_keys: ['3_5'] } },
					includes: {
						media: [
							{ media_key: '3_9', type: 'photo', url: 'https://x/9' },
							{ media_key: '3_5', type: 'photo', url: 'https://x/5', alt_text: 'A bike' },
						],
					},
				},
			},
			at,
		);
		expect(event.media).toEqual([
			{ media_key: '3_5', type: 'photo', url: 'https://x/5', alt_text: 'A bike' },
		]);
		expect(event.media_url).toBe('https://x/5');
	});

	it('uses the preview image of a video, and leaves events without media as they were', () => {
		expect(
			attachedMedia(
				{ attachments: { media_keys: ['13_1'] } },
				{ media: [{ media_key: '13_1', type: 'video', preview_image_url: 'https://x/p' }] },
			),
		).toEqual({
			media: [{ media_key: '13_1', type: 'video', url: 'https://x/p' }],
			media_url: 'https://x/p',
		});
		const [plain] = normalizeDelivery(
			{
				data: {
					event_type: 'post.create',
					event_uuid: 'e2',
					payload: { id: '2', text: 'no media' },
				},
			},
			at,
		);
		expect(plain).not.toHaveProperty('media');
		expect(attachedMedia({ attachments: { media_keys: ['3_1'] } }, null)).toBeUndefined();
	});
});
