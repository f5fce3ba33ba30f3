import { Container, SimpleGrid, Stack } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { LoadError, LoadingState } from '@/components/query-state';
import type { PageProps } from '@/lib/route-def';
import { useRemoteJobs } from '../api/get-remote-jobs';
import { JobCard } from '../components/job-card';

/** `/working-remote-jobs`: remote jobs from the database with loading, error and empty states (spec §2). */
export default function RemoteJobsRoute({ locale }: PageProps) {
  const jobs = useRemoteJobs();
  return (
    <Container size="md" py="xl">
      <Stack>
        <PageHeader title={<FormattedMessage id="remoteJobs.title" />} description={<FormattedMessage id="remoteJobs.intro" />} />
        {jobs.isPending && <LoadingState messageId="remoteJobs.loading" />}
        {jobs.isError && <LoadError messageId="remoteJobs.error" onRetry={() => void jobs.refetch()} testId="remote-jobs-error" />}
        {jobs.isSuccess && jobs.data.length === 0 && (
          <EmptyState testId="remote-jobs-empty">
            <FormattedMessage id="remoteJobs.empty" />
          </EmptyState>
        )}
        {jobs.isSuccess && jobs.data.length > 0 && (
          <SimpleGrid component="ul" cols={{ base: 1, sm: 2 }} p={0} m={0} style={{ listStyle: 'none' }} data-testid="remote-jobs-list">
            {jobs.data.map((job) => (
              <JobCard key={job.id} job={job} locale={locale} />
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </Container>
  );
}
