import nock from 'nock';

import { BASE } from '../helpers/context';
import { rl, run, runFailing, setupNock } from './helpers';

setupNock();

describe('Community Note', () => {
	it('refuses a note without a source URL before any request', async () => {
		const { error, requests } = await runFailing({
			resource: 'communityNote',
			operation: 'create',
			postId: rl('5'),
			text: 'This is wrong, see www.example.org or http:// nothing',
			classification: 'not_misleading',
			testMode: true,
		});
		expect(error.message).toBe(
			'Invalid input in item 1: Text: a community note must contain a source URL (http:// or https://)',
		);
		expect(requests).toHaveLength(0);
	});

	it('submits in test mode by default with classification, tags and sources', async () => {
		nock(BASE)
			.post('/2/notes', {
				test_mode: true,
				post_id: '5',
				info: {
					text: 'Outdated figure, see https://example.org/report',
					classification: 'misinformed_or_potentially_misleading',
					trustworthy_sources: true,
					misleading_tags: ['outdated_information'],
				},
			})
			.reply(200, { data: { note_id: '88' } });
		const { output } = await run({
			resource: 'communityNote',
			operation: 'create',
			postId: rl('https://x.com/a/status/5', 'url'),
			text: 'Outdated figure, see https://example.org/report',
			misleadingTags: ['outdated_information'],
		});
		expect(output[0].json).toEqual({ note_id: '88', post_id: '5' });
	});

	const note = (extra: Record<string, unknown>) => ({
		resource: 'communityNote',
		operation: 'create',
		postId: rl('5'),
		text: 'Context: https://example.org/report',
		...extra,
	});

	it('sends misleading_tags empty for a note saying the post is not misleading (the service requires the field)', async () => {
		nock(BASE)
			.post('/2/notes', {
				test_mode: true,
				post_id: '5',
				info: {
					text: 'Context: https://example.org/report',
					classification: 'not_misleading',
					misleading_tags: [],
					trustworthy_sources: false,
				},
			})
			.reply(200, { data: { id: '89' } });
		const { output } = await run(
			note({
				classification: 'not_misleading',
				trustworthySources: false,
				misleadingTags: ['other'],
			}),
		);
		expect(output[0].json).toEqual({ id: '89', note_id: '89', post_id: '5' });
	});

	it.each([
		[
			'a misleading note without a reason',
			{ misleadingTags: [] },
			'Invalid input in item 1: Misleading Tags: choose at least one reason why the post is misleading',
		],
		[
			'a reason the service does not know',
			{ misleadingTags: ['other', 'rude'] },
			'Invalid input in item 1: Misleading Tags #2: must be one of disputed_claim_as_fact, factual_error, manipulated_media, misinterpreted_satire, missing_important_context, other, outdated_information',
		],
		[
			'a classification the service does not know',
			{ classification: 'unsure' },
			'Invalid input in item 1: Classification: must be one of misinformed_or_potentially_misleading, not_misleading',
		],
		[
			'test mode given as text',
			{ misleadingTags: ['other'], testMode: 'yes' },
			'Invalid input in item 1: Test Mode: Expected boolean, received string',
		],
	])('refuses %s before any request', async (_what, extra, message) => {
		const { error, requests } = await runFailing(note(extra));
		expect(error.message).toBe(message);
		expect(requests).toHaveLength(0);
	});

	it('evaluates a draft, falling back to the newer path on 404', async () => {
		nock(BASE)
			.post('/2/evaluate_note', { note_text: 'Draft https://a.org', post_id: '5' })
			.reply(404, { title: 'Not Found', type: 'about:blank', status: 404, detail: 'Not Found' })
			.post('/2/notes/evaluate', { note_text: 'Draft https://a.org', post_id: '5' })
			.reply(200, { data: { claim_opinion_score: 0.42 } });
		const { output } = await run({
			resource: 'communityNote',
			operation: 'evaluate',
			postId: rl('5'),
			noteText: 'Draft https://a.org',
		});
		expect(output[0].json).toEqual({ post_id: '5', claim_opinion_score: 0.42 });
	});

	it('lists eligible posts and written notes in test mode, up to the limit', async () => {
		nock(BASE)
			.get('/2/notes/search/posts_eligible_for_notes')
			.query({ test_mode: 'true', max_results: '2' })
			.reply(200, { data: [{ id: '1' }, { id: '2' }], meta: { next_token: 'x' } });
		const eligible = await run({
			resource: 'communityNote',
			operation: 'getEligiblePosts',
			testMode: true,
			returnAll: false,
			limit: 2,
		});
		expect(eligible.output.map((o) => o.json.id)).toEqual(['1', '2']);
		expect(eligible.requests).toHaveLength(1);
		nock(BASE)
			.get('/2/notes/search/notes_written')
			.query({ test_mode: 'true', max_results: '100', 'note.fields': 'status,test_result' })
			.reply(200, { data: [{ id: 'n1', status: 'needs_more_ratings' }] });
		const written = await run({
			resource: 'communityNote',
			operation: 'getManyWritten',
			returnAll: true,
			noteFields: ['status', 'test_result'],
		});
		expect(written.output[0].json).toEqual({ id: 'n1', status: 'needs_more_ratings' });
	});
});
