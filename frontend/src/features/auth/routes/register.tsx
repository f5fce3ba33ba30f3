import { Container } from '@mantine/core';
import { RegistrationForm } from '../components/registration-form';

/** /register (default layout): the same registration form as /registration (spec §2). */
export default function RegisterRoute() {
  return (
    <Container size={520} py="xl">
      <RegistrationForm />
    </Container>
  );
}
