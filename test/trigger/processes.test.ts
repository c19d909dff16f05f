/**
 * The trigger's record of event ids across n8n processes (queue mode, several webhook processes). Each
 * process has its own memory (a DeliveryMemory); they share one database row, the
 * workflow's static data, which n8n reads per request and writes whole after the answer, the last
 * writer winning.
 */
import type { TriggerState } from '../../nodes/triggers/webhook/state';
import { idHash, persistedIds } from '../../nodes/triggers/webhook/state';
import { newProcess, type StateModule } from './helpers';

const KEY = 'wf:node';
/** Every event id these tests use: the record keeps their hashes. */
const KNOWN = ['e1', 'e2', 'e3', 'r1', 'r2', 'r3', 'r4', 'same', 'lost', 'ran'];
const t0 = Date.parse('2026-01-01T00:00:00Z');

/** The database row: what each request reads, and what n8n writes after the answer. */
function database() {
	let row: TriggerState = {};
	return {
		read: (): TriggerState => JSON.parse(JSON.stringify(row)) as TriggerState,
		write: (state: TriggerState) => {
			row = JSON.parse(JSON.stringify(state)) as TriggerState;
		},
		/** The ids of the row's record, each named by the id of `KNOWN` whose hash it is. */
		ids: () => {
			const names = new Map(KNOWN.map((id) => [idHash(id), id]));
			return persistedIds(row).map(([hash]) => names.get(hash) ?? `#${hash}`);
		},
	};
}

/** One delivery in process `p` whose run starts: its new ids are claimed, then recorded as run. */
function handle(p: StateModule, state: TriggerState, ids: string[], at: number): Set<string> {
	const fresh = p.claimNewIds(KEY, state, ids, at);
	p.persistClaimed(KEY, state, fresh, Date.now());
	return fresh;
}

describe('event ids across webhook processes', () => {
	it('a lost update (two processes saving at once) heals at the next write of the process that lost it', () => {
		const db = database();
		const a = newProcess();
		const b = newProcess();
		// Both read the row before either saves.
		const readByA = db.read();
		const readByB = db.read();
		expect(handle(a, readByA, ['e1'], t0)).toEqual(new Set(['e1']));
		expect(handle(b, readByB, ['e2'], t0 + 1)).toEqual(new Set(['e2']));
		db.write(readByA);
		db.write(readByB); // the last writer wins: e1 is no longer in the row
		expect(db.ids()).toEqual(['e2']);
		// A's next delivery re-asserts its own ids with the ones it reads.
		const next = db.read();
		handle(a, next, ['e3'], t0 + 2);
		db.write(next);
		expect(db.ids().sort()).toEqual(['e1', 'e2', 'e3']);
		// B now knows e1 too: a copy of it that reaches B (A down, the proxy fails over) does not run.
		expect(b.claimNewIds(KEY, db.read(), ['e1'], t0 + 3)).toEqual(new Set());
	});

	it('a process started after another one stopped knows every id that process saved', () => {
		const db = database();
		const a = newProcess();
		for (const [i, id] of ['r1', 'r2', 'r3'].entries()) {
			const s = db.read();
			handle(a, s, [id], t0 + i);
			db.write(s);
		}
		const restarted = newProcess();
		expect(restarted.claimNewIds(KEY, db.read(), ['r1', 'r2', 'r3', 'r4'], t0 + 10)).toEqual(
			new Set(['r4']),
		);
	});

	it('copies of one event handled by the same process at once: one passes', () => {
		const db = database();
		const a = newProcess();
		const first = db.read();
		const second = db.read();
		expect(a.claimNewIds(KEY, first, ['same'], t0)).toEqual(new Set(['same']));
		expect(a.claimNewIds(KEY, second, ['same'], t0)).toEqual(new Set());
	});

	it('copies of one event handled by two processes at once both pass (why the proxy routes every copy to one process)', () => {
		const db = database();
		const a = newProcess();
		const b = newProcess();
		const readByA = db.read();
		const readByB = db.read();
		expect(a.claimNewIds(KEY, readByA, ['same'], t0)).toEqual(new Set(['same']));
		expect(b.claimNewIds(KEY, readByB, ['same'], t0)).toEqual(new Set(['same']));
	});

	it('an event whose run had not started when its process died is not recorded, so its retry runs elsewhere', () => {
		const db = database();
		const a = newProcess();
		const b = newProcess();
		// A claims 'lost' and 'ran' at once; only the run of 'ran' starts, and its copy is saved.
		const forLost = db.read();
		const forRan = db.read();
		expect(a.claimNewIds(KEY, forLost, ['lost'], t0)).toEqual(new Set(['lost']));
		expect(handle(a, forRan, ['ran'], t0 + 1)).toEqual(new Set(['ran']));
		db.write(forRan);
		expect(db.ids()).toEqual(['ran']);
		// While A lives, a copy of 'lost' that reaches it is still a duplicate.
		expect(a.claimNewIds(KEY, db.read(), ['lost'], t0 + 2)).toEqual(new Set());
		// A is killed; the service retries both, and the proxy sends them to B.
		expect(handle(b, db.read(), ['lost', 'ran'], t0 + 3)).toEqual(new Set(['lost']));
	});
});
