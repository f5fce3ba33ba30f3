import { useEffect, useState } from 'react';

/** Signed-in state for feature pages: `userId` null when logged out; `ready` once known. */
export interface SessionUser {
  userId: string | null;
  ready: boolean;
}

/** Follows the supabase-js session (sign-in/out in this or another tab) and returns the user id. */
export function useSessionUser(): SessionUser {
  const [state, setState] = useState<SessionUser>({ userId: null, ready: false });
  useEffect(() => {
    let active = true;
    let unsubscribe = () => {};
    void import('@/lib/supabase').then(({ supabase }) => {
      if (!active) return;
      void supabase.auth.getSession().then(({ data }) => active && setState({ userId: data.session?.user.id ?? null, ready: true }));
      const { data } = supabase.auth.onAuthStateChange((_event, session) => active && setState({ userId: session?.user.id ?? null, ready: true }));
      unsubscribe = () => data.subscription.unsubscribe();
    });
    return () => {
      active = false;
      unsubscribe();
    };
  }, []);
  return state;
}
