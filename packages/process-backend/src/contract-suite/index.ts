export { describeProcessBackendContract } from './describe-process-backend-contract.ts';
export type { ProcessBackendTraits } from './describe-process-backend-contract.ts';
