import { DefinitionsPage } from './DefinitionsPage';

export default function AppsPage() {
  return <DefinitionsPage kind="xapp" />;
}
