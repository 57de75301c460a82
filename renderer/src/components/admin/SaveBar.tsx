import { useTranslation } from 'react-i18next';
import { Alert, Button, Flex } from 'antd';
import { ErrorNotice } from '../states';

/**
 * The end of a form saved in place (not a dialog): the save's error, what saving did until the form is edited
 * again, and the save button.
 */
export function SaveBar({ mutation, dirty, savedText }: { mutation: { error: unknown; isPending: boolean; isSuccess: boolean }; dirty: boolean; savedText: string }) {
  const { t } = useTranslation();
  return (
    <>
      {!!mutation.error && <ErrorNotice error={mutation.error} />}
      {mutation.isSuccess && !dirty && <Alert className="section" type="success" showIcon title={savedText} />}
      <Flex justify="flex-end">
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          {t('common.action.save')}
        </Button>
      </Flex>
    </>
  );
}
