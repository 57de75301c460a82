import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '../../app/query';
import { PageHeader } from '../../components/PageHeader';
import { ErrorNotice, QueryView } from '../../components/states';
import type { SystemConfig } from '../../api/types';
import { adminKeys, getConfig, saveConfig } from './api';

export function SystemConfigPage() {
  const config = useQuery(adminKeys.config, getConfig);
  return (
    <>
      <PageHeader title="System settings" subtitle="The AI model the coach uses, how long a login lasts, and the company introduction." />
      <QueryView query={config}>{(data) => <ConfigForm config={data} />}</QueryView>
    </>
  );
}

const text = (value: SystemConfig[string] | undefined) => (value === undefined ? '' : String(value));

function ConfigForm({ config }: { config: SystemConfig }) {
  const [baseUrl, setBaseUrl] = useState(text(config.llm_base_url));
  const [model, setModel] = useState(text(config.llm_model));
  // The stored key is only ever shown masked; an empty field keeps it, typing a new one replaces it.
  const [apiKey, setApiKey] = useState('');
  const [minutes, setMinutes] = useState(text(config.jwt_expire_minutes));
  const [intro, setIntro] = useState(text(config.company_intro_content));
  const [storedKey, setStoredKey] = useState(text(config.llm_api_key));
  const [saved, setSaved] = useState(false);
  const save = useMutation(saveConfig, ['company']);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const configs: Record<string, unknown> = {
      llm_base_url: baseUrl.trim(),
      llm_model: model.trim(),
      jwt_expire_minutes: Number(minutes),
      company_intro_content: intro,
    };
    if (apiKey) configs.llm_api_key = apiKey;
    const updated = await save.run(configs);
    if (updated === undefined) return;
    setStoredKey(text(updated.llm_api_key));
    setApiKey('');
    setSaved(true);
  };

  return (
    <form className="panel form-grid form-grid-2" onSubmit={submit} aria-label="System settings">
      <h2 className="panel-title form-span">AI model</h2>
      <label className="field form-span">
        <span>Model server address (llm_base_url)</span>
        <input type="url" placeholder="https://models.example.com/v1" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} />
      </label>
      <label className="field">
        <span>Model name (llm_model)</span>
        <input value={model} onChange={(e) => setModel(e.target.value)} />
      </label>
      <label className="field">
        <span>API key (llm_api_key)</span>
        <input type="password" autoComplete="off" placeholder={storedKey ? 'Leave empty to keep the stored key' : 'Not set'} value={apiKey} onChange={(e) => setApiKey(e.target.value)} />
        {storedKey && <small className="muted">Stored key: {storedKey}</small>}
      </label>
      <h2 className="panel-title form-span">Sessions</h2>
      <label className="field form-half">
        <span>Login lifetime in minutes (jwt_expire_minutes)</span>
        <input type="number" min={1} step={1} required value={minutes} onChange={(e) => setMinutes(e.target.value)} />
      </label>
      <h2 className="panel-title form-span">Company introduction</h2>
      <label className="field form-span">
        <span>Shown on everyone's home page (plain text, light markdown or HTML)</span>
        <textarea rows={8} value={intro} onChange={(e) => setIntro(e.target.value)} />
      </label>
      <div className="form-actions form-span">
        <button type="submit" className="button button-primary" disabled={save.busy}>
          {save.busy ? 'Saving…' : 'Save settings'}
        </button>
        {saved && <span className="notice notice-success">Settings saved.</span>}
      </div>
      {save.error && (
        <div className="form-span">
          <ErrorNotice error={save.error} />
        </div>
      )}
    </form>
  );
}
