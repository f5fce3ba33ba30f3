import { List, Text } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { PASSWORD_RULES } from '../api/password-rules';

/** The password strength rules, each marked as met or not while the user types (issue 6). */
export function PasswordRulesList({ password, id }: { password: string; id?: string }) {
  const intl = useIntl();
  return (
    <List id={id} size="sm" spacing={2} aria-label={intl.formatMessage({ id: 'auth.password.rulesLabel' })} data-testid="password-rules">
      {PASSWORD_RULES.map((rule) => {
        const met = rule.test(password);
        return (
          <List.Item key={rule.messageId} data-met={met} icon={<span aria-hidden="true">{met ? '✓' : '•'}</span>}>
            <Text size="sm" c={met ? 'var(--tw-teal)' : 'var(--tw-muted)'} component="span">
              <FormattedMessage id={rule.messageId} />
            </Text>
            <span className="visually-hidden" style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
              {' '}
              <FormattedMessage id={met ? 'auth.password.ruleMet' : 'auth.password.ruleNotMet'} />
            </span>
          </List.Item>
        );
      })}
    </List>
  );
}
