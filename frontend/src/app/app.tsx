import { RouterProvider } from 'react-router/dom';
import { AppProvider } from './provider';
import { router } from './router';

/** The SPA: global providers around the data router. */
export function App() {
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
