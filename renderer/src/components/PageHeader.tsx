import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Flex, Space, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';

/** Every page starts with this: its one h1, a line saying what the page is for, actions on the right. */
export function PageHeader({ title, subtitle, actions, back }: { title: ReactNode; subtitle?: ReactNode; actions?: ReactNode; back?: { to: string; label: string; onClick?: () => void } }) {
  return (
    <header className="page-header">
      {back && (
        <Link to={back.to} className="page-back" onClick={back.onClick}>
          <ArrowLeftOutlined aria-hidden /> {back.label}
        </Link>
      )}
      <Flex justify="space-between" align="flex-start" gap="middle" wrap>
        <div className="page-heading">
          <Typography.Title level={1} className="page-title">
            {title}
          </Typography.Title>
          {subtitle && <Typography.Text type="secondary">{subtitle}</Typography.Text>}
        </div>
        {actions && <Space wrap>{actions}</Space>}
      </Flex>
    </header>
  );
}
