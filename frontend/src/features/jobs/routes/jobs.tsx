import { Button, Container, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSearchParams } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { ListPagination } from '@/components/list-pagination';
import { PageHeader } from '@/components/page-header';
import { LoadError, LoadingState } from '@/components/query-state';
import type { PageProps } from '@/lib/route-def';
import { EMPLOYMENT_TYPES, JOBS_PAGE_SIZE, type JobFilters, parseJobFilters, toJobSearch, useJobs } from '../api/get-jobs';
import { JobCard } from '../components/job-card';
import { EMPLOYMENT_TYPE_LABEL } from '../components/labels';
import { CATEGORY_LABEL } from '@/lib/categories';

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
  const any = intl.formatMessage({ id: 'search.any' });

  return (
    <Container size="lg" py="xl">
      <Stack>
        <PageHeader title={<FormattedMessage id="jobs.title" />} description={<FormattedMessage id="jobs.intro" />} />
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
              data={[{ value: '', label: any }, ...Object.entries(CATEGORY_LABEL).map(([value, id]) => ({ value, label: intl.formatMessage({ id }) }))]}
              data-testid="jobs-filter-category"
            />
            <Button type="submit">
              <FormattedMessage id="jobs.filter.apply" />
            </Button>
          </SimpleGrid>
        </form>
        {jobs.isPending && <LoadingState messageId="remoteJobs.loading" />}
        {jobs.isError && <LoadError messageId="remoteJobs.error" onRetry={() => void jobs.refetch()} />}
        {jobs.data && (
          <Text role="status" aria-live="polite" data-testid="jobs-total">
            <FormattedMessage id="jobs.total" values={{ count: jobs.data.total }} />
          </Text>
        )}
        {jobs.data && jobs.data.rows.length === 0 && (
          <EmptyState testId="jobs-empty">
            <FormattedMessage id="jobs.empty" />
          </EmptyState>
        )}
        {jobs.data && jobs.data.rows.length > 0 && (
          <SimpleGrid component="ul" cols={{ base: 1, sm: 2, md: 3 }} p={0} m={0} style={{ listStyle: 'none' }} data-testid="jobs-list" aria-busy={jobs.isFetching}>
            {jobs.data.rows.map((job) => (
              <JobCard key={job.id} job={job} locale={locale} />
            ))}
          </SimpleGrid>
        )}
        {jobs.data && <ListPagination total={jobs.data.total} pageSize={JOBS_PAGE_SIZE} page={filters.page} onChange={(page) => apply({ page })} />}
      </Stack>
    </Container>
  );
}
