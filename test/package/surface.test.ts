import { breaks, currentSurface, readSnapshot, type Surface } from './surface';

/**
 * A saved workflow names a node type and a typeVersion and stores only the parameters the user
 * changed; n8n fills in every other one from the node's defaults. So a recorded version keeps its
 * parameters, their types, defaults and option values; a change of behaviour is a new version
 * (recorded with `npm run surface:update`), never an edit of an old one.
 */
describe('the public surface of the nodes and credentials', () => {
	const recorded = readSnapshot();
	const current = currentSurface();

	it('keeps every recorded node type, version, parameter and credential as recorded', () => {
		expect(breaks(recorded, current)).toEqual([]);
	});

	describe('what counts as a break', () => {
		const clone = (): Surface => JSON.parse(JSON.stringify(recorded)) as Surface;
		const [type, node] = Object.entries(recorded.nodes)[0];
		const [version, params] = Object.entries(node.versions)[0];
		const withDefault = params.findIndex((p) => p.type === 'options' && p.values?.length);

		it('a changed default of a recorded version', () => {
			const changed = clone();
			const param = changed.nodes[type].versions[version][withDefault];
			param.default = 'something else';
			expect(breaks(recorded, changed)).toEqual([
				`${type} v${version} › ${param.name}${param.when ? ` (when ${JSON.stringify(param.when)})` : ''}: default ${JSON.stringify(params[withDefault].default)} → "something else"`,
			]);
		});

		it('a removed option value, parameter or version', () => {
			const changed = clone();
			changed.nodes[type].versions[version][withDefault].values!.pop();
			expect(breaks(recorded, changed)).toHaveLength(1);
			changed.nodes[type].versions[version].splice(withDefault, 1);
			expect(breaks(recorded, changed)[0]).toMatch(/removed or shown under other conditions$/);
			delete changed.nodes[type].versions[version];
			expect(breaks(recorded, changed)).toEqual([`${type} v${version}: version removed`]);
		});

		it('not a new version, a new parameter or a new option value', () => {
			const changed = clone();
			const next = String(Math.max(...Object.keys(node.versions).map(Number)) + 1);
			changed.nodes[type].versions[next] = [{ name: 'newField', type: 'string', default: '' }];
			changed.nodes[type].versions[version].push({
				name: 'added',
				type: 'boolean',
				default: false,
			});
			changed.nodes[type].versions[version][withDefault].values!.push('newValue');
			expect(breaks(recorded, changed)).toEqual([]);
		});
	});
});
