import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { ruleError } from '../../../shared/streamRules';

export { RULES_PATH, ruleProblems } from '../../../shared/streamRules';

/** Fails with the service's refusals explained (rule-cap, invalid-rules, duplicate-rules ...). */
export function assertNoRuleErrors(
	ctx: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
	phase: string,
): void {
	const error = ruleError(ctx.getNode(), body, phase, itemIndex);
	if (error) throw error;
}
