import { Anchor, type AnchorProps, Button, type ButtonProps } from '@mantine/core';
import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import { Link } from 'react-router';
import { useLocalizedPath } from './use-locale';

type AnchorAttrs = Omit<ComponentPropsWithoutRef<'a'>, keyof AnchorProps | 'href' | 'children'>;

/** Text link to a plain path of the SPA, prefixed for the current locale. */
export function LocalLink({ to, children, ...rest }: AnchorProps & AnchorAttrs & { to: string; children: ReactNode }) {
  const localize = useLocalizedPath();
  return (
    <Anchor component={Link} to={localize(to)} {...rest}>
      {children}
    </Anchor>
  );
}

/** Button that navigates to a plain path of the SPA, prefixed for the current locale. */
export function LocalButtonLink({
  to,
  children,
  ...rest
}: ButtonProps & Omit<ComponentPropsWithoutRef<'a'>, keyof ButtonProps | 'href' | 'children'> & { to: string; children: ReactNode }) {
  const localize = useLocalizedPath();
  return (
    <Button component={Link} to={localize(to)} {...rest}>
      {children}
    </Button>
  );
}
