import { markOAuthReturnHandled, pendingOAuthReturn } from '../session/oauth-return';
import { Loader } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { useLocalizedPath } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { notify } from '@/lib/notify';
import { peekReturnPath } from '@/lib/return-path';
import { completeOAuthReturn } from '../api/login';
import { LoginForm } from '../components/login-form';
import { resumeCheckoutAfterLogin } from '../session/after-login';

/** /login (login-register layout): e-mail/password and OAuth login (spec §2, §4); also the OAuth return page. */
export default function LoginRoute() {
  const intl = useIntl();
  const navigate = useNavigate();
  const localize = useLocalizedPath();
  const [returnUrl, setReturnUrl] = useState(() => pendingOAuthReturn(window.location.pathname));
  useEffect(() => {
    if (!returnUrl) return;
    void completeOAuthReturn(new URL(returnUrl)).then(async (outcome) => {
      markOAuthReturnHandled();
      if (outcome === 'ok') {
        if (await resumeCheckoutAfterLogin()) return;
        void navigate(peekReturnPath(null) ?? localize(paths.user.home), { replace: true });
        return;
      }
      if (outcome === 'failed') notify('error', intl.formatMessage({ id: 'auth.oauth.failed' }));
      window.history.replaceState(null, '', window.location.pathname);
      setReturnUrl(null);
    });
  }, [returnUrl, intl, navigate, localize]);
  if (returnUrl) return <Loader aria-label={intl.formatMessage({ id: 'auth.login.completing' })} />;
  return <LoginForm />;
}
