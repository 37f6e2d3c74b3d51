import type { BenchResult, BudgetCheck } from './results';
import {
  checkFanOutBudgets,
  checkMessageBudgets,
  checkRush,
  checkSignInWave,
} from './feature-budgets';
import { checkLoadBudgets } from './load-budgets';
import { checkPageBudgets } from './page-budgets';

/** Every budget of the performance issue (budget-limits.ts) against one bench result. */
export function checkBudgets(result: BenchResult): BudgetCheck[] {
  return [
    ...checkLoadBudgets(result),
    ...checkMessageBudgets(result.messageStreams),
    checkRush(result.rush),
    checkSignInWave(result.rush),
    ...checkPageBudgets(result),
    ...checkFanOutBudgets(result),
  ];
}
