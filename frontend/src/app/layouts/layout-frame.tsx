import { Box, Container, Group } from '@mantine/core';
import { type ReactNode, Suspense } from 'react';
import { lazyChunk } from '@/lib/load-chunk';
import { FormattedMessage } from 'react-intl';
import { CookieNotice } from '@/components/cookie-consent';
import { NetworkStatus } from '@/components/network-status';
import { SiteFooter } from '@/components/site-footer';
import { SiteHeader } from '../header/site-header';
import type { LayoutName } from '@/lib/route-def';

// The user and admin areas' navigation loads with those areas only (issue 18: its phone menu pulls
// in Mantine's Menu, which the landing page's JavaScript budget has no room for).
const SideNav = lazyChunk(() => import('./side-nav').then((m) => ({ default: m.SideNav })));
function SkipLink() {
  return (
    <a className="skip-link" href="#main">
      <FormattedMessage id="nav.skipToContent" />
    </a>
  );
}

/**
 * The chrome of each layout of spec §2 around page content: landing (full-width hero), default,
 * login-register (narrow, minimal header), user (side navigation), admin (admin navigation).
 */
export function LayoutFrame({ layout, children }: { layout: LayoutName; children: ReactNode }) {
  // content pages fill at least the viewport, so the footer starts below the fold and does not
  // jump down when the page's data arrives (layout shift, Lighthouse CLS)
  const main = (width?: string) => (
    <Box component="main" id="main" tabIndex={-1} style={{ flex: 1, minHeight: layout === 'default' ? '100vh' : undefined }} w={width}>
      {children}
    </Box>
  );
  return (
    <Box data-layout={layout} style={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <SiteHeader minimal={layout === 'login-register'} />
      <NetworkStatus />
      {layout === 'landing' || layout === 'default' ? (
        main()
      ) : layout === 'login-register' ? (
        <Container size={520} w="100%" py="xl" style={{ flex: 1 }}>
          {main('100%')}
        </Container>
      ) : (
        <Container size="lg" w="100%" py="lg" style={{ flex: 1 }}>
          <Group align="flex-start" gap="xl" wrap="wrap">
            <Suspense fallback={<Box w={{ base: '100%', sm: 220 }} />}>
              <SideNav area={layout === 'admin' ? 'admin' : 'user'} />
            </Suspense>
            <Box style={{ flex: 1, minWidth: 260 }}>{main('100%')}</Box>
          </Group>
        </Container>
      )}
      <SiteFooter />
      <CookieNotice />
    </Box>
  );
}
