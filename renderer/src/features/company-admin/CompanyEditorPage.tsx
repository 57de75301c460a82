import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Button, Card, Col, Flex, Input, Row } from 'antd';
import { PageHeader } from '../../components/PageHeader';
import { SaveBar } from '../../components/admin/SaveBar';
import { QueryView } from '../../components/states';
import { RichText } from '../../components/RichText';
import { MediaList } from '../../components/MediaList';
import { FormItem, ZodForm, useZodForm } from '../../components/form/ZodForm';
import { adminQueries } from '../admin/queries';
import { useSaveConfig } from '../admin/mutations';
import { companyQueries } from '../home/queries';

/** The company introduction every employee reads: its text with a live preview, and the approved media shown with it. */
export default function CompanyEditorPage() {
  const { t } = useTranslation();
  const config = useQuery(adminQueries.config());
  const intro = useQuery(companyQueries.intro());
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title={t('content.company.title')} subtitle={t('content.company.subtitle')} />
      <QueryView query={config}>{(data) => <IntroEditor content={typeof data.company_intro_content === 'string' ? data.company_intro_content : ''} />}</QueryView>
      <Card className="section">
        <h2 className="card-heading">{t('content.company.media')}</h2>
        <Flex className="section" gap="small" align="center" wrap>
          <span className="muted">{t('content.company.mediaHelp')}</span>
          <Button size="small" onClick={() => navigate('/media/upload')}>
            {t('content.company.upload')}
          </Button>
          <Button size="small" onClick={() => navigate('/admin/media')}>
            {t('content.company.review')}
          </Button>
        </Flex>
        <QueryView query={intro}>{(data) => <MediaList medias={data.medias} emptyText={t('content.company.noMedia')} />}</QueryView>
      </Card>
    </>
  );
}

const schema = z.object({ content: z.string().max(1_000_000, 'content.validation.tooLong') });

function IntroEditor({ content }: { content: string }) {
  const { t } = useTranslation();
  const form = useZodForm(schema, { content });
  const save = useSaveConfig();
  const draft = form.watch('content');
  return (
    <Row gutter={16}>
      <Col xs={24} xl={12}>
        <Card>
          <ZodForm form={form} onSubmit={(v) => save.mutate({ company_intro_content: v.content }, { onSuccess: () => form.reset(v) })} aria-label={t('content.company.editor')}>
            <FormItem control={form.control} name="content" label={t('content.company.editor')} extra={t('content.richTextHelp')}>
              {(field) => <Input.TextArea {...field} autoSize={{ minRows: 14, maxRows: 28 }} />}
            </FormItem>
            <SaveBar mutation={save} dirty={form.formState.isDirty} savedText={t('content.company.saved')} />
          </ZodForm>
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Card>
          <section aria-label={t('content.company.preview')}>
            <h2 className="card-heading">{t('content.company.preview')}</h2>
            {draft.trim() ? <RichText content={draft} /> : <p className="muted">{t('content.company.empty')}</p>}
          </section>
        </Card>
      </Col>
    </Row>
  );
}
