import { useState, type FormEvent } from 'react';
import { invalidate, useMutation, useQuery } from '../../app/query';
import { PageHeader } from '../../components/PageHeader';
import { Pill } from '../../components/Pill';
import { ErrorNotice, QueryView } from '../../components/states';
import type { PackImportResult } from '../../api/types';
import { exportAllApproved, getPackKey, importPack, packKeys } from './api';

/**
 * Knowledge packs carry approved knowledge sources and media to installs without a network: this install's
 * signing key (for the branches' trusted keys), export of everything approved, and import of a pack file.
 */
export function PacksPage() {
  return (
    <>
      <PageHeader title="Knowledge packs" subtitle="Carry approved knowledge and media to branches without a network, on a USB stick." />
      <SigningKey />
      <ExportPack />
      <ImportPack />
    </>
  );
}

function SigningKey() {
  const key = useQuery(packKeys.key, getPackKey);
  const [copied, setCopied] = useState(false);
  return (
    <section className="panel" aria-label="This install's signing key">
      <h2 className="panel-title">This install's signing key</h2>
      <p className="muted small">A branch that lists this key in its trusted pack keys (System settings) approves what your packs bring at once.</p>
      <QueryView query={key}>
        {(data) => (
          <div className="form-actions">
            <code aria-label="Fingerprint">{data.fingerprint}</code>
            <button
              type="button"
              className="button button-small"
              onClick={async () => {
                await navigator.clipboard.writeText(data.public_key);
                setCopied(true);
              }}
            >
              {copied ? 'Copied' : 'Copy the full key'}
            </button>
          </div>
        )}
      </QueryView>
    </section>
  );
}

function ExportPack() {
  const exporting = useMutation(exportAllApproved);
  return (
    <section className="panel" aria-label="Export">
      <h2 className="panel-title">Export</h2>
      <p className="muted small">One signed file with every approved knowledge source and every approved media file.</p>
      <div className="form-actions">
        <button type="button" className="button button-primary" disabled={exporting.busy} onClick={() => exporting.run()}>
          {exporting.busy ? 'Preparing the pack…' : 'Export everything approved'}
        </button>
      </div>
      {exporting.error && <ErrorNotice error={exporting.error} />}
    </section>
  );
}

function ImportPack() {
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<PackImportResult | null>(null);
  const importing = useMutation(importPack);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setResult(null);
    const imported = await importing.run(file);
    if (imported) {
      setResult(imported);
      invalidate('media');
      invalidate('knowledge');
    }
  };
  const damaged = importing.error?.code === 'pack_invalid';
  return (
    <section className="panel" aria-label="Import">
      <h2 className="panel-title">Import</h2>
      <form className="form-actions" aria-label="Import a pack" onSubmit={submit}>
        <input type="file" accept=".tgz,application/gzip" aria-label="Pack file" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        <button type="submit" className="button button-primary" disabled={!file || importing.busy}>
          {importing.busy ? 'Checking and importing…' : 'Import'}
        </button>
      </form>
      {damaged && <div className="notice notice-error">This pack is damaged or has been modified; nothing was imported.</div>}
      {importing.error && !damaged && <ErrorNotice error={importing.error} />}
      {result && <ImportResult result={result} />}
    </section>
  );
}

function ImportResult({ result }: { result: PackImportResult }) {
  const rows = [
    ...result.sources.map((s) => ({ key: `s${s.id}`, kind: 'Knowledge source', name: s.title || s.file_path, status: s.status, change: s.change })),
    ...result.media.map((m) => ({ key: `m${m.id}`, kind: 'Media', name: m.filename, status: m.status, change: m.change })),
  ];
  return (
    <>
      <div className={`notice ${result.trusted ? 'notice-success' : 'notice-warning'}`}>
        Signed by {result.fingerprint}, {result.trusted ? 'trusted: new items are approved.' : 'not trusted: review the items below in Media review and Knowledge review.'}
      </div>
      <table className="table" aria-label="Imported items">
        <thead>
          <tr>
            <th>Item</th>
            <th>Kind</th>
            <th>Change</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <td>{row.name}</td>
              <td>{row.kind}</td>
              <td>{row.change}</td>
              <td>
                <Pill tone={row.status === 'approved' ? 'success' : row.status === 'rejected' ? 'danger' : 'neutral'}>{row.status}</Pill>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
