import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useIntl } from 'react-intl';

const SUN = 'M12 4V2m0 20v-2m8-8h2M2 12h2m13.66-5.66 1.41-1.41M4.93 19.07l1.41-1.41m0-11.32L4.93 4.93m14.14 14.14-1.41-1.41M12 17a5 5 0 1 0 0-10 5 5 0 0 0 0 10Z';
const MOON = 'M21 12.79A9 9 0 1 1 11.21 3a7 7 0 0 0 9.79 9.79Z';

/**
 * Light/dark switch in the header (issue 18). The scheme follows the system until the visitor
 * picks one; the choice is stored (colorSchemeManager in app/provider.tsx) and applied before the
 * first paint (index.html).
 */
export function ColorSchemeToggle() {
  const intl = useIntl();
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const next = computed === 'dark' ? 'light' : 'dark';
  return (
    <ActionIcon
      variant="subtle"
      color="gray"
      size={44}
      radius="xl"
      onClick={() => setColorScheme(next)}
      aria-label={intl.formatMessage({ id: next === 'dark' ? 'nav.scheme.dark' : 'nav.scheme.light' })}
      data-testid="color-scheme-toggle"
      data-scheme={computed}
    >
      <svg width={20} height={20} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
        <path d={computed === 'dark' ? SUN : MOON} />
      </svg>
    </ActionIcon>
  );
}
