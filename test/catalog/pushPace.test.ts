import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';
import nock from 'nock';

import { PushPace } from '../../nodes/AdsCatalog/resources/product/pushPace';
import { pushPace, runPush, startPush } from '../../nodes/AdsCatalog/resources/product/pushEngine';
import { ADS_BASE } from '../helpers/context';
import { CATALOG, items, locator, product, putReply, run } from './helpers';

const PATH = `/12/product_catalogs/${CATALOG}/products`;
const NODE = {
	id: 'n',
	name: 'Push',
	type: 'adsCatalog',
	typeVersion: 2,
	position: [0, 0] as [number, number],
	parameters: {},
};

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const params = (options: IDataObject = {}) => ({
	resource: 'product',
	operation: 'push',
	catalogId: locator(CATALOG),
	mapping: 'auto',
	options: { onError: 'continue', ...options },
});

const products = (n: number) => Array.from({ length: n }, (_, i) => product(i));
const nowS = () => Math.floor(Date.now() / 1000);
const windowHeaders = (remaining: number, resetS = nowS() + 900) => ({
	'x-rate-limit-limit': '900',
	'x-rate-limit-remaining': '899',
	'x-rate-limit-reset': String(resetS),
	'x-account-rate-limit-limit': '2000',
	'x-account-rate-limit-remaining': String(remaining),
	'x-account-rate-limit-reset': String(resetS),
});

/**
 * Answers every products PUT after a few ms with the given headers; records the peak of requests in
 * flight, every product id received and the batch sizes.
 */
function service(headers: (call: number) => Record<string, string> = () => ({})) {
	const seen = {
		inFlight: 0,
		peak: 0,
		calls: 0,
		answered: 0,
		/** Requests in flight as each request arrived after the first answer. */
		afterFirstAnswer: [] as number[],
		ids: [] as string[],
		sizes: [] as number[],
	};
	nock(ADS_BASE)
		.put(PATH)
		.times(1000)
		.reply(function (_uri, body, callback) {
			const call = ++seen.calls;
			seen.inFlight++;
			seen.peak = Math.max(seen.peak, seen.inFlight);
			if (seen.answered > 0) seen.afterFirstAnswer.push(seen.inFlight);
			const list = (body as { products: IDataObject[] }).products;
			seen.sizes.push(list.length);
			for (const p of list) seen.ids.push(String(p.id));
			void sleep(5).then(() => {
				seen.inFlight--;
				seen.answered++;
				callback(null, [200, putReply(body as { products: IDataObject[] }), headers(call)]);
			});
		});
	return seen;
}

describe('Product > Push, version 2: the pace follows the rate-limit headers', () => {
	it('without a Concurrency option rises from 4 to 32 batches when the window has room, at the floor of ceil(N/25) PUTs', async () => {
		const seen = service(() => windowHeaders(1999));
		const { output } = await run(params(), items(products(1000)), { typeVersion: 2 });
		expect(seen.calls).toBe(40);
		expect(seen.peak).toBeGreaterThan(4);
		expect(seen.peak).toBeLessThanOrEqual(32);
		expect(new Set(seen.ids).size).toBe(1000);
		expect(seen.ids).toHaveLength(1000);
		expect(output.every((o) => o.json.status === 'CREATE_SUCCESS')).toBe(true);
	});

	it('never has more batches in flight than half the requests left in the window', async () => {
		const seen = service(() => windowHeaders(6));
		await run(params(), items(products(500)), { typeVersion: 2 });
		expect(seen.calls).toBe(20);
		// The first 4 go before any answer; once one is in, the pace is 6 / 2 = 3.
		expect(seen.peak).toBeLessThanOrEqual(4);
		expect(seen.afterFirstAnswer.length).toBeGreaterThan(0);
		expect(Math.max(...seen.afterFirstAnswer)).toBeLessThanOrEqual(3);
	});

	it('stays at 4 when the answers carry no rate-limit headers', async () => {
		const seen = service();
		await run(params(), items(products(500)), { typeVersion: 2 });
		expect(seen.peak).toBe(4);
		expect(seen.calls).toBe(20);
	});

	it('a Concurrency option set in version 2 is a fixed pace, and version 1 keeps 4 whatever the headers say', async () => {
		const pinned = service(() => windowHeaders(1999));
		await run(params({ concurrency: 2 }), items(products(300)), { typeVersion: 2 });
		expect(pinned.peak).toBe(2);
		nock.cleanAll();
		const v1 = service(() => windowHeaders(1999));
		await run(params(), items(products(500)), { typeVersion: 1 });
		expect(v1.peak).toBe(4);
	});

	it('a 429 holds every batch not yet sent until the named reset, then retries the refused batch', async () => {
		const resetS = nowS() + 1;
		const log: Array<{ at: number; first: string; status: number }> = [];
		let calls = 0;
		nock(ADS_BASE)
			.put(PATH)
			.times(100)
			.reply((_uri, body) => {
				calls++;
				const list = (body as { products: IDataObject[] }).products;
				if (calls === 1) {
					log.push({ at: Date.now(), first: String(list[0].id), status: 429 });
					return [
						429,
						{ errors: [{ code: 'TOO_MANY_REQUESTS', message: 'Rate limit exceeded' }] },
						windowHeaders(0, resetS),
					];
				}
				log.push({ at: Date.now(), first: String(list[0].id), status: 200 });
				return [200, putReply(body as { products: IDataObject[] }), windowHeaders(1999)];
			});
		const { output } = await run(params(), items(products(200)), { typeVersion: 2 });
		const refused = log[0];
		expect(refused.status).toBe(429);
		// The first 4 batches go before any answer; every later batch waited for the reset.
		const firstFour = new Set(['SKU-0', 'SKU-25', 'SKU-50', 'SKU-75']);
		const later = log.filter((x) => !firstFour.has(x.first));
		expect(later).toHaveLength(4);
		for (const x of later) expect(x.at).toBeGreaterThanOrEqual(resetS * 1000);
		const retried = log.find((x, i) => i > 0 && x.first === refused.first);
		expect(retried).toBeDefined();
		expect(retried!.at).toBeGreaterThanOrEqual(resetS * 1000);
		expect(output.every((o) => o.json.status === 'CREATE_SUCCESS')).toBe(true);
		expect(calls).toBe(9);
	});

	it('retries a 429 at most 5 times: that batch then fails, its neighbours in other batches are pushed', async () => {
		let refusals = 0;
		nock(ADS_BASE)
			.put(PATH)
			.times(100)
			.reply((_uri, body) => {
				const list = (body as { products: IDataObject[] }).products;
				if (list[0].id === 'SKU-0') {
					refusals++;
					return [
						429,
						{ errors: [{ code: 'TOO_MANY_REQUESTS', message: 'Rate limit exceeded' }] },
						windowHeaders(0, nowS()),
					];
				}
				return [200, putReply(body as { products: IDataObject[] }), windowHeaders(1999)];
			});
		const { output } = await run(params(), items(products(50)), { typeVersion: 2 });
		expect(refusals).toBe(6);
		expect(output.slice(0, 25).every((o) => o.json.status === 'ERROR')).toBe(true);
		expect(output[0].json.httpCode).toBe('429');
		expect(output.slice(25).every((o) => o.json.status === 'CREATE_SUCCESS')).toBe(true);
	});

	it('a bad product fails itself, not its batch neighbours', async () => {
		nock(ADS_BASE)
			.put(PATH)
			.times(10)
			.reply((_uri, body) => {
				const reply = putReply(body as { products: IDataObject[] }) as {
					data: { products_response: IDataObject[] };
				};
				for (const r of reply.data.products_response)
					if (r.id === 'SKU-3')
						Object.assign(r, { status: 'ERROR', errors: ['price: the currency is not supported'] });
				return [200, reply, windowHeaders(1999)];
			});
		const list = products(30);
		list[7] = product(7, { price: 'cheap' });
		const { output } = await run(params(), items(list), { typeVersion: 2 });
		const failed = output.map((o, i) => (o.json.status === 'CREATE_SUCCESS' ? -1 : i));
		expect(failed.filter((i) => i >= 0)).toEqual([3, 7]);
		expect(output[3].json.status).toBe('ERROR');
		expect(output[7].json.status).toBe('INVALID');
	});
});

describe('Push engine: the pace never sends a batch twice', () => {
	it('a batch whose request failed without an answer is not sent again by the engine', async () => {
		const state = startPush(75, (i) => product(i));
		const sent: string[] = [];
		const pace = new PushPace(4, true);
		const results = await runPush(state, {
			node: NODE,
			keepGoing: true,
			pace,
			send: async (list) => {
				sent.push(String(list[0].id));
				pace.observe({ remaining: 1999, limited: false });
				if (list[0].id === 'SKU-25') throw new NodeOperationError(NODE, 'no answer');
				return putReply({ products: list }) as IDataObject;
			},
		});
		expect(sent.sort()).toEqual(['SKU-0', 'SKU-25', 'SKU-50']);
		expect(results.filter((r) => r.status === 'ERROR')).toHaveLength(25);
		expect(results.slice(25, 50).every((r) => r.status === 'ERROR')).toBe(true);
	});

	it('a window with nothing left holds the next batch until its reset', async () => {
		const pace = new PushPace(4, true);
		pace.observe({ remaining: 0, resetAt: new Date(Date.now() + 300), limited: false });
		const started = Date.now();
		await pace.acquire();
		expect(Date.now() - started).toBeGreaterThanOrEqual(250);
		expect(pace.limit).toBe(1);
	});

	it('version 1 is fixed; version 2 adapts only without a Concurrency option', () => {
		expect(pushPace(1, undefined)).toMatchObject({ adaptive: false, limit: 4 });
		expect(pushPace(2, undefined)).toMatchObject({ adaptive: true, limit: 4 });
		expect(pushPace(2, 6)).toMatchObject({ adaptive: false, limit: 6 });
	});
});
