/**
 * What the webhook trigger accepts as a delivery before any event is looked at: the body's bytes as
 * n8n hands them over, their size, the signature's header, and a body that is JSON but not an object.
 * Found missing by mutation testing of receive.ts (bench/results/mutation.md, "receive.ts").
 */
import type { IDataObject } from 'n8n-workflow';

import { MAX_BODY_BYTES, receiveDelivery } from '../../nodes/triggers/webhook/receive';
import { DeliveryMemory } from '../../nodes/triggers/webhook/state';
import { answerOf, recordedIds, sign, webhookContext } from './helpers';

const at = new Date('2026-11-22T10:00:00Z');
const envelope = (id: string) =>
	JSON.stringify({ data: { event_uuid: id, event_type: 'post.create', payload: { id } } });

/** A delivery whose request object is `request` (n8n's express request, as far as the trigger reads it). */
function withRequest(request: IDataObject, signature: string, parameters?: IDataObject) {
	const built = webhookContext({
		headers: { 'x-platform-webhooks-signature': signature },
		parameters,
		workflowId: 'wf-request',
	});
	(built.context as unknown as { getRequestObject: () => IDataObject }).getRequestObject = () =>
		request;
	return built;
}

describe('the body of a delivery', () => {
	it('is read through n8n’s raw body reader when n8n has not read it yet (n8n reads it only for some content types)', async () => {
		const raw = Buffer.from(envelope('raw-1'));
		let reads = 0;
		const request: IDataObject = {};
		request.readRawBody = async () => {
			reads++;
			// n8n's rawBodyReader (middlewares/body-parser.js): fills rawBody once.
			if (!request.rawBody) request.rawBody = raw;
		};
		const { context } = withRequest(request, sign(raw));
		const result = await receiveDelivery(context, at, 0, new DeliveryMemory());
		expect(reads).toBe(1);
		expect(result.workflowData?.[0].map((i) => i.json.event_id)).toEqual(['raw-1']);
	});

	it('is refused 400 with a warning when there is none and no reader', async () => {
		const built = withRequest({}, sign(''));
		const result = await receiveDelivery(built.context, at, 0, new DeliveryMemory());
		expect(answerOf(result, built.captured)).toEqual({ status: 400, body: { error: 'no body' } });
		expect(result.workflowData).toBeUndefined();
		expect(built.logs).toEqual([
			expect.objectContaining({
				level: 'warn',
				message: 'Platform Trigger: a delivery without a readable body was refused',
			}),
		]);
	});

	it(`may be ${MAX_BODY_BYTES} bytes long, not one more`, async () => {
		for (const [length, status, error] of [
			[MAX_BODY_BYTES, 400, 'body is not JSON'],
			[MAX_BODY_BYTES + 1, 413, 'body too large'],
		] as const) {
			const raw = Buffer.alloc(length, 0x20);
			const built = webhookContext({
				raw,
				headers: { 'x-platform-webhooks-signature': sign(raw) },
			});
			const result = await receiveDelivery(built.context, at, 0, new DeliveryMemory());
			expect(answerOf(result, built.captured)).toEqual({ status, body: { error } });
		}
	});

	it.each([['null'], ['42'], ['"text"'], ['true'], ['[]']])(
		'that is JSON but not an object (%s) is refused 400 and runs nothing',
		async (text) => {
			const raw = Buffer.from(text);
			const built = webhookContext({
				raw,
				headers: { 'x-platform-webhooks-signature': sign(raw) },
			});
			const result = await receiveDelivery(built.context, at, 0, new DeliveryMemory());
			expect(answerOf(result, built.captured)).toEqual({
				status: 400,
				body: { error: 'body is not a JSON object' },
			});
			expect(result.workflowData).toBeUndefined();
		},
	);

	it('that is not JSON is refused 400 saying so; a wrong signature 401', async () => {
		const raw = Buffer.from('{"data":');
		const notJson = webhookContext({
			raw,
			headers: { 'x-platform-webhooks-signature': sign(raw) },
		});
		expect(
			answerOf(
				await receiveDelivery(notJson.context, at, 0, new DeliveryMemory()),
				notJson.captured,
			),
		).toEqual({ status: 400, body: { error: 'body is not JSON' } });
		const forged = webhookContext({
			raw,
			headers: { 'x-platform-webhooks-signature': sign(raw, 'not-the-secret') },
		});
		expect(
			answerOf(await receiveDelivery(forged.context, at, 0, new DeliveryMemory()), forged.captured),
		).toEqual({ status: 401, body: { error: 'invalid signature' } });
	});
});

describe('the signature header', () => {
	it('is the service’s own when the Signature Header option is left empty', async () => {
		const raw = Buffer.from(envelope('hdr-1'));
		const built = webhookContext({
			raw,
			headers: { 'x-platform-webhooks-signature': sign(raw) },
			parameters: { events: ['post.create'], options: { signatureHeader: '' } },
		});
		const result = await receiveDelivery(built.context, at, 0, new DeliveryMemory());
		expect(result.workflowData?.[0].map((i) => i.json.event_id)).toEqual(['hdr-1']);
	});
});

describe('a response object without events (not an express response)', () => {
	it('still runs the delivery once and records its event when n8n reads the answer', async () => {
		const staticData: IDataObject = {};
		const raw = Buffer.from(envelope('plain-1'));
		const memory = new DeliveryMemory();
		const deliver = async () => {
			const built = webhookContext({
				raw,
				headers: { 'x-platform-webhooks-signature': sign(raw) },
				staticData,
				workflowId: 'wf-plain',
			});
			const plain = { status: () => plain, json: () => plain };
			(built.context as unknown as { getResponseObject: () => unknown }).getResponseObject = () =>
				plain;
			return await receiveDelivery(built.context, at, 0, memory);
		};
		const first = await deliver();
		expect(first.workflowData?.[0].map((i) => i.json.event_id)).toEqual(['plain-1']);
		expect(first.webhookResponse).toEqual({ ok: true, events: 1 });
		expect(recordedIds(staticData, ['plain-1'])).toEqual(['plain-1']);
		// A copy afterwards is a duplicate.
		const again = await deliver();
		expect(again.workflowData).toBeUndefined();
	});
});
