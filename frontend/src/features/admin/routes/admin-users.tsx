import { Alert, Badge, Button, Loader, Menu, Stack, Table, TextInput } from '@mantine/core';
import { ListPagination } from '@/components/list-pagination';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { useLocale } from '@/components/use-locale';
import { formatDate } from '@/lib/format';
import { accountStatus, type AccountStatus } from '../api/account-status';
import { adminUsersQuery, type AdminUserRow, PAGE_SIZE } from '../api/admin-users';
import { CreateUserDialog, DeleteUserDialog, EditUserDialog, PasswordDialog, roleMessageId } from '../components/user-dialogs';

const STATUS_BADGE: Record<AccountStatus, { id: string; color: string }> = {
  active: { id: 'admin.users.active', color: 'green' },
  unconfirmed: { id: 'admin.users.unconfirmed', color: 'gray' },
  password_reset: { id: 'admin.users.passwordReset', color: 'yellow' },
  suspended: { id: 'admin.users.suspended', color: 'red' },
};

/** The account's state in the list (issue 32 §6). */
function AccountStatusBadge({ user }: { user: AdminUserRow }) {
  const status = accountStatus(user);
  return (
    <Badge color={STATUS_BADGE[status].color} variant="light" data-testid="account-status" data-status={status}>
      <FormattedMessage id={STATUS_BADGE[status].id} />
    </Badge>
  );
}

type Dialog = { kind: 'edit' | 'password' | 'delete'; user: AdminUserRow } | null;

/** /admin/users: list, search, paginate, create, edit (role, suspension), set password, delete with confirmation (spec §2). */
export default function AdminUsersRoute() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const locale = useLocale();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [page, setPage] = useState(1);
  const [createOpen, { open: openCreate, close: closeCreate }] = useDisclosure(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const users = useQuery(adminUsersQuery(debounced, page));
  return (
    <Stack>
      <PageHeader
        title={<FormattedMessage id="page.admin-users.title" />}
        action={
          <Button onClick={openCreate}>
            <FormattedMessage id="admin.users.create" />
          </Button>
        }
      />
      <TextInput
        label={t('admin.users.search')}
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
        type="search"
      />
      {users.isPending && <Loader aria-label={t('auth.loading')} />}
      {users.isError && (
        <Alert color="red" role="alert">
          {users.error.message}
        </Alert>
      )}
      {users.data && users.data.rows.length === 0 && (
        <EmptyState compact>
          <FormattedMessage id="admin.users.empty" />
        </EmptyState>
      )}
      {users.data && users.data.rows.length > 0 && (
        <Table striped className="tw-stack-table" aria-label={t('page.admin-users.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <FormattedMessage id="admin.users.name" />
                </Table.Th>
                <Table.Th>
                  <FormattedMessage id="auth.field.email" />
                </Table.Th>
                <Table.Th>
                  <FormattedMessage id="admin.users.role" />
                </Table.Th>
                <Table.Th>
                  <FormattedMessage id="admin.users.status" />
                </Table.Th>
                <Table.Th>
                  <FormattedMessage id="admin.users.createdAt" />
                </Table.Th>
                <Table.Th>
                  <FormattedMessage id="admin.users.actions" />
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.data.rows.map((user) => (
                <Table.Tr key={user.id} data-email={user.email}>
                  <Table.Td data-label={t('admin.users.name')}>
                    {user.firstname} {user.lastname}
                  </Table.Td>
                  <Table.Td data-label={t('auth.field.email')}>{user.email}</Table.Td>
                  <Table.Td data-label={t('admin.users.role')}>
                    <FormattedMessage id={roleMessageId(user.user_role)} />
                  </Table.Td>
                  <Table.Td data-label={t('admin.users.status')}>
                    <AccountStatusBadge user={user} />
                  </Table.Td>
                  <Table.Td data-label={t('admin.users.createdAt')}>{formatDate(user.created_at, locale)}</Table.Td>
                  <Table.Td data-label={t('admin.users.actions')}>
                    <Menu>
                      <Menu.Target>
                        <Button size="xs" variant="outline" aria-label={intl.formatMessage({ id: 'admin.users.actionsFor' }, { email: user.email })}>
                          <FormattedMessage id="admin.users.actions" />
                        </Button>
                      </Menu.Target>
                      <Menu.Dropdown>
                        <Menu.Item onClick={() => setDialog({ kind: 'edit', user })}>
                          <FormattedMessage id="admin.users.edit" />
                        </Menu.Item>
                        <Menu.Item onClick={() => setDialog({ kind: 'password', user })}>
                          <FormattedMessage id="admin.users.setPassword" />
                        </Menu.Item>
                        <Menu.Item color="red" onClick={() => setDialog({ kind: 'delete', user })}>
                          <FormattedMessage id="admin.users.delete" />
                        </Menu.Item>
                      </Menu.Dropdown>
                    </Menu>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
      )}
      {users.data && <ListPagination total={users.data.total} pageSize={PAGE_SIZE} page={page} onChange={setPage} label={t('admin.users.pagination')} />}
      <CreateUserDialog opened={createOpen} onClose={closeCreate} />
      {dialog?.kind === 'edit' && <EditUserDialog user={dialog.user} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'password' && <PasswordDialog user={dialog.user} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'delete' && <DeleteUserDialog user={dialog.user} onClose={() => setDialog(null)} />}
    </Stack>
  );
}
