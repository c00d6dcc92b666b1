import type { BuilderEvalCase } from '../eval-case';
import { agentCases } from './agents';
import { controlFlowCases } from './control-flow';
import { integrationCases } from './integrations';
import { moreAgentCases } from './more-agents';

/** Every prompt of the builder eval, in table order. */
export const builderEvalCases: BuilderEvalCase[] = [
	...agentCases,
	...moreAgentCases,
	...integrationCases,
	...controlFlowCases,
];
