import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';

/** supabase-js, loaded lazily (the public organisation page and the forms' imports stay light). */
const db = () => import('@/lib/supabase').then((m) => m.supabase);

/*
 * Seats of an organisation (issue 15 seat purchase): the billing state and changing the number of seats.
 */

/** Answer of RPC organization_billing (owners only; issue 15 seats, supabase/schemas/05_organizations.sql). */
export interface OrganizationBilling {
  seats: number;
  included_seats: number;
  extra_seats: number;
  members: number;
  open_invitations: number;
  plan_id: string | null;
  status: string | null;
  billing_period: 'monthly' | 'quarterly' | 'semiannual' | 'yearly' | null;
  /** Price of one extra seat per billing period, in cents (null without a subscription). */
  seat_amount_cents: number | null;
  seat_currency: string | null;
  /** The caller's own subscription pays for the organisation: only they change the seats. */
  billing_owner: boolean | null;
  enterprise_active: boolean;
}

/** Seats and subscription of an organisation for its owners (RPC organization_billing). */
export const organizationBillingQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['organizations', 'billing', organizationId],
    queryFn: async (): Promise<OrganizationBilling> =>
      unwrap(await (await db()).rpc('organization_billing', { p_organization_id: organizationId }), 'POST') as unknown as OrganizationBilling,
  });

/** Message ids of the refusals of the `organization-seats` function (its error codes). */
export const SEAT_ERROR_IDS: Readonly<Record<string, string>> = {
  seats_in_use: 'org.seats.error.in_use',
  not_billing_owner: 'org.seats.error.not_billing_owner',
  enterprise_required: 'org.seats.error.enterprise_required',
  stripe_unavailable: 'org.seats.error.unavailable',
};

/**
 * Changes the organisation's extra seats on its Stripe subscription (Edge Function
 * `organization-seats`; the database checks owner, subscriber and seats in use) and refreshes the
 * organisation queries. Resolves to `{ seats, extraSeats, changed }`; rejects with FunctionCallError.
 */
export function useChangeSeats(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (extraSeats: number) => {
      const { invokeFunction } = await import('@/lib/invoke-function');
      return invokeFunction<{ seats: number; extraSeats: number; changed: boolean }>('organization-seats', { organizationId, extraSeats });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['organizations'] }),
  });
}
