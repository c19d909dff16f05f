import nock from 'nock';

import { BASE } from '../helpers/context';
import { run, runFailing, setupNock } from './helpers';

setupNock();

describe('Media → Set Alt Text', () => {
	it('posts the metadata body', async () => {
		nock(BASE)
			.post('/2/media/metadata', { id: '777', metadata: { alt_text: { text: 'A cat' } } })
			.reply(200, {});
		const { output } = await run({
			resource: 'media',
			operation: 'setAltText',
			mediaId: '777',
			altText: 'A cat',
		});
		expect(output[0].json).toEqual({ media_id: '777', alt_text: 'A cat' });
	});

	it('refuses alt text over 1,000 characters before any request', async () => {
		const { error, requests } = await runFailing({
			resource: 'media',
			operation: 'setAltText',
			mediaId: '777',
			altText: 'x'.repeat(1001),
		});
		expect(error.message).toBe(
			'Invalid input in item 1: Alt Text: at most 1000 characters (got 1001)',
		);
		expect(requests).toHaveLength(0);
	});
});
