import { useEffect, useRef } from 'react';
import { useIntl } from 'react-intl';
import { useLocation, useNavigate } from 'react-router';
import { localeFromPath, stripLocale, withLocale } from '@site/locale';
import { notify } from '@/lib/notify';
import { peekReturnPath } from '@/lib/return-path';
import { type AuthBroadcast, sentByThisTab } from '@/lib/auth-browser-state';
import { onAuthSignal, useSession } from '@/lib/session';
import { isUserAreaPath } from '../navigation/check-navigation';
import { browserClock, debounce, InactivityTimer, localStorageActivity, MOUSE_DEBOUNCE_MS, INACTIVITY_TIMEOUT_MS, RESET_THROTTLE_MS } from './inactivity';

/** Pages a signed-in visitor leaves for /user when another tab signs in (spec §4). */
const SIGN_IN_PAGES = new Set(['/login', '/registration', '/register']);

/**
 * Session behaviour of spec §4 for the whole SPA (mounted once in the root shell):
 * - auto-logout after 30 minutes without activity (mouse press or key press debounced 300 ms,
 *   form submit, page start, in-app navigation; the timer restarts at most every 3 s; activity
 *   in any tab of the site counts, issue 33 §15), then /login (history entry replaced) and the
 *   info message 'You have been logged out due to inactivity.';
 * - other tabs follow a sign-in (login pages → /user) or sign-out (→ /login, replaced);
 * - a /user page left for /login when the session ends while it is open (sign-out in another tab,
 *   expired refresh token; history entry replaced, spec §2).
 * The session and the tabs' signals come from lib/session, which loads supabase-js only when a
 * session is stored, so public pages stay light.
 */
export function useAccountSession(): void {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const intl = useIntl();
  const timer = useRef<InactivityTimer | null>(null);
  const latest = useRef({ navigate, intl });
  useEffect(() => {
    latest.current = { navigate, intl };
  }, [navigate, intl]);

  const { status } = useSession();
  // inactivity timer: (re)armed on every page while a session is stored
  const signedIn = status !== 'signed-out';
  const inUserArea = isUserAreaPath(stripLocale(pathname));
  useEffect(() => {
    // the address as it is now, not as last rendered: react-router renders a navigation in a
    // transition, the session's change renders at once, so a page that leaves the user area and
    // then signs out (account deletion: home first, then sign-out) could still be rendered at its
    // /user address and be sent to /login
    const stillInUserArea = isUserAreaPath(stripLocale(window.location.pathname));
    if (inUserArea && stillInUserArea && status === 'signed-out') void navigate(withLocale('/login', localeFromPath(window.location.pathname)), { replace: true });
  }, [inUserArea, status, navigate]);
  useEffect(() => {
    if (!signedIn) {
      timer.current?.stop();
      return;
    }
    if (timer.current?.running) return;
    const onIdle = () => {
      void import('@/lib/sign-out').then(async ({ signOut }) => {
        await signOut();
        const { navigate: go, intl: i18n } = latest.current;
        const locale = localeFromPath(window.location.pathname);
        void go(withLocale('/login', locale), { replace: true });
        notify('info', i18n.formatMessage({ id: 'auth.session.inactivityLogout' }), false);
      });
    };
    timer.current ??= new InactivityTimer(onIdle, browserClock, INACTIVITY_TIMEOUT_MS, RESET_THROTTLE_MS, localStorageActivity);
    timer.current.start();
  }, [signedIn, pathname]);

  // in-app navigation is activity too (a new page, no page start)
  useEffect(() => {
    timer.current?.activity();
  }, [pathname]);

  useEffect(() => {
    const onActivity = () => timer.current?.activity();
    const onPress = debounce(onActivity, MOUSE_DEBOUNCE_MS);
    document.addEventListener('mousedown', onPress, { capture: true, passive: true });
    document.addEventListener('keydown', onPress, { capture: true, passive: true });
    document.addEventListener('submit', onActivity, { capture: true });
    return () => {
      document.removeEventListener('mousedown', onPress, { capture: true });
      document.removeEventListener('keydown', onPress, { capture: true });
      document.removeEventListener('submit', onActivity, { capture: true });
    };
  }, []);

  // other tabs
  useEffect(() => {
    const follow = (message: AuthBroadcast) => {
      const path = window.location.pathname;
      const locale = localeFromPath(path);
      const plain = stripLocale(path);
      if (message === 'signed-in' && SIGN_IN_PAGES.has(plain)) {
        // issue 15: the page that sent the visitor to log in (e.g. an invitation) wins over /user,
        // also in this tab, where the login form navigates to the same place
        const back = peekReturnPath(new URLSearchParams(window.location.search).get('next'));
        void latest.current.navigate(back ?? withLocale('/user', locale), { replace: true });
      } else if (message === 'signed-out' && !sentByThisTab('signed-out')) {
        timer.current?.stop();
        if (plain === '/user' || plain.startsWith('/user/') || plain === '/admin' || plain.startsWith('/admin/')) {
          void latest.current.navigate(withLocale(plain.startsWith('/admin') ? '/admin/login' : '/login', locale), { replace: true });
        }
      }
    };
    return onAuthSignal(follow);
  }, []);
}
