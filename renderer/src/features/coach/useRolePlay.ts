import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { coachingQueries } from '../coaching/queries';

/**
 * A role-play of a real call, opened from its coaching report as `/coach?report=7&start=1`: the coach plays the
 * call's customer. `startMessage` is the report's launch message until the page has sent it (`started()` drops
 * `start` from the URL, so a reload does not send it again); `context` goes with every message of the practice.
 */
export function useRolePlay() {
  const [params, setParams] = useSearchParams();
  const param = params.get('report');
  const reportId = param && /^[1-9]\d{0,9}$/.test(param) ? Number(param) : null;
  const report = useQuery({ ...coachingQueries.report(reportId ?? 0), enabled: reportId !== null });
  const scenario = reportId !== null ? (report.data?.scenario ?? null) : null;
  return {
    reportId,
    filename: report.data?.filename ?? '',
    error: reportId !== null ? report.error : null,
    active: scenario !== null,
    context: scenario?.launch.message.context,
    startMessage: scenario && params.get('start') === '1' ? scenario.launch.message.message : null,
    started: () =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('start');
          return next;
        },
        { replace: true },
      ),
    end: () => setParams({}),
  };
}
