import { useEffect } from 'react';
import { RouterProvider } from 'react-router/dom';
import { startSession } from '@/lib/session';
import { AppProvider } from './provider';
import { router } from './router';

/** The SPA: global providers around the data router. */
export function App() {
  // the one subscription to the session (lib/session) for the SPA's life
  useEffect(() => startSession(), []);
  useEffect(() => {
    // a page restored from the back/forward cache skipped the navigation check: run it again
    // (spec §2: /user while logged out → /login, also via the back button)
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) void router.revalidate();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
