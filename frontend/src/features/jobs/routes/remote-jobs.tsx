import { Alert, Badge, Button, Card, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { LocalLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format';
import type { PageProps } from '@/lib/route-def';
import { useRemoteJobs } from '../api/get-remote-jobs';

const EMPLOYMENT_TYPE: Record<string, string> = {
  full_time: 'jobs.type.full_time',
  part_time: 'jobs.type.part_time',
  contract: 'jobs.type.contract',
  freelance: 'jobs.type.freelance',
  internship: 'jobs.type.internship',
  working_student: 'jobs.type.working_student',
  mini_job: 'jobs.type.mini_job',
};

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
        {jobs.isPending && (
          <Group role="status" aria-live="polite">
            <Loader size="sm" />
            <Text>
              <FormattedMessage id="remoteJobs.loading" />
            </Text>
          </Group>
        )}
        {jobs.isError && (
          <Alert color="red" role="alert" data-testid="remote-jobs-error">
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
        {jobs.isSuccess && jobs.data.length === 0 && (
          <Alert color="blue" data-testid="remote-jobs-empty">
            <FormattedMessage id="remoteJobs.empty" />
          </Alert>
        )}
        {jobs.isSuccess && jobs.data.length > 0 && (
          <Stack component="ul" gap="sm" p={0} style={{ listStyle: 'none' }} data-testid="remote-jobs-list">
            {jobs.data.map((job) => (
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
                    <Badge variant="light" color="blue.9">
                      {EMPLOYMENT_TYPE[job.employment_type] ? (
                        <FormattedMessage id={EMPLOYMENT_TYPE[job.employment_type]} />
                      ) : (
                        job.employment_type
                      )}
                    </Badge>
                    <Text fz="xs">
                      <FormattedMessage id="remoteJobs.posted" values={{ date: formatDate(job.posted_at, locale) }} />
                    </Text>
                  </Stack>
                </Group>
              </Card>
            ))}
          </Stack>
        )}
      </Stack>
    </Container>
  );
}
