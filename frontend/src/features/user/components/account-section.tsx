import { Stack, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { AccountCredentials } from './account-credentials';
import { AccountData } from './account-data';

/**
 * The account part every member may use, paying or not (issue 32 §5; DSGVO Art. 15, 17, 20): e-mail
 * and password change, data export, account deletion. /user/account and /user/settings both show
 * this one component.
 * @param email the member's current address (deletion is confirmed by typing it)
 */
export function AccountSection({ email }: { email: string }) {
  return (
    <Stack component="section" aria-labelledby="account-section-title" data-testid="account-section">
      <Title order={2} fz="h3" id="account-section-title">
        <FormattedMessage id="account.section.title" />
      </Title>
      <AccountCredentials email={email} />
      <AccountData email={email} />
    </Stack>
  );
}
