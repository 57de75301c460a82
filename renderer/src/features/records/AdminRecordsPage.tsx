import { useState, type FormEvent } from 'react';
import { useQuery } from '../../app/query';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryView } from '../../components/states';
import { Pager } from '../review/Pager';
import { listAllRecords, recordKeys } from './api';
import { RecordsTable } from './RecordsTable';

/** Everyone's formal exam records, searchable by person or exam and filterable by result (admin). */
export function AdminRecordsPage() {
  const [page, setPage] = useState(1);
  const [draft, setDraft] = useState('');
  const [keyword, setKeyword] = useState('');
  const [passed, setPassed] = useState('');
  const records = useQuery(recordKeys.everyone(page, keyword, passed), (signal) => listAllRecords(page, keyword, passed, signal));

  const search = (event: FormEvent) => {
    event.preventDefault();
    setKeyword(draft.trim());
    setPage(1);
  };

  return (
    <>
      <PageHeader title="Exam records" subtitle="Every formal exam submitted by anyone. Open a record to see each answer." />
      <form className="toolbar" role="search" aria-label="Find exam records" onSubmit={search}>
        <label className="inline-field">
          <span>Person or exam</span>
          <input type="search" value={draft} onChange={(e) => setDraft(e.target.value)} />
        </label>
        <label className="inline-field">
          <span>Result</span>
          <select
            value={passed}
            onChange={(e) => {
              setPassed(e.target.value);
              setPage(1);
            }}
          >
            <option value="">All</option>
            <option value="true">Passed</option>
            <option value="false">Not passed</option>
          </select>
        </label>
        <button type="submit" className="button">
          Search
        </button>
      </form>
      <QueryView query={records}>
        {(data) =>
          data.items.length ? (
            <>
              <RecordsTable records={data.items} showPerson />
              <Pager page={data} onPage={setPage} />
            </>
          ) : (
            <Empty>{keyword || passed ? 'No record matches.' : 'Nobody has submitted a formal exam yet.'}</Empty>
          )
        }
      </QueryView>
    </>
  );
}
