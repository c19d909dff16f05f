/**
 * Errors are identified by the fields the transport puts on them (HTTP status, Problem type, error
 * code, parameter, no answer), never by their text. Each caller is tested both ways: the same code
 * with another message is still recognised, and the same message with another code is not.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import nock from 'nock';

import { apiError, errorInfo, rateLimitOfError } from '../../nodes/shared/errors';
import { ruleError } from '../../nodes/shared/streamRules';
import { CREDENTIAL_TYPES, platformRequest } from '../../nodes/shared/transport';
import { recoverMissedEvents } from '../../nodes/triggers/webhook/lifecycle';
import { ADS_BASE, BASE, createContext } from '../helpers/context';
import { runFailure } from '../catalog/helpers';
import { node as postsNode } from '../posts/helpers';

const PROBLEM = 'https://api.x.com/2/problems/';
const NODE: INode = {
	id: 'n',
	name: 'Test',
	type: 'test',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

async function rejection(promise: Promise<unknown>): Promise<Error & { description?: string }> {
	try {
		await promise;
	} catch (error) {
		return error as Error & { description?: string };
	}
	throw new Error('expected a failure');
}

describe('errorInfo: what the transport puts on an error', () => {
	it('a Problem: status and type suffix (any host)', async () => {
		nock(BASE)
			.get('/2/x')
			.reply(404, {
				type: `https://other.host${'/2/problems/'}resource-not-found`,
				title: 'Not Found',
				parameter: 'id',
			});
		const { context } = createContext({ parameters: { authentication: CREDENTIAL_TYPES.hmac } });
		const error = await rejection(platformRequest.call(context, { method: 'GET', path: '/2/x' }));
		expect(errorInfo(error)).toEqual({
			httpStatus: 404,
			type: 'resource-not-found',
			parameter: 'id',
		});
	});

	it('a Problem inside an errors array, a legacy code, an advertising code and its parameter', () => {
		expect(
			errorInfo(apiError(NODE, 409, { errors: [{ type: `${PROBLEM}conflict`, title: 'x' }] })),
		).toEqual({ httpStatus: 409, type: 'conflict' });
		expect(errorInfo(apiError(NODE, 401, { errors: [{ code: 89, message: 'x' }] }))).toEqual({
			httpStatus: 401,
			code: '89',
		});
		expect(
			errorInfo(
				apiError(NODE, 400, {
					errors: [{ code: 'INVALID_PARAMETER', message: 'x', parameter: 'user_id' }],
				}),
			),
		).toEqual({ httpStatus: 400, code: 'INVALID_PARAMETER', parameter: 'user_id' });
	});

	it('a webhook failure reason becomes the code', () => {
		const info = errorInfo(
			apiError(NODE, 400, { errors: [{ message: 'UrlValidationFailed: must be https' }] }),
		);
		expect(info.code).toBe('UrlValidationFailed');
	});

	it('a request that got no answer says so, with the network code', async () => {
		nock(BASE).post('/2/y').replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
		const { context } = createContext({ parameters: { authentication: CREDENTIAL_TYPES.hmac } });
		const error = await rejection(
			platformRequest.call(context, { method: 'POST', path: '/2/y', body: {} }),
		);
		expect(errorInfo(error)).toEqual({ noAnswer: true, networkCode: 'ECONNRESET' });
	});

	it('an error that does not come from the service carries nothing', () => {
		expect(errorInfo(new Error('Request failed with status 409'))).toEqual({});
		expect(errorInfo(undefined)).toEqual({});
	});

	it('a refused stream rule (inside a 200 answer) carries its Problem type', () => {
		const error = ruleError(
			NODE,
			{ errors: [{ type: `${PROBLEM}rule-cap`, title: 'RuleCap' }] },
			'Adding the rules',
		);
		expect(errorInfo(error).type).toBe('rule-cap');
	});
});

describe('rateLimitOfError reads the status, not the text', () => {
	it('a 429 with another message is a rate limit; a 400 that reads like one is not', () => {
		const limited = apiError(NODE, 429, {}, { rateLimit: { kind: 'userDaily' } });
		limited.message = 'something else entirely';
		expect(rateLimitOfError(limited)).toEqual({ resetAt: null, kind: 'userDaily' });

		const lookalike = apiError(NODE, 400, { title: 'Rate limit reached (15-minute window)' });
		expect(lookalike.message).toBe('Rate limit reached (15-minute window)');
		expect(rateLimitOfError(lookalike)).toBeUndefined();
	});
});

describe('trigger: a running replay job is recognised by the conflict type', () => {
	const hook = () =>
		createContext({
			parameters: { options: {} },
			staticData: { webhookId: '111', lastReceivedAt: '2026-11-22T09:30:10Z' },
			extra: { getWorkflow: () => ({ id: 'wf1' }) },
		});
	const now = new Date('2026-11-22T12:00:30Z');

	it('the conflict type with any wording is skipped', async () => {
		nock(BASE)
			.post('/2/webhooks/replay')
			.reply(409, { type: `${PROBLEM}conflict`, title: 'Busy', detail: 'Try later' });
		await expect(recoverMissedEvents(hook().context as never, now)).resolves.toBeUndefined();
	});

	it('another type whose text reads like the conflict fails', async () => {
		nock(BASE)
			.post('/2/webhooks/replay')
			.reply(409, {
				type: `${PROBLEM}duplicate`,
				title: 'Conflict',
				detail: 'A replay job is already running for this webhook',
			});
		const error = await rejection(recoverMissedEvents(hook().context as never, now));
		expect(error.message).toBe('A replay job is already running for this webhook');
		expect(errorInfo(error).type).toBe('duplicate');
	});
});

describe('catalog create: "one catalog per user" is recognised by code and parameter', () => {
	const params = { resource: 'catalog', operation: 'create', name: 'Second' };
	const refusal = (code: string, parameter: string, message: string) =>
		nock(ADS_BASE)
			.post('/12/product_catalogs')
			.query(true)
			.reply(400, { errors: [{ code, message, parameter }], request: { params: {} } });

	it('INVALID_PARAMETER on user_id with any wording', async () => {
		refusal('INVALID_PARAMETER', 'user_id', 'Owner limit reached');
		const error = await runFailure(params);
		expect(error.message).toBe(
			'This user already has a product catalog: the service allows only one per user',
		);
	});

	it('DUPLICATE with any wording', async () => {
		refusal('DUPLICATE', 'name', 'Exists');
		const error = await runFailure(params);
		expect(error.message).toMatch(/already has a product catalog/);
	});

	it('the same wording on another parameter is the service refusal as it is', async () => {
		refusal('INVALID_PARAMETER', 'name', 'A user can create only one product catalog');
		const error = await runFailure(params);
		expect(error.message).toBe('A user can create only one product catalog (parameter "name")');
	});
});

describe('post create: "no answer" is recognised from the failure, not from its text', () => {
	/** Runs Post > Create with n8n's helper replaced by one that throws `thrown`. */
	async function createFailing(thrown: unknown) {
		const built = createContext({
			parameters: {
				authentication: CREDENTIAL_TYPES.pkce,
				resource: 'post',
				operation: 'create',
				text: 'hello',
				additionalFields: {},
				options: {},
			},
		});
		const helpers = (built.context as unknown as { helpers: IDataObject }).helpers;
		let calls = 0;
		helpers.httpRequestWithAuthentication = async () => {
			calls++;
			throw thrown;
		};
		const error = await rejection(postsNode.execute.call(built.context));
		return { error, calls };
	}

	it('n8n wraps a timeout in its own NodeApiError: said as not answered, not retried', async () => {
		const timeout = Object.assign(new Error('socket timeout'), { code: 'ETIMEDOUT' });
		const { error, calls } = await createFailing(new NodeApiError(NODE, timeout as never));
		expect(calls).toBe(1);
		expect(error.message).toBe(
			'The request to create the post got no answer from the service (ETIMEDOUT: socket timeout); it was not retried',
		);
		expect(error.description).toContain('may have been published');
		expect(errorInfo(error)).toEqual({ noAnswer: true, networkCode: 'ETIMEDOUT' });
	});

	it('an n8n error with an answer passes through, whatever its text says', async () => {
		const answered = Object.assign(new Error('timeout'), {
			code: 'ETIMEDOUT',
			response: { status: 500, data: {} },
		});
		const thrown = new NodeApiError(NODE, answered as never, {
			message: 'The connection timed out, got no answer',
		});
		const { error } = await createFailing(thrown);
		expect(error).toBe(thrown);
		expect(errorInfo(error).noAnswer).toBeUndefined();
	});
});

describe('a GET without an answer is retried, however n8n wraps the failure', () => {
	it('n8n wraps a reset connection in its own NodeApiError: the GET is sent again and succeeds', async () => {
		const built = createContext({ parameters: { authentication: CREDENTIAL_TYPES.pkce } });
		const helpers = (built.context as unknown as { helpers: IDataObject }).helpers;
		let calls = 0;
		helpers.httpRequestWithAuthentication = async () => {
			calls++;
			if (calls === 1) {
				const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
				throw new NodeApiError(NODE, reset as never);
			}
			// The transport asks n8n for the full response.
			return { statusCode: 200, headers: {}, body: { data: { id: '7' } } };
		};
		const body = await platformRequest.call(built.context, { method: 'GET', path: '/2/users/me' });
		expect(calls).toBe(2);
		expect(body).toEqual({ data: { id: '7' } });
	});

	it('a wrapped failure with an answer is not retried', async () => {
		const built = createContext({ parameters: { authentication: CREDENTIAL_TYPES.pkce } });
		const helpers = (built.context as unknown as { helpers: IDataObject }).helpers;
		let calls = 0;
		const answered = Object.assign(new Error('bad request'), {
			code: 'ERR_BAD_REQUEST',
			response: { status: 400, data: {} },
		});
		helpers.httpRequestWithAuthentication = async () => {
			calls++;
			throw new NodeApiError(NODE, answered as never);
		};
		await expect(
			platformRequest.call(built.context, { method: 'GET', path: '/2/users/me' }),
		).rejects.toBeInstanceOf(NodeApiError);
		expect(calls).toBe(1);
	});
});
