import { Badge, Button, Card, Container, Group, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { RichText } from '@/components/rich-text';
import { LoadingState } from '@/components/query-state';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { formatDate, formatEuro } from '@/lib/format';
import type { PageProps } from '@/lib/route-def';
import { safeHref } from '@site/url';
import { trackItem, useTrackView } from '@/lib/track';
import { OrganizationByline } from '@/features/organizations';
import { useJob } from '../api/get-jobs';
import { FavouriteJobButton } from '../components/favourite-button';
import { EMPLOYMENT_TYPE_LABEL } from '../components/labels';
import { CATEGORY_LABEL } from '@/lib/categories';

/** `/jobs/{id}`: job details, apply link and favourite button (spec §2, issue 8). */
export default function JobRoute({ params, locale }: PageProps) {
  const id = params.id ?? '';
  const job = useJob(id);
  useTrackView('job', job.data?.id);
  if (job.isPending) {
    return (
      <Container size="md" py="xl">
        <LoadingState messageId="remoteJobs.loading" />
      </Container>
    );
  }
  if (job.isError || !job.data) {
    return (
      <Container size="md" py="xl">
        <Stack>
          <Title order={1}>
            <FormattedMessage id={job.isError ? 'remoteJobs.error' : 'jobs.notFound'} />
          </Title>
          {job.isError && (
            <Button variant="outline" onClick={() => void job.refetch()} style={{ alignSelf: 'flex-start' }}>
              <FormattedMessage id="common.retry" />
            </Button>
          )}
          <LocalButtonLink to={paths.jobs} variant="light" style={{ alignSelf: 'flex-start' }}>
            <FormattedMessage id="jobs.back" />
          </LocalButtonLink>
        </Stack>
      </Container>
    );
  }
  const j = job.data;
  const applyHref = safeHref(j.apply_url, { mailto: true });
  const salary =
    j.salary_min_cents || j.salary_max_cents
      ? [j.salary_min_cents, j.salary_max_cents]
          .filter((v): v is number => v !== null)
          .map((v) => formatEuro(v / 100, locale))
          .join(' – ')
      : null;
  return (
    <Container size="md" py="xl">
      <Stack>
        <Group gap="xs">
          {j.remote && (
            <Badge variant="outline" color="var(--tw-teal)">
              <FormattedMessage id="jobs.remote" />
            </Badge>
          )}
          <Badge variant="outline" color="var(--tw-blue)">
            <FormattedMessage id={EMPLOYMENT_TYPE_LABEL[j.employment_type] ?? 'jobs.type.full_time'} />
          </Badge>
          <Badge variant="outline" color="var(--tw-gray)">
            <FormattedMessage id={CATEGORY_LABEL[j.category] ?? 'search.category.other'} />
          </Badge>
        </Group>
        <Title order={1}>{j.title}</Title>
        <OrganizationByline organization={j.organization} />
        <Card withBorder padding="md">
          <Stack gap="xs">
            <Text>
              <Text span fw={600}>
                <FormattedMessage id="jobs.company" />{' '}
              </Text>
              {j.company}
            </Text>
            {j.city && (
              <Text>
                <Text span fw={600}>
                  <FormattedMessage id="jobs.filter.city" />:{' '}
                </Text>
                {j.city}
              </Text>
            )}
            {salary && (
              <Text>
                <Text span fw={600}>
                  <FormattedMessage id="jobs.salary" />{' '}
                </Text>
                {salary}
              </Text>
            )}
            <Text fz="sm">
              <FormattedMessage id="remoteJobs.posted" values={{ date: formatDate(j.posted_at, locale) }} />
            </Text>
          </Stack>
        </Card>
        <Group align="flex-start">
          {applyHref && (
            <Button
              component="a"
              href={applyHref}
              target="_blank"
              rel="noopener noreferrer"
              data-testid="job-apply"
              onClick={() => trackItem('job', j.id, 'apply_click')}
            >
              <FormattedMessage id="jobs.apply" />
            </Button>
          )}
          <FavouriteJobButton jobId={j.id} />
        </Group>
        <RichText text={j.description} testId="job-description" />
      </Stack>
    </Container>
  );
}
