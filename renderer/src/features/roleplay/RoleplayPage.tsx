import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Empty, Input, List, Space, Tag, Typography } from 'antd';
import { PageHeader } from '../../components/PageHeader';
import { QueryView } from '../../components/states';
import type { Scenario, Session, Turn } from '../../../../contract/roleplay.js';
import { roleplayQueries, useFinish, useStartSession, useTakeTurn } from './queries';
import { speakChinese } from './speech';
import { SessionReport } from './SessionReport';
import { HoldToTalk } from './HoldToTalk';

/** 工作台 → 陪练: pick a scenario, talk to the customer, read the report. */
export default function RoleplayPage() {
  const { t } = useTranslation();
  const [sessionId, setSessionId] = useState<number | null>(null);
  return (
    <>
      <PageHeader title={t('roleplay.title')} subtitle={t('roleplay.subtitle')} back={sessionId !== null ? { to: '/roleplay', label: t('roleplay.back'), onClick: () => setSessionId(null) } : undefined} />
      {sessionId === null ? <ScenarioPicker onStarted={setSessionId} /> : <SessionView id={sessionId} />}
    </>
  );
}

function ScenarioPicker({ onStarted }: { onStarted(id: number): void }) {
  const { t } = useTranslation();
  const query = useQuery(roleplayQueries.scenarios());
  const start = useStartSession();
  const assigned = Number(new URLSearchParams(window.location.hash.split('?')[1] ?? '').get('scenario')) || null;
  return (
    <QueryView query={query}>
      {(scenarios: Scenario[]) =>
        scenarios.length ? (
          <List
            dataSource={[...scenarios].sort((a, b) => Number(b.id === assigned) - Number(a.id === assigned))}
            renderItem={(s) => (
              <List.Item
                actions={[
                  <Button key="start" type="primary" loading={start.isPending && start.variables === s.id} onClick={() => start.mutate(s.id, { onSuccess: (session) => onStarted(session.id) })}>
                    {t('roleplay.start')}
                  </Button>,
                ]}
              >
                <List.Item.Meta
                  title={
                    <Space>
                      {s.title}
                      {s.id === assigned && <Tag color="orange">{t('roleplay.assigned')}</Tag>}
                    </Space>
                  }
                  description={t('roleplay.persona', { name: s.persona.name, profile: s.persona.profile, risk: s.persona.risk_tolerance })}
                />
              </List.Item>
            )}
          />
        ) : (
          <Empty description={t('roleplay.noScenarios')} />
        )
      }
    </QueryView>
  );
}

function TurnLine({ turn }: { turn: Turn }) {
  const { t } = useTranslation();
  const rep = turn.speaker === 'rep';
  return (
    <div className={`roleplay-turn roleplay-turn-${turn.speaker}`} data-testid={`turn-${turn.index}`} style={{ display: 'flex', justifyContent: rep ? 'flex-end' : 'flex-start', margin: '8px 0' }}>
      <Card size="small" style={{ maxWidth: '70%', background: rep ? '#e6f4ff' : undefined }} title={rep ? t('roleplay.you') : t('roleplay.customer')}>
        <Typography.Text>{turn.text}</Typography.Text>
        {turn.flags?.map((f) => (
          <div key={f.rule_key}>
            <Tag color="red" data-testid="flag">
              {t('roleplay.flag', { rule: f.rule_key })}
            </Tag>
          </div>
        ))}
      </Card>
    </div>
  );
}

function SessionView({ id }: { id: number }) {
  const { t } = useTranslation();
  const query = useQuery(roleplayQueries.session(id));
  const take = useTakeTurn(id);
  const finish = useFinish(id);
  const [text, setText] = useState('');
  const spoken = useRef(0);
  const turns = query.data?.turns ?? [];
  useEffect(() => {
    const last = turns.at(-1);
    if (last && last.speaker === 'customer' && last.index >= spoken.current) {
      spoken.current = last.index + 1;
      speakChinese(last.text);
    }
  }, [turns]);
  const send = () => {
    const words = text.trim();
    if (!words) return;
    take.mutate(words, { onSuccess: () => setText('') });
  };
  return (
    <QueryView query={query}>
      {(session: Session) => (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Tag>{session.mode === 'model' ? t('roleplay.modeModel') : t('roleplay.modeScripted')}</Tag>
          <div data-testid="roleplay-chat">
            {session.turns.map((turn) => (
              <TurnLine key={turn.index} turn={turn} />
            ))}
          </div>
          {(take.error || finish.error) && <Alert type="error" message={(take.error ?? finish.error)!.message} />}
          {session.status === 'active' ? (
            <Space.Compact style={{ width: '100%' }}>
              <Input.TextArea value={text} onChange={(e) => setText(e.target.value)} placeholder={t('roleplay.placeholder')} autoSize={{ minRows: 1, maxRows: 4 }} onPressEnter={(e) => (e.preventDefault(), send())} aria-label={t('roleplay.placeholder')} />
              <HoldToTalk disabled={take.isPending} onRecorded={(recording) => take.mutate(recording)} />
              <Button type="primary" onClick={send} loading={take.isPending}>
                {t('roleplay.send')}
              </Button>
              <Button onClick={() => finish.mutate()} loading={finish.isPending}>
                {t('roleplay.finish')}
              </Button>
            </Space.Compact>
          ) : (
            <SessionReport session={session} />
          )}
        </Space>
      )}
    </QueryView>
  );
}
