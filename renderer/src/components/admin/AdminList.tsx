// The frame of an admin list screen: the header with its "new" action and the last change's confirmation, and
// the filter bar (a search box and ChoiceFilters) above the DataTable.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Form, Input } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { PageHeader } from '../PageHeader';

interface HeaderProps {
  title: string;
  subtitle: string;
  newLabel: string;
  onNew(): void;
  /** Further actions before the "new" button. */
  extra?: ReactNode;
  /** What the last change did ("已保存…"), until closed. */
  notice?: string | null;
  onCloseNotice?(): void;
}

export function AdminListHeader({ title, subtitle, newLabel, onNew, extra, notice, onCloseNotice }: HeaderProps) {
  return (
    <>
      <PageHeader
        title={title}
        subtitle={subtitle}
        actions={
          <>
            {extra}
            <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={onNew}>
              {newLabel}
            </Button>
          </>
        }
      />
      {notice && <Alert className="section" type="success" showIcon closable={{ onClose: () => onCloseNotice?.() }} title={notice} />}
    </>
  );
}

/** The filters of a list: a search landmark named `label`, a search box first (name contains…). */
export function FilterBar({ label, id, q, onSearch, placeholder, children }: { label: string; id: string; q: string; onSearch(q: string): void; placeholder?: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Form layout="inline" role="search" aria-label={label} className="toolbar">
      <Form.Item label={t('common.filter.search')} htmlFor={id}>
        <Input.Search id={id} allowClear defaultValue={q} placeholder={placeholder} onSearch={(value) => onSearch(value.trim())} />
      </Form.Item>
      {children}
    </Form>
  );
}
