import { explainResponse } from '../../nodes/shared/errors';
import { readText } from '../helpers/files';

/**
 * Troubleshooting's 403 section (a read-only app, an OAuth 1.0a token made before read and write)
 * names the messages the user sees: they are what the transport makes of a 403 the service answers.
 * The service's documentation does not show that answer's body, so each shape it may take is held:
 * a Problem with the service's own text, one with a title only, and an answer with no text at all.
 */
describe('the 403 section of Troubleshooting matches what the nodes say', () => {
	const page = readText('docs/troubleshooting.md');
	const section = page.slice(
		page.indexOf('### 403 on posting'),
		page.indexOf('\n## ', page.indexOf('### 403 on posting')),
	);

	it('names the service text, the title and the bare status the transport gives', () => {
		expect(section).toContain('HTTP code 403');
		const detail = explainResponse(403, {
			type: 'about:blank',
			title: 'Forbidden',
			status: 403,
			detail: 'The app may not write.',
		});
		expect(detail.message).toBe('The app may not write.');
		expect(
			explainResponse(403, { type: 'about:blank', title: 'Forbidden', status: 403 }).message,
		).toBe('Forbidden');
		expect(section).toContain('`Forbidden`');
		expect(explainResponse(403, '').message).toBe('Request failed with status 403');
		expect(section).toContain('`Request failed with status 403`');
	});

	it('a repeated text is the duplicate-post message the section points to', () => {
		const duplicate = explainResponse(403, {
			type: 'about:blank',
			title: 'Forbidden',
			status: 403,
			detail: 'You are not allowed to create a Tweet with duplicate content.',
		});
		expect(section).toContain(`\`${duplicate.message}\``);
	});
});
