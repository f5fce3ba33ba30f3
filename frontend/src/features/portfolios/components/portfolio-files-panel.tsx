import { Alert, Badge, Button, Card, FileButton, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ApiError } from '@/lib/api-error';
import { notify } from '@/lib/notify';
import { signedFileUrl, usePortfolioFileMutations, usePortfolioFiles } from '../api/portfolio-files';
import { ALLOWED_FILE_TYPES, FILE_ACCESS_LABEL, type FileAccess, type PortfolioFileRow } from '../api/portfolio-schema';

const sizeText = (bytes: number, locale: string) =>
  new Intl.NumberFormat(locale === 'de' ? 'de-DE' : 'en-GB', { style: 'unit', unit: bytes >= 1048576 ? 'megabyte' : 'kilobyte', maximumFractionDigits: 1 }).format(
    bytes >= 1048576 ? bytes / 1048576 : Math.max(bytes / 1024, 0.1),
  );

/**
 * Supporting files of a portfolio: list with access level and signed-URL download; for the
 * owner also upload (type and ≤ 10 MB checked first) and delete with confirmation.
 */
export function PortfolioFilesPanel({ portfolioId, ownerId, access, canEdit }: { portfolioId: number; ownerId: string; access: FileAccess; canEdit: boolean }) {
  const intl = useIntl();
  const files = usePortfolioFiles(portfolioId);
  const { upload, remove } = usePortfolioFileMutations(portfolioId);
  const [toDelete, setToDelete] = useState<PortfolioFileRow | null>(null);
  const [downloading, setDownloading] = useState<number | null>(null);

  const onFile = (file: File | null) => {
    if (!file) return;
    upload.mutate(
      { ownerId, file },
      {
        onSuccess: () => notify('success', intl.formatMessage({ id: 'portfolios.files.uploaded' })),
        onError: (e) =>
          notify('error', intl.formatMessage({ id: e instanceof ApiError && e.status === 400 && e.message.startsWith('portfolios.') ? e.message : 'portfolios.files.uploadFailed' })),
      },
    );
  };
  const download = async (file: PortfolioFileRow) => {
    setDownloading(file.id);
    try {
      window.location.assign(await signedFileUrl(file));
    } catch {
      notify('error', intl.formatMessage({ id: 'portfolios.files.downloadFailed' }));
    } finally {
      setDownloading(null);
    }
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={canEdit ? 2 : 4} size={canEdit ? 'h3' : 'h6'}>
          <FormattedMessage id="portfolios.files.title" />
        </Title>
        <Badge variant="light" data-testid="file-access">
          <FormattedMessage id={FILE_ACCESS_LABEL[access]} />
        </Badge>
      </Group>
      {canEdit && (
        <Group>
          <FileButton onChange={onFile} accept={ALLOWED_FILE_TYPES.join(',')}>
            {(props) => (
              <Button {...props} loading={upload.isPending} variant="light" data-testid="upload-file">
                <FormattedMessage id="portfolios.files.upload" />
              </Button>
            )}
          </FileButton>
          <Text size="xs" c="dimmed">
            <FormattedMessage id="portfolios.files.limits" />
          </Text>
        </Group>
      )}
      {files.isPending && <Loader size="sm" aria-label={intl.formatMessage({ id: 'portfolios.loading' })} />}
      {files.isError && (
        <Alert color="red" role="alert">
          <FormattedMessage id="portfolios.files.loadFailed" />
        </Alert>
      )}
      {files.data?.length === 0 && (
        <Text c="dimmed" data-testid="files-empty">
          <FormattedMessage id={canEdit ? 'portfolios.files.empty' : 'portfolios.files.noneVisible'} />
        </Text>
      )}
      {files.data && files.data.length > 0 && (
        <Stack component="ul" gap="xs" p={0} style={{ listStyle: 'none' }} aria-label={intl.formatMessage({ id: 'portfolios.files.title' })}>
          {files.data.map((file) => (
            <Card component="li" key={file.id} withBorder padding="sm" data-testid="portfolio-file">
              <Group justify="space-between">
                <Stack gap={0}>
                  <Text fw={500}>{file.file_name}</Text>
                  <Text size="xs" c="dimmed">
                    {sizeText(file.size_bytes, intl.locale.slice(0, 2))}
                  </Text>
                </Stack>
                <Group gap="xs">
                  <Button size="xs" variant="default" loading={downloading === file.id} onClick={() => void download(file)}>
                    <FormattedMessage id="portfolios.files.download" />
                  </Button>
                  {canEdit && (
                    <Button size="xs" color="red" variant="light" onClick={() => setToDelete(file)}>
                      <FormattedMessage id="portfolios.delete" />
                    </Button>
                  )}
                </Group>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      <ConfirmDialog
        opened={toDelete !== null}
        title={<FormattedMessage id="portfolios.files.deleteTitle" />}
        message={<FormattedMessage id="portfolios.files.deleteConfirm" values={{ name: toDelete?.file_name ?? '' }} />}
        confirmLabel={<FormattedMessage id="portfolios.delete" />}
        loading={remove.isPending}
        onClose={() => setToDelete(null)}
        onConfirm={() =>
          remove.mutate(toDelete!, {
            onSuccess: () => {
              setToDelete(null);
              notify('success', intl.formatMessage({ id: 'portfolios.files.deleted' }));
            },
            onError: () => notify('error', intl.formatMessage({ id: 'portfolios.files.deleteFailed' })),
          })
        }
      />
    </Stack>
  );
}
