import { Stack, Text, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';

/** `/registration/success` (login-register layout): asks the new user to confirm the e-mail address. */
export default function RegistrationSuccessRoute() {
  return (
    <Stack py="xl">
      <Title order={1}>
        <FormattedMessage id="registrationSuccess.title" />
      </Title>
      <Text>
        <FormattedMessage id="registrationSuccess.text" />
      </Text>
      <Text>
        <FormattedMessage id="registrationSuccess.hint" />
      </Text>
      <LocalButtonLink to={paths.login} style={{ alignSelf: 'flex-start' }}>
        <FormattedMessage id="registrationSuccess.toLogin" />
      </LocalButtonLink>
    </Stack>
  );
}
