import { useTranslation } from 'react-i18next';
import { Button, Flex, Typography } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';

/** Previous / next for lists whose server does not count (products, courses, users). */
export function SimplePager({ page, hasNext, onPage }: { page: number; hasNext: boolean; onPage(page: number): void }) {
  const { t } = useTranslation();
  if (page <= 1 && !hasNext) return null;
  return (
    <nav aria-label={t('common.list.pages')}>
      <Flex className="pager" justify="flex-end" align="center" gap="small">
        <Button size="small" icon={<LeftOutlined aria-hidden />} disabled={page <= 1} onClick={() => onPage(page - 1)}>
          {t('common.list.previous')}
        </Button>
        <Typography.Text type="secondary">{t('common.list.page', { page })}</Typography.Text>
        <Button size="small" icon={<RightOutlined aria-hidden />} iconPlacement="end" disabled={!hasNext} onClick={() => onPage(page + 1)}>
          {t('common.list.next')}
        </Button>
      </Flex>
    </nav>
  );
}
