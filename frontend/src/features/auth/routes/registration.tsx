import { RegistrationForm } from '../components/registration-form';

/** /registration (login-register layout): the registration form (spec §2, issue 6). */
export default function RegistrationRoute() {
  return <RegistrationForm />;
}
