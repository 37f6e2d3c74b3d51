import { describeSsoBalancer } from './sso-balancer';

// The full form (`npm run test:reliability`): besides the short form's sign-ons (sso-balancer.quick.ts),
// 20 students sign on for the first time at once through the balancer.
describeSsoBalancer({ oneClickSignOns: 6, firstSignOnsAtOnce: 20 });
