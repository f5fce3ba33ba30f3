import type { Plugin } from 'vite';

/** The module ids (relative to frontend/) whose chunks the landing page needs before its first paint. */
const LANDING_ROUTE = 'src/features/landing/routes/landing.tsx';
const SHELL_MESSAGES = { en: 'src/i18n/en.json?shell', de: 'src/i18n/de.json?shell' } as const;

interface BundleChunk {
  type: 'chunk' | 'asset';
  fileName: string;
  facadeModuleId?: string | null;
  imports?: string[];
}

/**
 * Vite plugin (issue 18, Lighthouse on /): the landing page's route chunk (with the chunks it
 * imports) and its shell message catalogue are otherwise found only after the entry has run and
 * the router's loader asked for them, two round trips later. This adds a small inline script to
 * the built index.html that, on `/` and `/de` only, inserts `<link rel="modulepreload">` for them,
 * so they download together with the entry. Other paths are left alone (the same index.html
 * serves every route). Build only.
 * Errors: the build fails when the landing chunk or a shell catalogue chunk is missing.
 */
export function landingPreloadPlugin(): Plugin {
  return {
    name: 'teamwerk-landing-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}) as BundleChunk[];
        const byModule = (id: string) => chunks.find((c) => c.type === 'chunk' && c.facadeModuleId?.replaceAll('\\', '/').endsWith(`/frontend/${id}`));
        const entry = chunks.find((c) => c.type === 'chunk' && c.fileName === ctx.chunk?.fileName);
        const landing = byModule(LANDING_ROUTE);
        const en = byModule(SHELL_MESSAGES.en);
        const de = byModule(SHELL_MESSAGES.de);
        if (!landing || !en || !de) throw new Error('landing-preload: the landing route or a shell catalogue chunk is missing from the bundle');
        // the entry's own static imports are already modulepreloaded by Vite
        const already = new Set([entry?.fileName, ...(entry?.imports ?? [])]);
        const files = [landing.fileName, ...(landing.imports ?? [])].filter((f) => !already.has(f));
        const script =
          `(function(){var p=location.pathname;var de=p==='/de'||p==='/de/';if(p!=='/'&&!de)return;` +
          `var f=${JSON.stringify(files.map((f) => `/${f}`))};f.push(de?${JSON.stringify(`/${de.fileName}`)}:${JSON.stringify(`/${en.fileName}`)});` +
          `f.forEach(function(h){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=h;document.head.appendChild(l);});})();`;
        return [{ tag: 'script', children: script, injectTo: 'head' as const }];
      },
    },
  };
}
