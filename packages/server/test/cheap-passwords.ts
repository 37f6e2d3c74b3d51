// The test suites make thousands of accounts and sign-ins: at the product's argon2 cost (19 MiB,
// two passes) each is 20–45 ms of a core, most of a run's CPU for nothing a suite checks. Here a
// hash costs 1 MiB and one pass; a check follows the cost written in its hash. The product's cost
// is checked by src/features/accounts/password.test.ts, which restores it for its own tests.
import { usePasswordCostForTests } from '../src/features/accounts/password';

export const TEST_PASSWORD_COST = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

usePasswordCostForTests(TEST_PASSWORD_COST);
