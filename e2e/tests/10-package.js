'use strict';
/** The package as n8n loaded it: all four nodes in the nodes panel, runtime imports resolvable. */
module.exports = [
	{
		name: 'package: n8n lists all four nodes and the credentials',
		modes: ['regular', 'queue'],
		async run(ctx) {
			const { assert, F, inst } = ctx;
			assert.match(
				inst.installed.resolved,
				/zod -> .*node_modules\/zod\//,
				'zod must resolve from the installed package',
			);
			assert.deepEqual(
				inst.installed.missing,
				[],
				`files listed in package.json but absent from the tarball: ${inst.installed.missing.join(', ')}`,
			);
			const types = await ctx.waitFor(
				'n8n to write the node types of the editor',
				() => inst.nodeTypes(),
				{ timeoutMs: 30000 },
			);
			for (const t of Object.values(F.T))
				assert.ok(types.includes(t), `${t} is not in n8n's node types (nodes panel)`);
		},
	},
];
