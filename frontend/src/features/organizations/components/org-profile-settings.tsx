import { Avatar, Button, FileButton, Group } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { notify } from '@/lib/notify';
import type { OrganizationAdminData } from '../api/get-organizations';
import { organizationLogoUrl, toOrganizationForm } from '../api/organization';
import { orgErrorId } from '../api/organization-errors';
import type { OrganizationMutations } from '../api/save-organization';
import { OrganizationForm } from './organization-form';
import { SettingsBlock } from './settings-block';

/** Largest logo file the settings page accepts (bytes: 2 MB). */
const MAX_LOGO_BYTES = 2 * 1024 * 1024;

/**
 * The "profile" block of /org/{slug}/settings (issue 15): the logo (upload, at most 2 MB) and
 * the public fields of the organisation; success and errors show as notifications.
 * @param organization the organisation as the settings query read it
 * @param mutations the settings page's writes (useOrganizationMutations)
 */
export function OrgProfileSettings({ organization, mutations: m }: { organization: OrganizationAdminData['organization']; mutations: OrganizationMutations }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const fail = (error: unknown) => notify('error', t(orgErrorId(error)));
  return (
    <SettingsBlock titleId="org.settings.profile" testId="org-settings-profile">
      <Group>
        <Avatar src={organizationLogoUrl(organization.logo_path)} alt="" size={64} radius="md" color="brand">
          {organization.name.slice(0, 2).toUpperCase()}
        </Avatar>
        <FileButton
          accept="image/png,image/jpeg,image/webp"
          onChange={(file) => {
            if (!file) return;
            if (file.size > MAX_LOGO_BYTES) {
              notify('error', t('org.logo.tooLarge'));
              return;
            }
            m.uploadLogo.mutate(file, { onSuccess: () => notify('success', t('org.logo.saved')), onError: fail });
          }}
        >
          {(props) => (
            <Button variant="default" loading={m.uploadLogo.isPending} {...props}>
              <FormattedMessage id="org.logo.upload" />
            </Button>
          )}
        </FileButton>
      </Group>
      <OrganizationForm
        key={organization.updated_at}
        initial={toOrganizationForm(organization)}
        withSlug={false}
        pending={m.update.isPending}
        submitLabel={<FormattedMessage id="org.settings.save" />}
        onSubmit={(v) => m.update.mutate(v, { onSuccess: () => notify('success', t('org.settings.saved')), onError: fail })}
      />
    </SettingsBlock>
  );
}
