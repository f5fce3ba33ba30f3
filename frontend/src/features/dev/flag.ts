/**
 * Developer-only pages (spec §2 "Test pages for payment, webhook, subscription table and
 * dropdown"; issue 7) exist in `vite dev` or when the build sets VITE_ENABLE_DEV_PAGES=true.
 * Production builds leave them unrouted (the bundler drops their modules).
 */
export const DEV_PAGES_ENABLED: boolean = import.meta.env.DEV || import.meta.env.VITE_ENABLE_DEV_PAGES === 'true';
