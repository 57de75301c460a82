import { useState } from 'react';
import { useMutation, useQuery } from '../../app/query';
import { Link } from '../../app/router';
import { PageHeader } from '../../components/PageHeader';
import { Empty, ErrorNotice, QueryView } from '../../components/states';
import { formatDateTime } from '../../components/format';
import { useSession } from '../../app/session';
import { RecordsTable } from './RecordsTable';
import type { Certificate } from '../../api/types';
import { Pager } from '../review/Pager';
import { downloadCertificate, listCertificates, listRecords, recordKeys } from './api';

/** The caller's formal exam records and certificates. */
export function RecordsPage() {
  return (
    <>
      <PageHeader title="My records" subtitle="Every formal exam you submitted, and the certificates you earned." />
      <Certificates />
      <h2 className="section-title">Exam records</h2>
      <Records />
    </>
  );
}

function Records() {
  const [page, setPage] = useState(1);
  const { user } = useSession();
  // An admin's /exam/record lists everyone's: "My records" asks for the caller's own.
  const records = useQuery(recordKeys.list(page), (signal) => listRecords(page, user!.id, signal));
  return (
    <QueryView query={records}>
      {(data) =>
        data.items.length ? (
          <>
            <RecordsTable records={data.items} />
            <Pager page={data} onPage={setPage} />
          </>
        ) : (
          <Empty>
            No exam records yet. <Link to="/exams">Take an exam</Link>
          </Empty>
        )
      }
    </QueryView>
  );
}

function Certificates() {
  const certificates = useQuery(recordKeys.certificates, listCertificates);
  return (
    <section className="panel" aria-label="Certificates">
      <h2 className="panel-title">Certificates</h2>
      <QueryView query={certificates}>
        {(list) =>
          list.length ? (
            <ul className="certificate-list">
              {list.map((certificate) => (
                <CertificateItem key={certificate.id} certificate={certificate} />
              ))}
            </ul>
          ) : (
            <p className="muted">Pass a formal exam to earn a certificate.</p>
          )
        }
      </QueryView>
    </section>
  );
}

function CertificateItem({ certificate }: { certificate: Certificate }) {
  const download = useMutation(downloadCertificate);
  return (
    <li className="certificate">
      <div>
        <strong>{certificate.exam_name}</strong>
        <div className="muted small">
          {certificate.certificate_no} · score {certificate.score} of {certificate.total_score} · issued {formatDateTime(certificate.issued_at)}
        </div>
        {download.error && <ErrorNotice error={download.error} />}
      </div>
      <button type="button" className="button button-small" disabled={download.busy} onClick={() => download.run(certificate)} aria-label={`Download certificate ${certificate.certificate_no}`}>
        {download.busy ? 'Downloading…' : 'Download PDF'}
      </button>
    </li>
  );
}
