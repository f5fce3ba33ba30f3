import { LoginForm } from '@/features/auth';

/** /admin/login (login-register layout): the login flow; only admins proceed to /admin (spec §2). */
export default function AdminLoginRoute() {
  return <LoginForm admin />;
}
