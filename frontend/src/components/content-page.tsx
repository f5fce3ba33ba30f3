import { Alert, Container, Stack, Text, Title } from '@mantine/core';
import { Fragment, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { PRODUCT_NAME } from '@/lib/constants';

/** One section of a text page: heading id and paragraph ids (lines inside a paragraph are kept). */
export interface ContentSection {
  title: string;
  body: readonly string[];
}

/** Renders `[Platzhalter]` spans as highlighted marks so missing company data stands out. */
function withPlaceholders(text: string): ReactNode {
  return text.split(/(\[[^\]]+\])/g).map((part, i) =>
    /^\[[^\]]+\]$/.test(part) ? (
      <mark key={i} data-placeholder="true" style={{ background: 'var(--mantine-color-yellow-2)', color: 'var(--mantine-color-black)' }}>
        {part}
      </mark>
    ) : (
      <Fragment key={i}>{part}</Fragment>
    ),
  );
}

/**
 * A long text page (legal pages, guidelines, about): h1, optional intro and notice, sections
 * with h2 headings. All text comes from messages.
 */
export function ContentPage({
  titleId,
  introId,
  noticeId,
  sections,
  children,
}: {
  titleId: string;
  introId?: string;
  noticeId?: string;
  sections: readonly ContentSection[];
  children?: ReactNode;
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id }, { product: PRODUCT_NAME });
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <Title order={1}>
          <FormattedMessage id={titleId} values={{ product: PRODUCT_NAME }} />
        </Title>
        {noticeId && (
          <Alert color="yellow" variant="light" data-testid="placeholder-notice">
            {t(noticeId)}
          </Alert>
        )}
        {introId && <Text>{withPlaceholders(t(introId))}</Text>}
        {sections.map((section) => (
          <Stack key={section.title} gap="xs" component="section" aria-labelledby={section.title.replace(/\./g, '-')}>
            <Title order={2} fz="xl" id={section.title.replace(/\./g, '-')}>
              {t(section.title)}
            </Title>
            {section.body.map((id) => (
              <Text key={id} style={{ whiteSpace: 'pre-line' }}>
                {withPlaceholders(t(id))}
              </Text>
            ))}
          </Stack>
        ))}
        {children}
      </Stack>
    </Container>
  );
}
