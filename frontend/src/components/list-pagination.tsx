import { Pagination } from '@mantine/core';
import { useIntl } from 'react-intl';

const CONTROL_LABEL = {
  first: 'common.page.first',
  previous: 'common.page.previous',
  next: 'common.page.next',
  last: 'common.page.last',
} as const;

/**
 * Page switcher of a list with labelled controls (keyboard and screen readers); renders nothing
 * when everything fits on one page. Every list uses it (issue 33 §13: the admin's user list had
 * arrows without names).
 * @param total number of items, pageSize items per page, page 1-based
 * @param label optional name of the page switcher (rendered as a `nav` landmark with that name)
 */
export function ListPagination({ total, pageSize, page, onChange, label }: { total: number; pageSize: number; page: number; onChange: (page: number) => void; label?: string }) {
  const intl = useIntl();
  if (total <= pageSize) return null;
  const pagination = (
    <Pagination
      total={Math.ceil(total / pageSize)}
      value={page}
      onChange={onChange}
      getControlProps={(control) => ({ 'aria-label': intl.formatMessage({ id: CONTROL_LABEL[control] }) })}
      getItemProps={(n) => ({ 'aria-label': intl.formatMessage({ id: 'common.page.number' }, { page: n }) })}
    />
  );
  return label ? <nav aria-label={label}>{pagination}</nav> : pagination;
}
