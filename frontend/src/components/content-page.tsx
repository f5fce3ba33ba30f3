import { Alert, Container, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { COMPANY, companyMessageValues } from '@/config/company';
import { PRODUCT_NAME } from '@/lib/constants';

/** One section of a text page: heading id and paragraph ids (lines inside a paragraph are kept). */
export interface ContentSection {
  title: string;
  body: readonly string[];
}

/**
 * A long text page (legal pages, guidelines, about): h1, optional intro, sections with h2
 * headings. All text comes from messages, with the product name and the configured company data
 * (`{companyName}`, … from frontend/src/config/company.ts, issue 33 §17) as values. `legal`
 * pages say so when that data is the fictional demo data.
 */
export function ContentPage({
  titleId,
  introId,
  legal = false,
  sections,
  children,
}: {
  titleId: string;
  introId?: string;
  /** A page with the company's legal data (Impressum, privacy, terms, …). */
  legal?: boolean;
  sections: readonly ContentSection[];
  children?: ReactNode;
}) {
  const intl = useIntl();
  const values = { product: PRODUCT_NAME, ...companyMessageValues(COMPANY, intl.formatMessage({ id: 'legal.noDpo' })) };
  const t = (id: string) => intl.formatMessage({ id }, values);
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <Title order={1}>
          <FormattedMessage id={titleId} values={{ product: PRODUCT_NAME }} />
        </Title>
        {legal && COMPANY.demo && (
          <Alert color="yellow" variant="light" data-testid="demo-company-notice">
            {t('legal.demoNotice')}
          </Alert>
        )}
        {legal && intl.locale !== 'de' && <Text c="dimmed">{t('legal.germanBinding')}</Text>}
        {introId && <Text>{t(introId)}</Text>}
        {sections.map((section) => (
          <Stack key={section.title} gap="xs" component="section" aria-labelledby={section.title.replace(/\./g, '-')}>
            <Title order={2} fz="xl" id={section.title.replace(/\./g, '-')}>
              {t(section.title)}
            </Title>
            {section.body.map((id) => (
              <Text key={id} style={{ whiteSpace: 'pre-line' }}>
                {t(id)}
              </Text>
            ))}
          </Stack>
        ))}
        {children}
      </Stack>
    </Container>
  );
}
