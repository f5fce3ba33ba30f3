import { Alert, Badge, Button, Card, Container, Group, Loader, NativeSelect, Pagination, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSearchParams } from 'react-router';
import { LocalLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format';
import type { PageProps } from '@/lib/route-def';
import { EMPLOYMENT_TYPES, JOBS_PAGE_SIZE, type JobFilters, parseJobFilters, toJobSearch, useJobs } from '../api/get-jobs';
import { EMPLOYMENT_TYPE_LABEL, JOB_CATEGORY_LABEL } from '../components/labels';

/** `/jobs`: current job ads with remote/city/employment type/category filters in the URL and pagination (spec §2). */
export default function JobsRoute({ locale }: PageProps) {
  const intl = useIntl();
  const [searchParams, setSearchParams] = useSearchParams();
  const key = searchParams.toString();
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const filters = useMemo(() => parseJobFilters(searchParams), [key]);
  const [city, setCity] = useState(filters.city);
  const [seenCity, setSeenCity] = useState(filters.city);
  if (seenCity !== filters.city) {
    setSeenCity(filters.city);
    setCity(filters.city);
  }
  const jobs = useJobs(filters);
  const apply = (patch: Partial<JobFilters>) => setSearchParams(toJobSearch({ ...filters, ...patch, page: patch.page ?? 1 }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    apply({ city });
  };
  const pages = jobs.data ? Math.ceil(jobs.data.total / JOBS_PAGE_SIZE) : 0;
  const any = intl.formatMessage({ id: 'search.any' });

  return (
    <Container size="lg" py="xl">
      <Stack>
        <Title order={1}>
          <FormattedMessage id="jobs.title" />
        </Title>
        <form onSubmit={submit} aria-label={intl.formatMessage({ id: 'jobs.filters' })}>
          <SimpleGrid cols={{ base: 1, sm: 3, md: 5 }} style={{ alignItems: 'end' }}>
            <NativeSelect
              label={<FormattedMessage id="jobs.filter.remote" />}
              value={filters.remote}
              onChange={(e) => apply({ remote: e.currentTarget.value as JobFilters['remote'] })}
              data={[
                { value: '', label: any },
                { value: 'remote', label: intl.formatMessage({ id: 'jobs.remote' }) },
                { value: 'onsite', label: intl.formatMessage({ id: 'jobs.onsite' }) },
              ]}
              data-testid="jobs-filter-remote"
            />
            <TextInput label={<FormattedMessage id="jobs.filter.city" />} value={city} maxLength={100} onChange={(e) => setCity(e.currentTarget.value)} onBlur={() => city !== filters.city && apply({ city })} data-testid="jobs-filter-city" />
            <NativeSelect
              label={<FormattedMessage id="jobs.filter.type" />}
              value={filters.type}
              onChange={(e) => apply({ type: e.currentTarget.value })}
              data={[{ value: '', label: any }, ...EMPLOYMENT_TYPES.map((t) => ({ value: t, label: intl.formatMessage({ id: EMPLOYMENT_TYPE_LABEL[t] }) }))]}
              data-testid="jobs-filter-type"
            />
            <NativeSelect
              label={<FormattedMessage id="jobs.filter.category" />}
              value={filters.category}
              onChange={(e) => apply({ category: e.currentTarget.value })}
              data={[{ value: '', label: any }, ...Object.entries(JOB_CATEGORY_LABEL).map(([value, id]) => ({ value, label: intl.formatMessage({ id }) }))]}
              data-testid="jobs-filter-category"
            />
            <Button type="submit">
              <FormattedMessage id="jobs.filter.apply" />
            </Button>
          </SimpleGrid>
        </form>
        {jobs.isPending && (
          <Group role="status" aria-live="polite">
            <Loader size="sm" />
            <Text>
              <FormattedMessage id="remoteJobs.loading" />
            </Text>
          </Group>
        )}
        {jobs.isError && (
          <Alert color="red" role="alert">
            <Stack gap="xs" align="flex-start">
              <Text>
                <FormattedMessage id="remoteJobs.error" />
              </Text>
              <Button size="xs" variant="outline" color="red.9" onClick={() => void jobs.refetch()}>
                <FormattedMessage id="common.retry" />
              </Button>
            </Stack>
          </Alert>
        )}
        {jobs.data && (
          <Text role="status" aria-live="polite" data-testid="jobs-total">
            <FormattedMessage id="jobs.total" values={{ count: jobs.data.total }} />
          </Text>
        )}
        {jobs.data && jobs.data.rows.length === 0 && (
          <Alert color="blue" data-testid="jobs-empty">
            <FormattedMessage id="jobs.empty" />
          </Alert>
        )}
        {jobs.data && jobs.data.rows.length > 0 && (
          <Stack component="ul" gap="sm" p={0} style={{ listStyle: 'none' }} data-testid="jobs-list" aria-busy={jobs.isFetching}>
            {jobs.data.rows.map((job) => (
              <Card component="li" key={job.id} withBorder padding="md">
                <Group justify="space-between" align="flex-start">
                  <Stack gap={2}>
                    <LocalLink to={paths.job(job.id)} fw={700}>
                      {job.title}
                    </LocalLink>
                    <Text fz="sm">
                      {job.company}
                      {job.city ? ` · ${job.city}` : ''}
                    </Text>
                  </Stack>
                  <Stack gap={4} align="flex-end">
                    <Group gap={4}>
                      {job.remote && (
                        <Badge variant="light" color="green.9">
                          <FormattedMessage id="jobs.remote" />
                        </Badge>
                      )}
                      <Badge variant="light" color="blue.9">
                        <FormattedMessage id={EMPLOYMENT_TYPE_LABEL[job.employment_type] ?? 'jobs.type.full_time'} />
                      </Badge>
                    </Group>
                    <Text fz="xs">
                      <FormattedMessage id="remoteJobs.posted" values={{ date: formatDate(job.posted_at, locale) }} />
                    </Text>
                  </Stack>
                </Group>
              </Card>
            ))}
          </Stack>
        )}
        {pages > 1 && (
          <Pagination
            total={pages}
            value={filters.page}
            onChange={(page) => apply({ page })}
            getItemProps={(page) => ({ 'aria-label': intl.formatMessage({ id: 'search.page.number' }, { page }) })}
            getControlProps={(control) => ({ 'aria-label': intl.formatMessage({ id: control === 'previous' ? 'search.page.previous' : control === 'next' ? 'search.page.next' : control === 'first' ? 'search.page.first' : 'search.page.last' }) })}
          />
        )}
      </Stack>
    </Container>
  );
}
