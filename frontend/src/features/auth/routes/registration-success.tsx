import { Group, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { LocalButtonLink, LocalLink } from '@/components/local-link';
import { paths } from '@/config/paths';

/** `/registration/success` (login-register layout): asks the new user to confirm the e-mail address; /confirm for a new link (issue 6). */
export default function RegistrationSuccessRoute() {
  return (
    <Stack py="xl">
      <Title order={1}>
        <FormattedMessage id="registrationSuccess.title" />
      </Title>
      <Text role="status">
        <FormattedMessage id="registrationSuccess.text" />
      </Text>
      <Text>
        <FormattedMessage id="registrationSuccess.hint" />
      </Text>
      <Group>
        <LocalButtonLink to={paths.login}>
          <FormattedMessage id="registrationSuccess.toLogin" />
        </LocalButtonLink>
        <LocalLink to={paths.confirm}>
          <FormattedMessage id="auth.registerSuccess.noMail" />
        </LocalLink>
      </Group>
    </Stack>
  );
}
