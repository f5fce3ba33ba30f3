import { Button, Group, Modal, PasswordInput, Select, SimpleGrid, Stack, Switch, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { z } from 'zod';
import { useLocale } from '@/components/use-locale';
import { isStrongPassword, PasswordRulesList } from '@/features/auth';
import { notify } from '@/lib/notify';
import { zodValidate } from '@/lib/zod-form';
import { adminCreateUser, adminDeleteUser, adminUpdateUser, type AdminUserRow, type Role, ROLES } from '../api/admin-users';

const ROLE_IDS: Record<Role, string> = {
  old_user: 'admin.role.old_user',
  free: 'admin.role.free',
  basic: 'admin.role.basic',
  premium: 'admin.role.premium',
  enterprise: 'admin.role.enterprise',
  admin: 'admin.role.admin',
};

/** Role label message id. */
export const roleMessageId = (role: Role): string => ROLE_IDS[role];

function useRoleOptions() {
  const intl = useIntl();
  return ROLES.map((role) => ({ value: role, label: intl.formatMessage({ id: ROLE_IDS[role] }) }));
}

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['admin-users'] });
}

const messages = (intl: ReturnType<typeof useIntl>, errors: Record<string, string>) =>
  Object.fromEntries(Object.entries(errors).map(([k, id]) => [k, intl.formatMessage({ id })]));

const createSchema = z.object({
  firstname: z.string().trim().min(1, 'auth.validation.required').max(100, 'auth.validation.tooLong'),
  lastname: z.string().trim().min(1, 'auth.validation.required').max(100, 'auth.validation.tooLong'),
  email: z.email('auth.validation.email'),
  password: z.string().refine(isStrongPassword, 'auth.validation.weakPassword'),
  type: z.enum(['business', 'other']),
  role: z.enum(ROLES),
  confirmed: z.boolean(),
});

/**
 * Dialog: create a user with a role, confirmed (default: can log in at once) or with the
 * confirmation mail in the admin's language (issue 32 §6).
 */
export function CreateUserDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const locale = useLocale();
  const invalidate = useInvalidate();
  const roles = useRoleOptions();
  const form = useForm({
    initialValues: { firstname: '', lastname: '', email: '', password: '', type: 'other' as 'business' | 'other', role: 'free' as Role, confirmed: true },
    validate: (v) => messages(intl, zodValidate(createSchema)(v)),
  });
  const create = useMutation({
    mutationFn: (v: typeof form.values) => adminCreateUser({ ...v, email: v.email.trim(), locale }),
    onSuccess: async (_id, v) => {
      notify('success', t(v.confirmed ? 'admin.users.created' : 'admin.users.createdMailSent'));
      form.reset();
      onClose();
      await invalidate();
    },
    onError: (err) => notify('error', err.message),
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('admin.users.createTitle')}>
      <form onSubmit={form.onSubmit((v) => create.mutate(v))} noValidate>
        <Stack>
          <SimpleGrid cols={2}>
            <TextInput label={t('auth.field.firstname')} required {...form.getInputProps('firstname')} />
            <TextInput label={t('auth.field.lastname')} required {...form.getInputProps('lastname')} />
          </SimpleGrid>
          <TextInput label={t('auth.field.email')} type="email" required {...form.getInputProps('email')} />
          <PasswordInput label={t('auth.field.password')} autoComplete="new-password" required {...form.getInputProps('password')} />
          <PasswordRulesList password={form.values.password} />
          <Select
            label={t('auth.field.type')}
            data={[
              { value: 'business', label: t('auth.type.business') },
              { value: 'other', label: t('auth.type.other') },
            ]}
            allowDeselect={false}
            {...form.getInputProps('type')}
          />
          <Select label={t('admin.users.role')} data={roles} allowDeselect={false} {...form.getInputProps('role')} />
          <Switch
            label={t('admin.users.createConfirmed')}
            description={t(form.values.confirmed ? 'admin.users.createConfirmedHint' : 'admin.users.createMailHint')}
            {...form.getInputProps('confirmed', { type: 'checkbox' })}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              <FormattedMessage id="account.cancel" />
            </Button>
            <Button type="submit" loading={create.isPending}>
              <FormattedMessage id="admin.users.create" />
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

const editSchema = z.object({
  firstname: z.string().trim().max(100, 'auth.validation.tooLong'),
  lastname: z.string().trim().max(100, 'auth.validation.tooLong'),
  email: z.email('auth.validation.email'),
  reason: z.string().max(1000, 'auth.validation.tooLong'),
});

/** Dialog: edit name (issue 32 §6), role, confirmation, suspension (with reason) and e-mail of a user. */
export function EditUserDialog({ user, onClose }: { user: AdminUserRow; onClose: () => void }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const invalidate = useInvalidate();
  const roles = useRoleOptions();
  const form = useForm({
    initialValues: {
      firstname: user.firstname,
      lastname: user.lastname,
      role: user.user_role,
      confirmed: user.authenticated === 1,
      suspended: user.suspended,
      reason: '',
      email: user.email,
    },
    validate: (v) => messages(intl, zodValidate(editSchema)(v)),
  });
  const save = useMutation({
    mutationFn: async (v: typeof form.values) => {
      const updates: Record<string, unknown> = {};
      if (v.firstname.trim() !== user.firstname) updates.firstname = v.firstname.trim();
      if (v.lastname.trim() !== user.lastname) updates.lastname = v.lastname.trim();
      if (v.role !== user.user_role) updates.user_role = v.role;
      if (v.confirmed !== (user.authenticated === 1)) updates.authenticated = v.confirmed ? 1 : 0;
      if (v.suspended !== user.suspended) {
        updates.suspended = v.suspended;
        if (v.suspended && v.reason.trim()) updates.suspension_reason = v.reason.trim();
      }
      if (v.email.trim().toLowerCase() !== user.email.toLowerCase()) updates.email = v.email.trim();
      if (Object.keys(updates).length) await adminUpdateUser(user.id, updates);
    },
    onSuccess: async () => {
      notify('success', t('admin.users.saved'));
      onClose();
      await invalidate();
    },
    onError: (err) => notify('error', err.message),
  });
  return (
    <Modal opened onClose={onClose} title={t('admin.users.editTitle')}>
      <form onSubmit={form.onSubmit((v) => save.mutate(v))} noValidate>
        <Stack>
          <SimpleGrid cols={2}>
            <TextInput label={t('auth.field.firstname')} {...form.getInputProps('firstname')} />
            <TextInput label={t('auth.field.lastname')} {...form.getInputProps('lastname')} />
          </SimpleGrid>
          <TextInput label={t('auth.field.email')} type="email" {...form.getInputProps('email')} />
          <Select label={t('admin.users.role')} data={roles} allowDeselect={false} {...form.getInputProps('role')} />
          <Switch label={t('admin.users.confirmed')} {...form.getInputProps('confirmed', { type: 'checkbox' })} />
          <Switch label={t('admin.users.suspended')} {...form.getInputProps('suspended', { type: 'checkbox' })} />
          {form.values.suspended && !user.suspended && (
            <Textarea label={t('admin.users.suspensionReason')} maxLength={1000} {...form.getInputProps('reason')} />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              <FormattedMessage id="account.cancel" />
            </Button>
            <Button type="submit" loading={save.isPending}>
              <FormattedMessage id="account.settings.save" />
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Dialog: set a new password for a user (strength rules apply). */
export function PasswordDialog({ user, onClose }: { user: AdminUserRow; onClose: () => void }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const form = useForm({
    initialValues: { password: '' },
    validate: (v) => messages(intl, zodValidate(z.object({ password: z.string().refine(isStrongPassword, 'auth.validation.weakPassword') }))(v)),
  });
  const save = useMutation({
    mutationFn: (password: string) => adminUpdateUser(user.id, { password }),
    onSuccess: () => {
      notify('success', t('admin.users.passwordSet'));
      onClose();
    },
    onError: (err) => notify('error', err.message),
  });
  return (
    <Modal opened onClose={onClose} title={t('admin.users.passwordTitle')}>
      <form onSubmit={form.onSubmit((v) => save.mutate(v.password))} noValidate>
        <Stack>
          <Text size="sm">{user.email}</Text>
          <PasswordInput label={t('auth.field.newPassword')} autoComplete="new-password" {...form.getInputProps('password')} />
          <PasswordRulesList password={form.values.password} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              <FormattedMessage id="account.cancel" />
            </Button>
            <Button type="submit" loading={save.isPending}>
              <FormattedMessage id="admin.users.setPassword" />
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Confirmation before deleting a user (destructive; a paid subscription ends at once without refund, issue 32 §1). */
export function DeleteUserDialog({ user, onClose }: { user: AdminUserRow; onClose: () => void }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const invalidate = useInvalidate();
  const remove = useMutation({
    mutationFn: () => adminDeleteUser(user.id),
    onSuccess: async () => {
      notify('success', t('admin.users.deleted'));
      onClose();
      await invalidate();
    },
    onError: (err) => notify('error', err.message),
  });
  return (
    <Modal opened onClose={onClose} title={t('admin.users.deleteTitle')}>
      <Stack>
        <Text>
          <FormattedMessage id="admin.users.deleteText" values={{ email: user.email }} />
        </Text>
        <Text size="sm" c="red" data-testid="delete-subscription-warning">
          <FormattedMessage id="admin.users.deleteSubscription" />
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            <FormattedMessage id="account.cancel" />
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
            <FormattedMessage id="admin.users.delete" />
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
