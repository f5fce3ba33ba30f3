import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { loadBrandFont } from './app/brand-font';

// the first render is a transition: React renders it in slices and yields to the browser between
// them, so parsing and rendering the app never blocks input for long (Lighthouse TBT, issue 18)
startTransition(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});

loadBrandFont();
