import { Anchor, Box, Group, Image, SimpleGrid, Stack, Title } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { RichText } from '@/components/rich-text';
import { CardBadge, ContentCard } from '@/components/content-card';
import { CATEGORY_LABEL } from '@/lib/categories';
import { isHttpsUrl, isHttpUrl } from '@site/url';
import { toPortfolioValues } from '../api/portfolio-schema';
import { usePublicPortfolios } from '../api/portfolios';
import { PortfolioFilesPanel } from './portfolio-files-panel';

/**
 * A user's published portfolios for visitors (e.g. on /u/{slug}): description in the page's
 * language (the other one as fallback), skills, links and the supporting files the owner allows
 * the visitor to download (signed URLs; spec §2), each in the shared card design (issue 18).
 * Renders nothing when there are none.
 */
export function PublicPortfolios({ ownerId }: { ownerId: string }) {
  const intl = useIntl();
  const query = usePublicPortfolios(ownerId);
  if (!query.data || query.data.length === 0) return null;
  const de = intl.locale.startsWith('de');
  return (
    <section data-testid="public-portfolios">
      <Title order={2} fz="h4" mb="xs">
        <FormattedMessage id="portfolios.public.title" />
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {query.data.map((row) => {
          const v = toPortfolioValues(row);
          const description = (de ? v.descriptionDe || v.descriptionEn : v.descriptionEn || v.descriptionDe).trim();
          return (
            <ContentCard
              key={row.id}
              to={null}
              heading="h3"
              testId="public-portfolio"
              title={row.title}
              kicker={row.category && CATEGORY_LABEL[row.category] ? intl.formatMessage({ id: CATEGORY_LABEL[row.category] }) : undefined}
              meta={row.city}
              action={null}
              extra={
                <Stack gap="xs" w="100%">
                  {description && (
                    <Box fz="sm">
                      <RichText text={description} testId="portfolio-description" />
                    </Box>
                  )}
                  {v.images.some(isHttpsUrl) && (
                    <SimpleGrid cols={{ base: 2, sm: 4 }}>
                      {v.images
                        .filter(isHttpsUrl)
                        .map((src, i) => (
                          <Image key={src} src={src} radius="sm" loading="lazy" alt={intl.formatMessage({ id: 'projects.detail.imageAlt' }, { title: row.title, n: i + 1 })} />
                        ))}
                    </SimpleGrid>
                  )}
                  {v.skills.length > 0 && (
                    <Group gap={4}>
                      {v.skills.map((s) => (
                        <CardBadge key={s} tone="gray">
                          {s}
                        </CardBadge>
                      ))}
                    </Group>
                  )}
                  {v.links.some((l) => isHttpUrl(l.url)) && (
                    <Group gap="sm">
                      {v.links.filter((l) => isHttpUrl(l.url)).map((l) => (
                        <Anchor key={l.url} href={l.url} target="_blank" rel="nofollow noopener noreferrer">
                          {l.label}
                        </Anchor>
                      ))}
                    </Group>
                  )}
                  <PortfolioFilesPanel portfolioId={row.id} ownerId={row.owner_id} access={row.file_access} canEdit={false} />
                </Stack>
              }
            />
          );
        })}
      </SimpleGrid>
    </section>
  );
}
