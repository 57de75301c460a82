import { useQuery, useQueryClient } from '@tanstack/react-query';
import { RemoteSelect, type RemoteOption } from '../../components/form/RemoteSelect';
import { workbenchKeys, workbenchQueries } from './queries';

/**
 * The caller's project `id` as a picker option: from the first page of projects (the picker asks for it anyway),
 * else as picked or created here (`remember`), else asked for alone.
 */
export function useProjectOption(id: number | null) {
  const queryClient = useQueryClient();
  const firstPage = useQuery(workbenchQueries.projectOptions(''));
  const listed = firstPage.data?.find((o) => o.value === id);
  const named = useQuery({ ...workbenchQueries.projectName(id ?? 0), enabled: id !== null && firstPage.isSuccess && !listed });
  const current = id === null ? null : (listed ?? named.data ?? null);
  const remember = (option: RemoteOption | null) => option && queryClient.setQueryData(workbenchKeys.projectName(option.value), option);
  return { current, remember };
}

interface Props {
  value: number | null;
  onChange(id: number | null): void;
  /** The label, and what the picker reads with no project chosen (clearing it chooses none). */
  label: string;
  none: string;
  size?: 'small';
}

/** One of the caller's projects: typing searches their names on the server. */
export function ProjectSelect({ value, onChange, label, none, size }: Props) {
  const { current, remember } = useProjectOption(value);
  return (
    <RemoteSelect
      className="project-select"
      size={size}
      aria-label={label}
      placeholder={none}
      search={workbenchQueries.projectOptions}
      value={value}
      current={current}
      onChange={(id, option) => {
        remember(option);
        onChange(id);
      }}
    />
  );
}
