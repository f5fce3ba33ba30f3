import { Alert, Container, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
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
        <Title order={1}>
          <FormattedMessage id="remoteJobs.title" />
        </Title>
        <Text>
          <FormattedMessage id="remoteJobs.intro" />
        </Text>
        {jobs.isPending && <LoadingState messageId="remoteJobs.loading" />}
        {jobs.isError && <LoadError messageId="remoteJobs.error" onRetry={() => void jobs.refetch()} testId="remote-jobs-error" />}
        {jobs.isSuccess && jobs.data.length === 0 && (
          <Alert color="blue" data-testid="remote-jobs-empty">
            <FormattedMessage id="remoteJobs.empty" />
          </Alert>
        )}
        {jobs.isSuccess && jobs.data.length > 0 && (
          <Stack component="ul" gap="sm" p={0} style={{ listStyle: 'none' }} data-testid="remote-jobs-list">
            {jobs.data.map((job) => (
              <JobCard key={job.id} job={job} locale={locale} />
            ))}
          </Stack>
        )}
      </Stack>
    </Container>
  );
}
