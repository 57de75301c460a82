import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Input, Modal, Table, Typography } from 'antd';
import { useDiscardGuard } from '../../components/form/useDiscardGuard';
import { api } from '../../api/client';
import type { RuleSet, RuleSetSummary } from '../../api/types';
import { StatusTag } from '../../components/StatusTag';
import { ErrorNotice, QueryView } from '../../components/states';
import { complianceKeys, complianceQueries } from './queries';

/** The rule sets, and each one's rules edited as JSON (each save is a new version; past inspections keep theirs). */
export function RuleSetsTab() {
  const { t } = useTranslation();
  const sets = useQuery(complianceQueries.ruleSets());
  const [editing, setEditing] = useState<number | null>(null);
  const scope = (s: RuleSetSummary) => t(`compliance.ruleSets.scopes.${s.scope}`, { value: s.scope_value ?? '' });
  return (
    <>
      <QueryView query={sets}>
        {(list) => (
          <Table<RuleSetSummary>
            aria-label={t('compliance.admin.rulesTab')}
            rowKey="id"
            dataSource={list}
            pagination={false}
            columns={[
              { title: t('compliance.ruleSets.name'), render: (_, s) => <>{s.name} {s.is_default && <StatusTag tone="info">{t('compliance.ruleSets.default')}</StatusTag>}</> },
              { title: t('compliance.ruleSets.scope'), render: (_, s) => scope(s) },
              { title: t('compliance.ruleSets.version'), dataIndex: 'version', width: 80 },
              { title: t('compliance.ruleSets.rules'), dataIndex: 'rule_count', width: 80 },
              { title: t('compliance.ruleSets.status'), render: (_, s) => <StatusTag tone={s.status === 'active' ? 'success' : 'neutral'}>{t(`compliance.ruleSets.statuses.${s.status}`)}</StatusTag> },
              { title: '', render: (_, s) => <Button onClick={() => setEditing(s.id)}>{t('compliance.ruleSets.edit')}</Button> },
            ]}
          />
        )}
      </QueryView>
      {editing !== null && <RuleSetEditor id={editing} onClose={() => setEditing(null)} />}
    </>
  );
}

function RuleSetEditor({ id, onClose }: { id: number; onClose(): void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const set = useQuery(complianceQueries.ruleSet(id));
  const [text, setText] = useState<string | null>(null);
  const [invalid, setInvalid] = useState(false);
  const save = useMutation({
    mutationFn: (rules: unknown) => api.put<RuleSet>(`/compliance/rule-sets/${id}`, { rules }),
    onSuccess: (saved) => {
      client.setQueryData(complianceKeys.ruleSet(id), saved);
      void client.invalidateQueries({ queryKey: complianceKeys.ruleSets() });
    },
  });
  const value = text ?? (set.data ? JSON.stringify(set.data.rules, null, 2) : '');
  const { requestClose, holder } = useDiscardGuard();
  const unsaved = text !== null && text !== (save.data ? JSON.stringify(save.data.rules, null, 2) : JSON.stringify(set.data?.rules ?? null, null, 2));
  const submit = () => {
    let rules: unknown;
    try {
      rules = JSON.parse(value);
    } catch {
      setInvalid(true);
      return;
    }
    setInvalid(!Array.isArray(rules));
    if (Array.isArray(rules)) save.mutate(rules);
  };
  return (
    <Modal open width={900} title={t('compliance.ruleSets.editTitle', { name: set.data?.name ?? '' })} onCancel={() => requestClose(unsaved, onClose)} onOk={submit} okText={t('compliance.ruleSets.save')} confirmLoading={save.isPending}>
      {holder}
      <Typography.Paragraph type="secondary">{t('compliance.ruleSets.help')}</Typography.Paragraph>
      {invalid && <Alert type="error" showIcon title={t('compliance.ruleSets.invalidJson')} />}
      {save.error && <ErrorNotice error={save.error} />}
      {save.data && <Alert type="success" showIcon title={t('compliance.ruleSets.saved', { version: save.data.version })} />}
      <label htmlFor="rule-set-json">{t('compliance.ruleSets.rulesLabel')}</label>
      <Input.TextArea id="rule-set-json" value={value} onChange={(e) => setText(e.target.value)} autoSize={{ minRows: 16, maxRows: 24 }} className="code-text" spellCheck={false} />
    </Modal>
  );
}
