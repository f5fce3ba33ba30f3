import type { Plugin } from 'vite';

/**
 * Vite plugin (issue 18): adds `<link rel="preload" as="font">` for the emitted font files whose
 * names match `pattern` to the built index.html, so the browser fetches them together with the
 * JavaScript instead of after the first layout; with low fetch priority, so the font never takes
 * bandwidth from the scripts and styles the first paint needs (Lighthouse mobile: lower TBT).
 * Build only; in dev the font loads as the CSS says.
 * @param pattern matched against the emitted asset file names (e.g. /inter-latin-wght-normal/)
 * Errors: the build fails when no emitted asset matches (a renamed font would silently lose its preload).
 */
export function fontPreloadPlugin(pattern: RegExp): Plugin {
  return {
    name: 'teamwerk-font-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const files = Object.keys(ctx.bundle ?? {}).filter((file) => file.endsWith('.woff2') && pattern.test(file));
        if (!files.length) throw new Error(`font-preload: no emitted .woff2 matches ${pattern}`);
        return files.map((file) => ({
          tag: 'link',
          attrs: { rel: 'preload', as: 'font', type: 'font/woff2', href: `/${file}`, crossorigin: '', fetchpriority: 'low' },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}
