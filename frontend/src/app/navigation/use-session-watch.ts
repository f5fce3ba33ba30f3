import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { localeFromPath, stripLocale, withLocale } from '@site';
import { isUserAreaPath } from './check-navigation';

/**
 * Leaves the user area for /login when the session ends while a /user page is open (sign-out in
 * another tab, expired refresh token); the history entry is replaced (spec §2, §4).
 */
export function useSessionWatch(): void {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const inUserArea = isUserAreaPath(stripLocale(pathname));
  useEffect(() => {
    if (!inUserArea) return;
    let unsubscribe: (() => void) | undefined;
    let cancelled = false;
    void import('@/lib/supabase').then(({ supabase }) => {
      if (cancelled) return;
      const { data } = supabase.auth.onAuthStateChange((event, session) => {
        if (event === 'SIGNED_OUT' || !session) {
          void navigate(withLocale('/login', localeFromPath(window.location.pathname)), { replace: true });
        }
      });
      unsubscribe = () => data.subscription.unsubscribe();
    });
    return () => {
      cancelled = true;
      unsubscribe?.();
    };
  }, [inUserArea, navigate]);
}
