/** Message ids of the plan names (spec §6), written out so the catalogue test sees them. */
export const PLAN_NAME_ID: Readonly<Record<string, string>> = {
  basic: 'prices.plan.basic',
  premium: 'prices.plan.premium',
  enterprise: 'prices.plan.enterprise',
};

/** Message ids of the Stripe subscription statuses shown to the user. */
export const STATUS_NAME_ID: Readonly<Record<string, string>> = {
  active: 'billing.status.active',
  trialing: 'billing.status.trialing',
  past_due: 'billing.status.past_due',
  canceled: 'billing.status.canceled',
  unpaid: 'billing.status.unpaid',
  incomplete: 'billing.status.incomplete',
  incomplete_expired: 'billing.status.incomplete_expired',
  paused: 'billing.status.paused',
};
