import { Button, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';

interface Props {
  file: File | null;
  onChange(file: File | null): void;
  /** The button's text ("选择文件"). */
  chooseLabel: string;
  /** Names the file input when no FormItem label points at it (`id`). */
  'aria-label'?: string;
  id?: string;
  accept?: string;
}

/**
 * One file chosen for a form that sends it on submit (antd Upload in manual mode: nothing is sent on choosing).
 * In a FormItem: `{({ id, onChange, value }) => <FilePicker id={id} file={value} onChange={onChange} … />}`.
 */
export function FilePicker({ file, onChange, chooseLabel, id, accept, 'aria-label': ariaLabel }: Props) {
  return (
    <Upload
      id={id}
      accept={accept}
      aria-label={ariaLabel}
      maxCount={1}
      beforeUpload={(chosen) => {
        onChange(chosen);
        return false;
      }}
      onRemove={() => onChange(null)}
      fileList={file ? [{ uid: 'chosen', name: file.name, size: file.size, status: 'done' }] : []}
    >
      <Button icon={<UploadOutlined aria-hidden />}>{chooseLabel}</Button>
    </Upload>
  );
}
