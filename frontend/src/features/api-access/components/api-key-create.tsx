import { Alert, Button, Checkbox, Code, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { API_SCOPES, type CreatedApiKey, useApiKeyMutations } from '../api/api-keys';
import { isPaymentRequired } from '@/lib/api-error';

/** What each scope allows, as message ids. */
const SCOPE_TEXT: Record<string, string> = {
  'projects:read': 'api-keys.scope.projects-read',
  'jobs:read': 'api-keys.scope.jobs-read',
  'events:read': 'api-keys.scope.events-read',
  'search:read': 'api-keys.scope.search-read',
  'jobs:write': 'api-keys.scope.jobs-write',
};

/**
 * Form to create an API key (name 1–80 characters, at least one scope; issue 15) and, after
 * success, the key itself once with a copy button: it is stored only as a hash.
 * @param organizationId the organisation the key belongs to
 */
export function ApiKeyCreate({ organizationId }: { organizationId: string }) {
  const intl = useIntl();
  const { create } = useApiKeyMutations(organizationId);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['projects:read', 'jobs:read', 'events:read']);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [touched, setTouched] = useState(false);
  const nameError = touched && (name.trim().length < 1 || name.trim().length > 80) ? intl.formatMessage({ id: 'api-keys.error.name' }) : undefined;
  const scopeError = touched && scopes.length === 0 ? intl.formatMessage({ id: 'api-keys.error.scopes' }) : undefined;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (name.trim().length < 1 || name.trim().length > 80 || scopes.length === 0) return;
    create.mutate(
      { name: name.trim(), scopes },
      {
        onSuccess: (key) => {
          setCreated(key);
          setName('');
          setTouched(false);
        },
      },
    );
  };

  return (
    <Stack>
      {created && (
        <Alert color="green" title={intl.formatMessage({ id: 'api-keys.created.title' })} data-testid="api-key-created">
          <Stack gap="xs">
            <Text size="sm">
              <FormattedMessage id="api-keys.created.once" />
            </Text>
            <Code block data-testid="api-key-secret">
              {created.key}
            </Code>
            <Group>
              <CopyButton value={created.key}>
                {({ copied, copy }) => (
                  <Button size="xs" variant={copied ? 'filled' : 'outline'} onClick={copy}>
                    <FormattedMessage id={copied ? 'api-keys.copied' : 'api-keys.copy'} />
                  </Button>
                )}
              </CopyButton>
              <Button size="xs" variant="subtle" onClick={() => setCreated(null)}>
                <FormattedMessage id="api-keys.created.done" />
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      <form onSubmit={submit} noValidate aria-label={intl.formatMessage({ id: 'api-keys.create.title' })}>
        <Stack>
          <TextInput
            label={<FormattedMessage id="api-keys.field.name" />}
            description={<FormattedMessage id="api-keys.field.name.hint" />}
            value={name}
            maxLength={80}
            required
            onChange={(e) => setName(e.currentTarget.value)}
            error={nameError}
          />
          <Checkbox.Group label={<FormattedMessage id="api-keys.field.scopes" />} value={scopes} onChange={setScopes} error={scopeError} required>
            <Stack gap={6} mt={6}>
              {API_SCOPES.map((scope) => (
                <Checkbox key={scope} value={scope} label={`${scope} – ${intl.formatMessage({ id: SCOPE_TEXT[scope]! })}`} />
              ))}
            </Stack>
          </Checkbox.Group>
          {create.isError && (
            <Alert color="red" role="alert">
              <FormattedMessage id={isPaymentRequired(create.error) ? 'api-keys.error.enterprise' : 'api-keys.error.create'} />
            </Alert>
          )}
          <Button type="submit" loading={create.isPending} style={{ alignSelf: 'flex-start' }}>
            <FormattedMessage id="api-keys.create.submit" />
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
