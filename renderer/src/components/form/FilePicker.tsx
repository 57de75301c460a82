import { Button, Upload } from 'antd';
import { InboxOutlined, UploadOutlined } from '@ant-design/icons';

interface Props {
  file: File | null;
  onChange(file: File | null): void;
  /** The button's text ("选择文件"). */
  chooseLabel: string;
  /** Names the file input when no FormItem label points at it (`id`). */
  'aria-label'?: string;
  id?: string;
  accept?: string;
  /** Given: a drop area ("drag a file here") around the choose text, with this hint below it. */
  dropHint?: string;
}

/**
 * One file chosen for a form that sends it on submit (antd Upload in manual mode: nothing is sent on choosing).
 * In a FormItem: `{({ id, onChange, value }) => <FilePicker id={id} file={value} onChange={onChange} … />}`.
 */
export function FilePicker({ file, onChange, chooseLabel, id, accept, dropHint, 'aria-label': ariaLabel }: Props) {
  const props = {
    id,
    accept,
    'aria-label': ariaLabel,
    maxCount: 1,
    beforeUpload: (chosen: File) => {
      onChange(chosen);
      return false;
    },
    onRemove: () => onChange(null),
    fileList: file ? [{ uid: 'chosen', name: file.name, size: file.size, status: 'done' as const }] : [],
  };
  if (dropHint !== undefined)
    return (
      <Upload.Dragger {...props}>
        <p className="ant-upload-drag-icon">
          <InboxOutlined aria-hidden />
        </p>
        <p className="ant-upload-text">{chooseLabel}</p>
        <p className="ant-upload-hint">{dropHint}</p>
      </Upload.Dragger>
    );
  return (
    <Upload {...props}>
      <Button icon={<UploadOutlined aria-hidden />}>{chooseLabel}</Button>
    </Upload>
  );
}
