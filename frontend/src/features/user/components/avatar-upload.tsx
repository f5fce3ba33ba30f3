import { Avatar, Button, Group, Stack, Text } from '@mantine/core';
import { useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { notify } from '@/lib/notify';
import { AVATAR_TYPES, prepareAvatar, uploadAvatar } from '../api/own-profile';
import { publicAvatarUrl } from '@/lib/public-api';

const ERROR_IDS: Record<string, string> = {
  unsupported_type: 'account.avatar.unsupportedType',
  too_large: 'account.avatar.tooLarge',
  decode_failed: 'account.avatar.decodeFailed',
};

/** Avatar upload (issue 6): type (JPEG/PNG/WebP) and size (≤ 5 MB) checked, cropped square and resized to 512 px before upload. */
export function AvatarUpload({ path }: { path: string | null }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const upload = useMutation({
    mutationFn: async (file: File) => uploadAvatar(await prepareAvatar(file), path),
    onSuccess: async () => {
      notify('success', intl.formatMessage({ id: 'account.avatar.uploaded' }));
      await queryClient.invalidateQueries({ queryKey: ['own-profile'] });
    },
    onError: (err) => notify('error', ERROR_IDS[err.message] ? intl.formatMessage({ id: ERROR_IDS[err.message]! }) : err.message),
  });
  return (
    <Group>
      <Avatar variant="filled" src={publicAvatarUrl(path)} alt={intl.formatMessage({ id: 'account.avatar.alt' })} size={96} radius="xl" data-testid="settings-avatar" />
      <Stack gap={4}>
        <input
          ref={input}
          type="file"
          accept={AVATAR_TYPES.join(',')}
          hidden
          data-testid="avatar-input"
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            event.currentTarget.value = '';
            if (file) upload.mutate(file);
          }}
        />
        <Button variant="outline" loading={upload.isPending} onClick={() => input.current?.click()}>
          <FormattedMessage id="account.avatar.choose" />
        </Button>
        <Text size="sm" c="var(--tw-muted)">
          <FormattedMessage id="account.avatar.hint" />
        </Text>
      </Stack>
    </Group>
  );
}
